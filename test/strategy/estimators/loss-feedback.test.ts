import { describe, expect, it } from 'vitest';
import { LossFeedback } from '../../../src/strategy/estimators/loss-feedback.ts';

describe('LossFeedback', () => {
  it('adds gain × the side\'s losses to its depth, gains take them back, and the other side is left alone', () => {
    const f = new LossFeedback(0.1, 60_000);
    f.onFill(1, -20, 0);
    f.onFill(1, -10, 0);
    expect(f.depthBps(1, 0)).toBeCloseTo(3, 12);
    expect(f.depthBps(-1, 0)).toBe(0);
    f.onFill(1, 5, 0);
    expect(f.depthBps(1, 0)).toBeCloseTo(2.5, 12);
    // In profit: no extra depth (never inside the model's quote).
    f.onFill(1, 100, 0);
    expect(f.depthBps(1, 0)).toBe(0);
  });

  it('banks a profitable side\'s surplus, so one large loss among earning fills does not push it out', () => {
    const f = new LossFeedback(0.1, 60_000);
    for (let i = 0; i < 20; i++) f.onFill(-1, 3, i * 100);
    f.onFill(-1, -40, 2000);
    expect(f.depthBps(-1, 2000)).toBe(0);
    // Without the surplus the same loss widens.
    const g = new LossFeedback(0.1, 60_000);
    g.onFill(-1, -40, 2000);
    expect(g.depthBps(-1, 2000)).toBeCloseTo(4, 12);
  });

  it('halves every half-life without fills and is capped', () => {
    const f = new LossFeedback(0.5, 60_000, 40);
    f.onFill(-1, -16, 1000);
    expect(f.depthBps(-1, 1000)).toBeCloseTo(8, 12);
    expect(f.depthBps(-1, 61_000)).toBeCloseTo(4, 12);
    expect(f.depthBps(-1, 121_000)).toBeCloseTo(2, 12);
    // The decay applies before the next fill is added.
    f.onFill(-1, -4, 61_000);
    expect(f.depthBps(-1, 61_000)).toBeCloseTo(6, 12);
    f.onFill(-1, -100, 61_000);
    expect(f.depthBps(-1, 61_000)).toBe(40);
    // Saturated: a gain starts bringing it back at once.
    f.onFill(-1, 10, 61_000);
    expect(f.depthBps(-1, 61_000)).toBeCloseTo(35, 12);
    f.onFill(-1, Number.NaN, 61_000);
    expect(f.depthBps(-1, 61_000)).toBeCloseTo(35, 12);
  });

  it('does not wind up past its cap: after a burst of losses it comes back within half-lives', () => {
    const f = new LossFeedback(0.1, 60_000, 10);
    for (let i = 0; i < 100; i++) f.onFill(1, -500, 0);
    expect(f.depthBps(1, 0)).toBe(10);
    // One half-life later: half the cap (an unbounded sum, −1000 × 10 bps, would still read 10 for 6.6 half-lives).
    expect(f.depthBps(1, 60_000)).toBeCloseTo(5, 12);
    // The cap follows the market: a lower one bounds the next fills' sum.
    f.capBps = 2;
    for (let i = 0; i < 20; i++) f.onFill(1, -500, 60_000);
    expect(f.depthBps(1, 60_000)).toBe(2);
    expect(f.depthBps(1, 120_000)).toBeCloseTo(1, 12);
  });

  it('counts one fill\'s PnL at most 3 caps either way (a jump votes like a large loss, not like a hundred)', () => {
    const f = new LossFeedback(0.1, 60_000, 10);
    f.onFill(1, -1000, 0);
    expect(f.depthBps(1, 0)).toBeCloseTo(3, 12);
    f.onFill(-1, -25, 0);
    expect(f.depthBps(-1, 0)).toBeCloseTo(2.5, 12);
  });

  it('rejects a negative gain and a non-positive half-life', () => {
    expect(() => new LossFeedback(-0.1, 1000)).toThrow(RangeError);
    expect(() => new LossFeedback(0.1, 0)).toThrow(RangeError);
  });
});
