/** What the reaction measurement reports for one day (measure.ts). */
export interface ReactionMeasure {
  readonly horizonMs: number;
  /** Submissions that improved the touch inside a spread of ≥ 2 ticks. */
  readonly improvers: number;
  /** Of those, answered by another submission at their price or better within the horizon, while they rested. */
  readonly answered: number;
  readonly answeredShare: number;
  /** Share of the answers one tick or more better than the improver (the rest joined at its price). */
  readonly answeredAheadShare: number;
  /** Improvers deleted or filled before any answer. */
  readonly leftUnansweredShare: number;
  /** Answered share among improvers that left a spread of ≥ 2 ticks (room to step ahead). */
  readonly answeredWithRoomShare: number;
  readonly delayMs: { readonly p25: number; readonly p50: number; readonly p75: number };
  /** Log-normal fit of the answer delays: median = exp(mean ln), sigma = sd of ln. */
  readonly delayLognormal: { readonly medianMs: number; readonly sigma: number };
  /** Median size of the answering orders (shares). */
  readonly sizeP50: number;
  readonly lifetimeP50Ms: number;
  /** P(answered by t | still resting): 1 − the Kaplan–Meier survival at each t (leaving censors). */
  readonly answeredWhileRestingByMs: Readonly<Record<string, number>>;
}

/**
 * 1 − Kaplan–Meier survival at each of `atMs`: the chance an order that keeps resting is answered by
 * then. `outcomes`: (time, answered) per improver; one that left unanswered is censored at its time.
 */
export function answeredWhileResting(outcomes: readonly (readonly [number, boolean])[], atMs: readonly number[]): Record<string, number> {
  const sorted = [...outcomes].sort((a, b) => a[0] - b[0] || Number(b[1]) - Number(a[1]));
  const out: Record<string, number> = {};
  let atRisk = sorted.length;
  let surv = 1;
  let k = 0;
  for (const t of atMs) {
    for (; k < sorted.length && sorted[k]![0] <= t; k++) {
      if (sorted[k]![1]) surv *= 1 - 1 / atRisk;
      atRisk--;
    }
    out[String(t)] = 1 - surv;
  }
  return out;
}

/** Linear-interpolated quantile of a sorted list (NaN when empty). */
export function quantileSorted(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(xs.length - 1, lo + 1);
  return xs[lo]! + (h - lo) * (xs[hi]! - xs[lo]!);
}

/** Log-normal fit by the moments of ln x over positive values. */
export function lognormalFit(xs: readonly number[]): { medianMs: number; sigma: number } {
  const ls = xs.filter((x) => x > 0).map(Math.log);
  if (ls.length < 2) return { medianMs: NaN, sigma: NaN };
  const m = ls.reduce((a, b) => a + b, 0) / ls.length;
  const v = ls.reduce((a, b) => a + (b - m) ** 2, 0) / (ls.length - 1);
  return { medianMs: Math.exp(m), sigma: Math.sqrt(v) };
}
