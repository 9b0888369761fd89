import { describe, expect, it } from 'vitest';
import { GlftBoundedSolution, glftCoefficients, glftDepths, smallestEigenvalue } from '../../../src/strategy/models/index.ts';

const depths = () => ({ bidDepth: 0, askDepth: 0 });

/** Ground state of the (2Q+1) GLFT matrix by plain power iteration on (cI − M): the reference. */
function referenceDepths(Q: number, sig: number, A: number, k: number, g: number, mu: number): { bid: number[]; ask: number[] } {
  const n = 2 * Q + 1;
  const alpha = 0.5 * k * g * sig * sig;
  const eta = A * (1 + g / k) ** -(1 + k / g);
  const d = Array.from({ length: n }, (_, i) => alpha * (i - Q) ** 2 - k * mu * (i - Q));
  const c = Math.max(...d) + 2 * eta;
  let v = new Array<number>(n).fill(1);
  for (let it = 0; it < 20_000; it++) {
    const w = v.map((x, i) => (c - d[i]!) * x + eta * ((v[i - 1] ?? 0) + (v[i + 1] ?? 0)));
    const norm = Math.max(...w);
    v = w.map((x) => x / norm);
  }
  const base = Math.log(1 + g / k) / g;
  return {
    bid: v.map((x, i) => (i < n - 1 ? Math.log(x / v[i + 1]!) / k + base : Infinity)),
    ask: v.map((x, i) => (i > 0 ? Math.log(x / v[i - 1]!) / k + base : Infinity)),
  };
}

describe('GLFT with bounded inventory (ground state of the GLFT matrix)', () => {
  it('smallestEigenvalue: the 2×2 case in closed form', () => {
    const d = Float64Array.from([0.3, 1.1]);
    const eta = 0.4;
    const exact = 0.7 - Math.sqrt(0.4 ** 2 + eta ** 2);
    expect(Math.abs(smallestEigenvalue(d, 2, eta, 0.3) - exact)).toBeLessThan(1e-12);
  });

  it.each([
    // Q, σ, A, k, γ, μ
    [5, 2, 0.5, 0.8, 0.05, 0],
    [3, 0.7, 1.5, 0.3, 0.2, 0],
    [8, 1.2, 0.2, 1.5, 0.02, 0.01],
  ] as const)('matches power iteration at every node for Q=%s σ=%s A=%s k=%s γ=%s μ=%s', (Q, sig, A, k, g, mu) => {
    const s = new GlftBoundedSolution();
    expect(s.solve(Q, sig, A, k, g, mu)).toBe(true);
    const ref = referenceDepths(Q, sig, A, k, g, mu);
    for (let i = 0; i <= 2 * Q; i++) {
      const got = s.depths(i - Q, depths());
      if (ref.bid[i] === Infinity) expect(got.bidDepth).toBe(Infinity);
      else expect(Math.abs(got.bidDepth - ref.bid[i]!)).toBeLessThan(1e-6);
      if (ref.ask[i] === Infinity) expect(got.askDepth).toBe(Infinity);
      else expect(Math.abs(got.askDepth - ref.ask[i]!)).toBeLessThan(1e-6);
    }
  });

  it('is symmetric without drift, skews monotonically and stops the growing side at the bound', () => {
    const s = new GlftBoundedSolution();
    expect(s.solve(7.5, 2, 0.5, 0.8, 0.05)).toBe(true);
    let prevBid = -Infinity;
    for (let q = -7.5; q <= 6.5; q += 0.25) {
      const a = s.depths(q, depths());
      const b = s.depths(-q, depths());
      expect(Math.abs(a.bidDepth - b.askDepth)).toBeLessThan(1e-9);
      expect(a.bidDepth).toBeGreaterThan(prevBid);
      prevBid = a.bidDepth;
    }
    // A bid fill from 7 lots would pass 7.5: not quoted; the ask still is, and aggressively.
    const top = s.depths(7, depths());
    expect(top.bidDepth).toBe(Infinity);
    expect(top.askDepth).toBeLessThan(0);
    expect(s.depths(-7, depths()).askDepth).toBe(Infinity);
  });

  it('near the centre it is the c₁/c₂ closed form (its continuous approximation)', () => {
    const [sig, A, k, g] = [1, 1, 1, 0.01];
    const s = new GlftBoundedSolution();
    expect(s.solve(50, sig, A, k, g)).toBe(true);
    const exact = s.depths(0, depths());
    const approx = glftDepths(0, sig, glftCoefficients(g, A, k), g, depths());
    expect(Math.abs(exact.bidDepth - approx.bidDepth) / approx.bidDepth).toBeLessThan(0.02);
    // Skew per lot near the centre: σ·c₂ in the closed form.
    const one = s.depths(1, depths());
    const slope = (one.bidDepth - one.askDepth) / 2 - (exact.bidDepth - exact.askDepth) / 2;
    expect(Math.abs(slope - sig * glftCoefficients(g, A, k).c2) / (sig * glftCoefficients(g, A, k).c2)).toBeLessThan(0.05);
  });

  it('a positive drift favours a long inventory: at q = 0 the bid is nearer than the ask', () => {
    const s = new GlftBoundedSolution();
    expect(s.solve(5, 1, 1, 1, 0.1, 0.02)).toBe(true);
    const d = s.depths(0, depths());
    expect(d.bidDepth).toBeLessThan(d.askDepth);
  });

  it('refuses bad inputs and grids beyond maxNodes', () => {
    const s = new GlftBoundedSolution();
    expect(s.solve(0.5, 1, 1, 1, 0.1)).toBe(false);
    expect(s.solve(5, 0, 1, 1, 0.1)).toBe(false);
    expect(s.solve(5, 1, 1, 1, Number.NaN)).toBe(false);
    expect(s.solve(5000, 1, 1, 1, 0.1, 0, 1001)).toBe(false);
    expect(s.ready).toBe(false);
    expect(s.depths(0, depths()).bidDepth).toBeNaN();
  });
});
