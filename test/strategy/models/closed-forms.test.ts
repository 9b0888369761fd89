import { describe, expect, it } from 'vitest';
import { solveIncreasing, asGammaForSkew, asOptimalSpread, asReservationPrice, glftCoefficients, glftDepths, glftGammaForSkew } from '../../../src/strategy/models/index.ts';

// Expected values are written out from the papers' forms (docs/strategy-models.md §4.1–4.2), not from the code.
const close = (x: number, y: number): void => expect(Math.abs(x - y)).toBeLessThan(1e-9 * Math.max(1, Math.abs(y)));

describe('Avellaneda–Stoikov closed forms', () => {
  const table = [
    // s, q, γ, σ, τ, k
    [10_000.5, 3, 0.01, 1.2, 60, 0.8],
    [250, -7, 0.2, 0.05, 3600, 2.5],
    [1, 0, 1.5, 3, 1, 0.1],
    [99_999, 12.5, 1e-4, 10, 300, 0.02],
  ] as const;
  it.each(table)('r and δᵃ+δᵇ for s=%s q=%s γ=%s σ=%s τ=%s k=%s', (s, q, g, sig, tau, k) => {
    close(asReservationPrice(s, q, g, sig, tau), s - q * g * sig ** 2 * tau);
    close(asOptimalSpread(g, sig, tau, k), g * sig ** 2 * tau + (2 / g) * Math.log(1 + g / k));
  });
  it('with a drift μ (funding carry −c): r = s + μτ − qγσ²τ', () => {
    close(asReservationPrice(100, 2, 0.1, 0.5, 30, -0.01), 100 - 0.01 * 30 - 2 * 0.1 * 0.25 * 30);
  });
  it('γ for a skew: inventory qMax shifts r by `skew` half-spreads', () => {
    const [sig, tau, k, qMax] = [0.7, 120, 0.9, 7.5];
    const g = asGammaForSkew(1, qMax, sig, tau, k);
    close((qMax * g * sig ** 2 * tau) / (0.5 * (g * sig ** 2 * tau + (2 / g) * Math.log(1 + g / k))), 1);
    const g2 = asGammaForSkew(0.5, qMax, sig, tau, k, 40);
    close(qMax * g2 * sig ** 2 * tau, 0.5 * (40 + 0.5 * (g2 * sig ** 2 * tau + (2 / g2) * Math.log(1 + g2 / k))));
    expect(asGammaForSkew(1, 0.4, sig, tau, k)).toBeNaN();
  });
});

describe('GLFT closed forms', () => {
  const table = [
    // q, γ, σ, A, k, μ
    [0, 0.05, 1.1, 2, 0.6, 0],
    [3, 0.01, 0.4, 0.8, 1.5, 0],
    [-5, 0.3, 2.5, 12, 0.2, 0],
    [2, 0.05, 1.1, 2, 0.6, 0.02],
    [-1, 0.2, 0.3, 0.5, 3, -0.005],
  ] as const;
  it.each(table)('δ± equal the paper for q=%s γ=%s σ=%s A=%s k=%s μ=%s', (q, g, sig, A, k, mu) => {
    const root = Math.sqrt(((sig ** 2 * g) / (2 * k * A)) * (1 + g / k) ** (1 + k / g));
    const base = (1 / g) * Math.log(1 + g / k);
    const bid = base + (-mu / (g * sig ** 2) + (2 * q + 1) / 2) * root;
    const ask = base + (mu / (g * sig ** 2) - (2 * q - 1) / 2) * root;
    const d = glftDepths(q, sig, glftCoefficients(g, A, k), g, { bidDepth: 0, askDepth: 0 }, 1, 1, mu);
    close(d.bidDepth, bid);
    close(d.askDepth, ask);
  });
  it('the general form with adj₁, adj₂ and ξ → 0 (c₁ = 1/k, c₂ = √(γe/(2Ak)))', () => {
    const [q, g, sig, A, k] = [2, 0.1, 0.8, 3, 0.5];
    const c1 = 1 / k;
    const c2 = Math.sqrt((g * Math.E) / (2 * A * k));
    const d = glftDepths(q, sig, glftCoefficients(g, A, k, 0), g, { bidDepth: 0, askDepth: 0 }, 1.5, 0.5);
    close(d.bidDepth, 1.5 * (c1 + 0.5 * sig * c2) + 0.5 * sig * c2 * q);
    close(d.askDepth, 1.5 * (c1 + 0.5 * sig * c2) - 0.5 * sig * c2 * q);
    const xi = 0.02;
    const c = glftCoefficients(g, A, k, xi);
    close(c.c1, Math.log(1 + xi / k) / xi);
    close(c.c2, Math.sqrt((g / (2 * A * k)) * (1 + xi / k) ** (k / xi + 1)));
  });
  it('γ for a skew: σc₂·qMax = skew·(touch + half)', () => {
    const [sig, A, k, qMax] = [0.9, 4, 0.7, 5];
    const g = glftGammaForSkew(1, qMax, sig, A, k);
    const c = glftCoefficients(g, A, k);
    close(sig * c.c2 * qMax, c.c1 + 0.5 * sig * c.c2);
    const g2 = glftGammaForSkew(0.8, qMax, sig, A, k, 25);
    const c2 = glftCoefficients(g2, A, k);
    close(sig * c2.c2 * qMax, 0.8 * (25 + c2.c1 + 0.5 * sig * c2.c2));
    expect(glftGammaForSkew(1, 5, 0, A, k)).toBeNaN();
  });
});

describe('solveIncreasing', () => {
  it('finds the root from any guess, to 1e-12 relative, through a kink', () => {
    const root = 0.0375;
    const f = (x: number): number => Math.max(Math.log(x / root), 3 * (x - root));
    for (const guess of [1e-9, 1e-3, 0.0375, 1, 1e6]) close(solveIncreasing(f, guess) / root, 1);
    expect(solveIncreasing(() => -1, 1)).toBeNaN();
    const [sig, A, k, q] = [0.9, 4, 0.7, 5];
    close(glftGammaForSkew(1, q, sig, A, k, 3, 1e-6) / glftGammaForSkew(1, q, sig, A, k, 3, 50), 1);
  });
});
