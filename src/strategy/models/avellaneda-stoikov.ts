/**
 * Avellaneda–Stoikov (2008) closed forms (docs/strategy-models.md §4.1), in engine units: prices in ticks,
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
 * The γ at which inventory `qMax` (lots) shifts the reservation price by `skew` times the larger of
 * the half-spread (the model's plus `touchHalfSpread`, when the model's distances are measured
 * beyond the touch) and `riskTicks` (e.g. {@link inventoryRiskTicks}):
 * qMax·γσ²τ = skew·max(touchHalfSpread + ½(γσ²τ + (2/γ)ln(1 + γ/k)), riskTicks). A dimensionless
 * way to set risk aversion; NaN when there is no positive root (qMax ≤ skew/2 or bad inputs). `guess` (e.g. the
 * previous root) speeds the search.
 */
export function asGammaForSkew(skew: number, qMax: number, sigma: number, tauS: number, k: number, touchHalfSpread = 0, guess = k, riskTicks = 0): number {
  const a = sigma * sigma * tauS;
  if (!(a > 0) || !(skew > 0) || !(k > 0) || !(qMax > skew / 2)) return Number.NaN;
  // qMax·γa − skew·half(γ) is increasing in γ (qMax > skew/2), and so is qMax·γa − skew·R: so is
  // their minimum, qMax·γa − skew·max(half(γ), R).
  return solveIncreasing((g) => qMax * g * a - skew * Math.max(touchHalfSpread + 0.5 * (g * a + (2 / g) * Math.log1p(g / k)), riskTicks), guess);
}

/**
 * The price risk scale of a full inventory, σ·√τ in ticks, τ = the time the trades at the touch take
 * to turn over `qMaxLots` lots (qMaxLots / A, clamped to [1 s, 1 day]): a skew set in these units
 * grows with volatility relative to the spread, so high-σ markets unload inventory harder.
 */
export function inventoryRiskTicks(sigma: number, qMaxLots: number, aPerS: number): number {
  return sigma * Math.sqrt(turnoverS(qMaxLots, aPerS));
}

/** qMaxLots / A in seconds, clamped to [1 s, 1 day]: the time touch prints take to turn over the full inventory. */
export function turnoverS(qMaxLots: number, aPerS: number): number {
  return Math.min(86_400, Math.max(1, qMaxLots / aPerS));
}

/**
 * Root of an increasing f on (0, ∞) with f(0⁺) < 0 < f(∞): brackets it by doubling from `guess`,
 * then closes in with the Illinois method on ln x (superlinear; a good guess, e.g. the previous
 * refit's root, needs a handful of evaluations). Relative precision 1e-12; NaN when no sign change.
 */
export function solveIncreasing(f: (x: number) => number, guess: number): number {
  const F = (u: number): number => f(Math.exp(u));
  let a = Math.log(guess > 0 && Number.isFinite(guess) ? guess : 1);
  let fa = F(a);
  if (fa === 0) return Math.exp(a);
  let b = a;
  let fb = fa;
  let step = Math.LN2;
  for (let i = 0; i < 200 && (fa < 0) === (fb < 0); i++) {
    a = b;
    fa = fb;
    b = fa < 0 ? b + step : b - step;
    fb = F(b);
    step *= 2;
  }
  if (!((fa < 0) !== (fb < 0)) || Number.isNaN(fa) || Number.isNaN(fb)) return Number.NaN;
  // Keep a on the negative side.
  if (fa > 0) {
    [a, b] = [b, a];
    [fa, fb] = [fb, fa];
  }
  let side = 0;
  let c = a;
  for (let i = 0; i < 100; i++) {
    const prev = c;
    c = (a * fb - b * fa) / (fb - fa);
    const fc = F(c);
    if (fc === 0 || Math.abs(c - prev) < 1e-13 * Math.max(1, Math.abs(c))) break;
    if (fc < 0) {
      a = c;
      fa = fc;
      if (side === -1) fb /= 2;
      side = -1;
    } else {
      b = c;
      fb = fc;
      if (side === 1) fa /= 2;
      side = 1;
    }
  }
  return Math.exp(c);
}
