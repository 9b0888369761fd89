import { describe, expect, it } from 'vitest';
import { PredictiveRegression } from '../../../src/strategy/estimators/predictive-regression.ts';
import { Rng } from '../../../src/sim/market/rng.ts';

/** Drives a regression for `n` seconds: x ~ U(−1, 1) each second, the price then drifts by beta·x over the next horizon plus noise. */
function drive(beta: number, noise: number, n: number, seed = 3): PredictiveRegression {
  const reg = new PredictiveRegression({ horizonMs: 5000, halfLifeMs: 3_600_000, minSamples: 60 });
  const rng = new Rng(seed);
  const xs: number[] = [];
  let price = 1000;
  for (let s = 0; s < n; s++) {
    // Each past signal (last 5 s) contributes a fifth of its predicted move per second.
    for (let j = Math.max(0, s - 5); j < s; j++) price += (beta * xs[j]!) / 5;
    price += noise * rng.normal();
    const x = 2 * rng.uniform() - 1;
    xs.push(x);
    reg.observe(x, price, s * 1000);
  }
  return reg;
}

describe('PredictiveRegression', () => {
  it('recovers the slope of a signal that predicts the move over its horizon', () => {
    const reg = drive(4, 0.5, 3000);
    expect(reg.samples).toBeGreaterThan(2900);
    expect(reg.beta).toBeGreaterThan(3.6);
    expect(reg.beta).toBeLessThan(4.4);
    expect(reg.predict(0.5)).toBeCloseTo(reg.beta / 2, 12);
  });

  it('shrinks a signal that predicts nothing to exactly 0', () => {
    for (const seed of [1, 2, 3, 4, 5]) expect(drive(0, 1, 2000, seed).beta).toBe(0);
  });

  it('uses nothing before minSamples matured', () => {
    expect(drive(4, 0.5, 50).beta).toBe(0);
  });

  it('ignores non-finite input and rejects bad options', () => {
    const reg = new PredictiveRegression({ horizonMs: 1000, halfLifeMs: 10_000 });
    reg.observe(Number.NaN, 1, 0);
    reg.observe(1, Number.POSITIVE_INFINITY, 0);
    expect(reg.samples).toBe(0);
    expect(() => new PredictiveRegression({ horizonMs: 0, halfLifeMs: 1 })).toThrow(RangeError);
  });
});
