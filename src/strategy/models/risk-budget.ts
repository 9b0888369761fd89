import { turnoverS } from './avellaneda-stoikov.ts';

/**
 * Risk aversion with a meaning (a risk budget, not a skew solved backwards): γ = riskAversion / B,
 * with B = qMax·σ·√H the loss of a full inventory (qMax lots) on a one-σ move over the holding
 * horizon H, in tick·lots. A CARA agent whose risk tolerance 1/γ equals B (riskAversion = 1) shifts
 * its A–S reservation price at qMax by qMax·γσ²H = σ√H: one σ of the horizon. Units: σ in ticks/√s,
 * H in seconds, γ in 1/(tick·lot). NaN on non-positive inputs.
 */
export function riskBudgetGamma(riskAversion: number, qMaxLots: number, sigma: number, holdingS: number): number {
  const budget = qMaxLots * sigma * Math.sqrt(holdingS);
  return riskAversion > 0 && budget > 0 ? riskAversion / budget : Number.NaN;
}

/**
 * The holding horizon H in seconds: `fixedS` when given, else the time the flow reaching the mid on
 * one side (A lots/s) takes to turn a full inventory over, qMax / A, clamped to [1 s, 1 day].
 */
export function holdingHorizonS(qMaxLots: number, aPerS: number, fixedS?: number): number {
  return fixedS ?? turnoverS(qMaxLots, aPerS);
}
