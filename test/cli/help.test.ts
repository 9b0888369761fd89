import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

afterEach(() => vi.restoreAllMocks());

describe('mmbot help', () => {
  it('lists every command with its summary starting in one column (walk-forward included)', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    expect(await main(['help'])).toBe(0);
    const rows = out.split('\n').filter((l) => /^ {2}[a-z]/.test(l));
    expect(rows.map((r) => r.trim().split(' ')[0])).toContain('walk-forward');
    // Each row is "  <name padded> <summary>": the summary starts right after the longest name.
    const column = rows.map((r) => /^ {2}[a-z-]+ +/.exec(r)![0].length);
    expect(new Set(column)).toEqual(new Set(['  walk-forward '.length]));
  });
});
