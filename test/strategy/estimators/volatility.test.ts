import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/sim/market/rng.ts';
import { EwmaVolatility, RealizedVolatility } from '../../../src/strategy/estimators/index.ts';

/** A GBM S(t) = S₀·exp((μ − σ²/2)t + σW(t)) observed every `stepMs` with jittered event times. */
function* gbm(seed: number, s0: number, sigmaPerSqrtS: number, stepMs: number, n: number): Generator<[number, number]> {
  const rng = new Rng(seed);
  let logS = Math.log(s0);
  let t = 0;
  const dt = stepMs / 1000;
  for (let i = 0; i < n; i++) {
    logS += -0.5 * sigmaPerSqrtS ** 2 * dt + sigmaPerSqrtS * Math.sqrt(dt) * rng.normal();
    t += stepMs;
    yield [Math.exp(logS), t];
  }
}

describe('volatility estimators', () => {
  it('recover σ of a simulated GBM within 5 % (log prices, σ per √s)', () => {
    const sigma = 0.002;
    const ew = new EwmaVolatility(4 * 3_600_000, 1000);
    const rv = new RealizedVolatility(5000, 1000);
    for (const [s, t] of gbm(11, 100, sigma, 1000, 6000)) {
      ew.update(Math.log(s), t);
      rv.update(Math.log(s), t);
    }
    expect(Math.abs(ew.sigmaPerSqrtS / sigma - 1)).toBeLessThan(0.05);
    expect(Math.abs(rv.sigmaPerSqrtS / sigma - 1)).toBeLessThan(0.05);
  });

  it('in ticks: a GBM price in ticks gives σ_ticks ≈ σ·S; sub-step updates are ignored', () => {
    const ew = new EwmaVolatility(3_600_000, 1000);
    let last = 0;
    // 250 ms updates, sampled once per second: the estimate is the per-second σ.
    for (const [s, t] of gbm(3, 10_000, 0.0005, 250, 40_000)) {
      ew.update(s, t);
      last = s;
    }
    expect(Math.abs(ew.sigmaPerSqrtS / (0.0005 * last) - 1)).toBeLessThan(0.1);
    expect(ew.samples).toBe(9999);
  });

  it('is not ready (NaN) before minSamples increments; a long gap counts once over its length', () => {
    const v = new RealizedVolatility(100, 1000, 3);
    v.update(100, 0);
    v.update(101, 1000);
    v.update(99, 2000);
    expect(v.ready).toBe(false);
    expect(v.sigmaPerSqrtS).toBeNaN();
    v.update(99, 6000); // Δx = 0 over 4 s
    expect(v.ready).toBe(true);
    expect(v.sigmaPerSqrtS).toBeCloseTo(Math.sqrt((1 + 4 + 0) / 6), 12);
  });

  it('the realised window forgets old increments', () => {
    const v = new RealizedVolatility(10, 1000, 10);
    let x = 0;
    for (let i = 1; i <= 50; i++) v.update((x += i <= 25 ? 10 : 1), i * 1000);
    expect(v.sigmaPerSqrtS).toBeCloseTo(1, 9);
  });
});
