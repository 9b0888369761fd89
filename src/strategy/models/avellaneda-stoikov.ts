/**
 * Avellaneda–Stoikov (2008) closed forms (strategy-math §4.1), in engine units: prices in ticks,
 * inventory q in lots (contracts / order size), σ in ticks/√s, τ = T − t in seconds, γ in
 * 1/(tick·lot), k in 1/tick, drift μ in ticks/s. Pure functions, no allocation.
 */

/** Reservation price r = s + μ·τ − q·γ·σ²·τ (μ = 0: the paper's form; μ = −c: funding carry, §4.4). */
export const asReservationPrice = (s: number, q: number, gamma: number, sigma: number, tauS: number, driftPerS = 0): number =>
  s + driftPerS * tauS - q * gamma * sigma * sigma * tauS;

/** Optimal total spread δᵃ + δᵇ = γ·σ²·τ + (2/γ)·ln(1 + γ/k), in ticks. */
export const asOptimalSpread = (gamma: number, sigma: number, tauS: number, k: number): number =>
  gamma * sigma * sigma * tauS + (2 / gamma) * Math.log1p(gamma / k);

/**
 * The γ at which inventory `qMax` (lots) shifts the reservation price by `skew` half-spreads, the
 * half-spread being the model's or `minHalfSpread` (e.g. the market's), whichever is larger:
 * qMax·γσ²τ = skew·max(½(γσ²τ + (2/γ)ln(1 + γ/k)), minHalfSpread). A dimensionless way to set risk
 * aversion; NaN when there is no positive root (qMax ≤ skew/2 or bad inputs).
 */
export function asGammaForSkew(skew: number, qMax: number, sigma: number, tauS: number, k: number, minHalfSpread = 0): number {
  const a = sigma * sigma * tauS;
  if (!(a > 0) || !(skew > 0) || !(k > 0) || !(qMax > skew / 2)) return Number.NaN;
  // qMax·γa − skew·half(γ) is increasing in γ (qMax > skew/2), and so is qMax·γa − skew·h.
  return solveIncreasing((g) => qMax * g * a - skew * Math.max(0.5 * (g * a + (2 / g) * Math.log1p(g / k)), minHalfSpread), k);
}

/**
 * Root of an increasing f on (0, ∞) with f(0⁺) < 0 < f(∞), by bisection on log x from `scale`
 * (relative precision 1e-12); NaN when no sign change is found.
 */
export function solveIncreasing(f: (x: number) => number, scale: number): number {
  let lo = scale;
  let hi = scale;
  for (let i = 0; i < 400 && f(lo) > 0; i++) lo /= 4;
  for (let i = 0; i < 400 && f(hi) < 0; i++) hi *= 4;
  if (!(f(lo) <= 0) || !(f(hi) >= 0)) return Number.NaN;
  for (let i = 0; i < 200 && hi / lo > 1 + 1e-12; i++) {
    const mid = Math.sqrt(lo * hi);
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return Math.sqrt(lo * hi);
}
