import { describe, expect, it } from 'vitest';
import { grownColumn } from '../../../src/strategy/estimators/ring.ts';

describe('grownColumn', () => {
  it('doubles a full ring and lays its live slots out from slot 0, in order', () => {
    // Slots 2, 3, 0, 1 hold the samples in age order (head 2, four live).
    const g = grownColumn(new Float64Array([30, 40, 10, 20]), 2, 4);
    expect(g).toBeInstanceOf(Float64Array);
    expect([...g]).toEqual([10, 20, 30, 40, 0, 0, 0, 0]);
    expect([...grownColumn(new Int8Array([-1, 1, 1]), 1, 3)]).toEqual([1, 1, -1, 0, 0, 0]);
  });

  it('moves every entry of a slot `width` wide together', () => {
    // Two slots of three features each, head 1: slot 1 (4, 5, 6) first.
    const g = grownColumn(new Float64Array([1, 2, 3, 4, 5, 6]), 1, 2, 3);
    expect([...g]).toEqual([4, 5, 6, 1, 2, 3, 0, 0, 0, 0, 0, 0]);
  });
});
