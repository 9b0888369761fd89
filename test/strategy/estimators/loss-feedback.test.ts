import { describe, expect, it } from 'vitest';
import { LossFeedback } from '../../../src/strategy/estimators/loss-feedback.ts';

describe('LossFeedback', () => {
  it('adds gain × the side\'s mean loss (size-weighted) to its depth, and leaves the other side alone', () => {
    const f = new LossFeedback(0.5, 60_000);
    f.onFill(1, -20, 0);
    f.onFill(1, -10, 0, 3); // a fill of 3 lots counts three times: mean (−20 − 30) / 4 = −12.5
    expect(f.meanBps(1)).toBeCloseTo(-12.5, 12);
    expect(f.depthBps(1)).toBeCloseTo(6.25, 12);
    expect(f.depthBps(-1)).toBe(0);
    f.onFill(1, 50, 0); // mean (−50 + 50) / 5 = 0: in profit or even, no extra depth
    expect(f.depthBps(1)).toBe(0);
  });

  it('averages rather than sums: the depth does not grow with the fill rate', () => {
    const slow = new LossFeedback(1, 60_000);
    const fast = new LossFeedback(1, 60_000);
    for (let i = 0; i < 2; i++) slow.onFill(-1, -4, i * 1000);
    for (let i = 0; i < 50; i++) fast.onFill(-1, -4, i * 40);
    expect(slow.depthBps(-1)).toBeCloseTo(4, 12);
    expect(fast.depthBps(-1)).toBeCloseTo(4, 12);
  });

  it('weights halve every half-life: a new fill counts more against an old mean', () => {
    const f = new LossFeedback(1, 60_000);
    f.onFill(1, -8, 0);
    f.onFill(1, 4, 60_000); // the old fill weighs ½: (−4 + 4) / 1.5 = 0
    expect(f.meanBps(1)).toBeCloseTo(0, 12);
    f.onFill(1, -6, 120_000); // weights ¼, ½, 1: (−2 + 2 − 6) / 1.75
    expect(f.meanBps(1)).toBeCloseTo(-6 / 1.75, 12);
  });

  it('is capped, and counts one fill\'s PnL at most 3 caps either way', () => {
    const f = new LossFeedback(1, 60_000, 10);
    f.onFill(1, -1000, 0);
    expect(f.meanBps(1)).toBeCloseTo(-30, 12);
    expect(f.depthBps(1)).toBe(10);
    f.onFill(-1, Number.NaN, 0);
    expect(f.meanBps(-1)).toBeNaN();
  });

  it('rejects a negative gain and a non-positive half-life', () => {
    expect(() => new LossFeedback(-0.1, 1000)).toThrow(RangeError);
    expect(() => new LossFeedback(0.1, 0)).toThrow(RangeError);
  });
});
