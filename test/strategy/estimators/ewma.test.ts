import { describe, expect, it } from 'vitest';
import { Ewma } from '../../../src/strategy/estimators/index.ts';

describe('Ewma', () => {
  it('is NaN before data and equals a constant input', () => {
    const e = new Ewma(1000);
    expect(e.value).toBeNaN();
    for (let t = 0; t < 10_000; t += 100) e.update(7, t);
    expect(e.value).toBeCloseTo(7, 12);
  });

  it('weighs by engine time, not by update count: one half-life halves the old weight', () => {
    const e = new Ewma(1000);
    e.update(0, 0);
    e.update(10, 1000);
    // old weight 1 decayed to 0.5, new weight 1 → (0·0.5 + 10·1)/1.5
    expect(e.value).toBeCloseTo(10 / 1.5, 12);
    expect(e.weight).toBeCloseTo(1.5, 12);
    expect(e.weightAt(2000)).toBeCloseTo(0.75, 12);
  });

  it('does not decay same-time or out-of-order observations, ignores non-finite input', () => {
    const e = new Ewma(1000);
    e.update(1, 5000);
    e.update(3, 5000);
    e.update(5, 4000);
    e.update(Number.NaN, 6000);
    expect(e.value).toBeCloseTo(3, 12);
    e.reset();
    expect(e.value).toBeNaN();
    expect(() => new Ewma(0)).toThrow(RangeError);
  });
});
