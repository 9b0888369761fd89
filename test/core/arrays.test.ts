import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/core/arrays.ts';

describe('truncate', () => {
  it('shortens in place to the given length and leaves shorter arrays alone', () => {
    const xs = [1, 2, 3, 4];
    truncate(xs, 2);
    expect(xs).toEqual([1, 2]);
    truncate(xs, 5);
    expect(xs).toEqual([1, 2]);
    truncate(xs, 0);
    expect(xs).toEqual([]);
    xs.push(7);
    expect(xs).toEqual([7]);
  });
});
