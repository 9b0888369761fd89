import { describe, expect, it } from 'vitest';
import { invert3, MidPredictor } from '../../../src/strategy/estimators/mid-predictor.ts';

/** x0, x1, x2 per second from fixed, non-collinear sequences; the mid then moves by 2·x0 − 0.5·x1 over the next second. */
function exact(n: number, minSamples = 10): MidPredictor {
  const p = new MidPredictor({ horizonMs: 1000, halfLifeMs: 1e12, minSamples });
  let mid = 1000;
  for (let s = 0; s < n; s++) {
    const x0 = ((s * 7) % 11) / 10 - 0.5;
    const x1 = ((s * 5) % 13) / 12 - 0.5;
    const x2 = ((s * 3) % 7) / 6 - 0.5;
    p.observe(x0, x1, x2, mid, s * 1000);
    mid += 2 * x0 - 0.5 * x1;
  }
  return p;
}

describe('MidPredictor', () => {
  it('recovers the coefficients of a noise-free linear move exactly, and every prediction after the fit has the right sign', () => {
    const p = exact(200);
    expect(p.samples).toBe(199);
    expect(p.beta(0)).toBeCloseTo(2, 9);
    expect(p.beta(1)).toBeCloseTo(-0.5, 9);
    expect(p.beta(2)).toBeCloseTo(0, 9);
    expect(p.predict(1, 1, 1)).toBeCloseTo(1.5, 9);
    // Samples 0..9 mature before the first fit; samples 10..198 (189) are taken with it and mature, less one whose move is 0.
    expect(p.hitRate).toBe(1);
    expect(p.scored).toBe(188);
  });

  it('uses nothing before minSamples matured', () => {
    const p = exact(50, 60);
    expect(p.beta(0)).toBe(0);
    expect(p.predict(1, 1, 1)).toBe(0);
    expect(Number.isNaN(p.hitRate)).toBe(true);
  });

  it('shrinks a feature whose t-statistic is below z to exactly 0', () => {
    // y = x0 + a noise-like term from x2's sign pattern the features cannot span: x1 predicts nothing.
    const p = new MidPredictor({ horizonMs: 1000, halfLifeMs: 1e12, minSamples: 10, zScore: 2 });
    let mid = 0;
    for (let s = 0; s < 400; s++) {
      const x0 = s % 2 === 0 ? 1 : -1;
      const x1 = ((s * 5) % 13) / 12 - 0.5;
      const x2 = ((s * 3) % 7) / 6 - 0.5;
      p.observe(x0, x1, x2, mid, s * 1000);
      mid += 0.01 * x0 + (s % 3 === 0 ? 3 : -1.5);
    }
    expect(p.beta(1)).toBe(0);
  });

  it('inverts a symmetric 3×3 matrix', () => {
    const out = new Float64Array(9);
    expect(invert3(new Float64Array([4, 1, 0, 1, 3, 1, 0, 1, 2]), out)).toBe(true);
    // det = 4·5 − 1·2 = 18; inverse = adj/18.
    const want = [5, -2, 1, -2, 8, -4, 1, -4, 11].map((v) => v / 18);
    for (let i = 0; i < 9; i++) expect(out[i]).toBeCloseTo(want[i]!, 12);
    expect(invert3(new Float64Array([1, 2, 3, 2, 4, 6, 3, 6, 9]), out)).toBe(false);
  });

  it('rejects bad options and skips non-finite input', () => {
    expect(() => new MidPredictor({ horizonMs: 0, halfLifeMs: 1 })).toThrow(RangeError);
    const p = new MidPredictor({ horizonMs: 1000, halfLifeMs: 1000 });
    p.observe(Number.NaN, 0, 0, 1, 0);
    p.observe(0, 0, 0, 1, 2000);
    expect(p.samples).toBe(0);
  });
});
