import { describe, expect, it } from 'vitest';
import { withMarkedSection } from './bench-kit.ts';

describe('withMarkedSection', () => {
  it('replaces what lies between the markers and keeps them; null when they are missing or reversed', () => {
    const text = 'a\n<!-- T:BEGIN -->\nold\n<!-- T:END -->\nz\n';
    expect(withMarkedSection(text, 'T', '\nnew\n')).toBe('a\n<!-- T:BEGIN -->\nnew\n<!-- T:END -->\nz\n');
    expect(withMarkedSection(text, 'U', 'x')).toBeNull();
    expect(withMarkedSection('<!-- T:END --><!-- T:BEGIN -->', 'T', 'x')).toBeNull();
  });
});
