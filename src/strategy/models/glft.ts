import { solveIncreasing } from './avellaneda-stoikov.ts';

/**
 * Guéant–Lehalle–Fernandez-Tapia (2013) asymptotic quotes (docs/strategy-models.md §4.2), in engine units:
 * prices in ticks, inventory q in lots of Δ = 1 order size, σ in ticks/√s, A in 1/s, k in 1/tick,
 * γ and ξ in 1/(tick·lot), drift μ in ticks/s. Pure functions, no allocation in `glftDepths`.
 */

/** The two GLFT coefficients: c₁ in ticks, c₂ in √s per lot (σ·c₂ is ticks per lot). */
export interface GlftCoefficients {
  readonly c1: number;
  readonly c2: number;
}

/**
 * c₁ = (1/ξ)·ln(1 + ξ/k) and c₂ = √( γ/(2A·k) · (1 + ξ/k)^(k/ξ + 1) ) for Δ = 1 (ξ = γ: the CARA
 * objective; ξ → 0 gives c₁ = 1/k, c₂ = √(γe/(2Ak))).
 */
export function glftCoefficients(gamma: number, aPerS: number, kPerTick: number, xi = gamma): GlftCoefficients {
  if (xi <= 1e-12 * kPerTick) return { c1: 1 / kPerTick, c2: Math.sqrt((gamma * Math.E) / (2 * aPerS * kPerTick)) };
  const r = xi / kPerTick;
  return {
    c1: Math.log1p(r) / xi,
    c2: Math.sqrt((gamma / (2 * aPerS * kPerTick)) * Math.pow(1 + r, 1 / r + 1)),
  };
}

/** Bid and ask distances from the fair value, in ticks (`out` is reused: no allocation). */
export interface GlftDepths {
  bidDepth: number;
  askDepth: number;
}

/**
 * GLFT depths with hftbacktest's multipliers and the drift term:
 * half = adj₁·(c₁ + ½·σ·c₂), skew = adj₂·σ·c₂, and with the inventory shifted by the drift
 * q' = q − μ/(γσ²): δᵇ = half + skew·q', δᵃ = half − skew·q'. With adj₁ = adj₂ = 1 this is
 * δᵇ = c₁ + (−μ/(γσ²) + (2q+1)/2)·σc₂ and δᵃ = c₁ + (μ/(γσ²) − (2q−1)/2)·σc₂.
 */
export function glftDepths(
  q: number,
  sigma: number,
  coef: GlftCoefficients,
  gamma: number,
  out: GlftDepths,
  adj1 = 1,
  adj2 = 1,
  driftPerS = 0,
): GlftDepths {
  const half = adj1 * (coef.c1 + 0.5 * sigma * coef.c2);
  const skew = adj2 * sigma * coef.c2;
  const qEff = driftPerS === 0 ? q : q - driftPerS / (gamma * sigma * sigma);
  out.bidDepth = half + skew * qEff;
  out.askDepth = half - skew * qEff;
  return out;
}

/**
 * The γ (with ξ = γ) at which inventory `qMax` (lots) skews the quotes by `skew` times the larger of
 * the half-spread (the model's plus `touchHalfSpread`, when depths are measured beyond the touch)
 * and `riskTicks`: σ·c₂(γ)·qMax = skew·max(touchHalfSpread + c₁(γ) + ½σ·c₂(γ), riskTicks). Increasing in γ, so the search finds
 * the unique root; NaN when there is none (qMax ≤ skew/2 or bad inputs). `guess` (e.g. the previous
 * root) speeds the search.
 */
export function glftGammaForSkew(skew: number, qMax: number, sigma: number, aPerS: number, kPerTick: number, touchHalfSpread = 0, guess = kPerTick, riskTicks = 0): number {
  if (!(qMax > skew / 2) || !(skew > 0) || !(sigma > 0) || !(aPerS > 0) || !(kPerTick > 0)) return Number.NaN;
  return solveIncreasing((g) => {
    const c = glftCoefficients(g, aPerS, kPerTick);
    return sigma * c.c2 * qMax - skew * Math.max(touchHalfSpread + c.c1 + 0.5 * sigma * c.c2, riskTicks);
  }, guess);
}
