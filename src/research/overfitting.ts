/**
 * How much of a selected winner is the search itself: the probability of backtest overfitting of a
 * selection, by combinatorially symmetric cross-validation (Bailey, Borwein, López de Prado & Zhu,
 * 2015), and the deflated Sharpe ratio of the chosen candidate (Bailey & López de Prado, 2014).
 * Pure functions on a candidates × windows matrix of per-window results (higher is better).
 */

/** Standard normal CDF Φ (Abramowitz–Stegun 7.1.26 on erf, |error| < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Standard normal quantile Φ⁻¹(p) (Acklam's rational approximation, relative error < 1.2e-9). @throws RangeError outside (0, 1). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

const EULER_GAMMA = 0.5772156649015329;

/**
 * The Sharpe ratio the best of `nTrials` skill-less candidates is expected to show, given the
 * variance of the candidates' Sharpe ratios: √V·((1−γ)Φ⁻¹(1−1/N) + γΦ⁻¹(1−1/(N·e))); 0 for one trial.
 */
export function expectedMaxSharpe(nTrials: number, varianceOfSharpes: number): number {
  if (nTrials <= 1 || !(varianceOfSharpes > 0)) return 0;
  return Math.sqrt(varianceOfSharpes) * ((1 - EULER_GAMMA) * normalQuantile(1 - 1 / nTrials) + EULER_GAMMA * normalQuantile(1 - 1 / (nTrials * Math.E)));
}

/** Per-period Sharpe ratio and the moments the deflation needs, of one return series. */
export interface SharpeStats {
  /** Mean over standard deviation (not annualised); NaN when undefined. */
  readonly sharpe: number;
  readonly n: number;
  /** Skewness γ₃ (0 for a normal). */
  readonly skew: number;
  /** Kurtosis γ₄, not excess (3 for a normal). */
  readonly kurtosis: number;
}

/** The Sharpe ratio, skewness and kurtosis of `returns` (population moments, as the paper uses). */
export function sharpeStats(returns: readonly number[]): SharpeStats {
  const n = returns.length;
  if (n < 2) return { sharpe: Number.NaN, n, skew: 0, kurtosis: 3 };
  const mean = returns.reduce((a, x) => a + x, 0) / n;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const x of returns) {
    const d = x - mean;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const sd = Math.sqrt(m2);
  if (!(sd > 0)) return { sharpe: Number.NaN, n, skew: 0, kurtosis: 3 };
  return { sharpe: mean / sd, n, skew: m3 / sd ** 3, kurtosis: m4 / (m2 * m2) };
}

/**
 * The probabilistic Sharpe ratio: the probability that the true Sharpe exceeds `benchmark` given
 * an observed one from `n` returns with this skewness and kurtosis:
 * Φ((SR − SR*)·√(n−1) / √(1 − γ₃·SR + (γ₄−1)/4·SR²)).
 */
export function probabilisticSharpe(s: SharpeStats, benchmark: number): number {
  if (!Number.isFinite(s.sharpe) || s.n < 2) return Number.NaN;
  const denom = 1 - s.skew * s.sharpe + ((s.kurtosis - 1) / 4) * s.sharpe * s.sharpe;
  if (!(denom > 0)) return Number.NaN;
  return normalCdf(((s.sharpe - benchmark) * Math.sqrt(s.n - 1)) / Math.sqrt(denom));
}

/** The deflated Sharpe ratio of a chosen candidate: its PSR against the best Sharpe `nTrials` skill-less trials would show. */
export interface DeflatedSharpe {
  readonly sharpe: number;
  /** The benchmark: the expected maximum Sharpe of the trials under no skill. */
  readonly expectedMaxSharpe: number;
  readonly nTrials: number;
  /** P(true Sharpe > expectedMaxSharpe): above 0.95, the winner is unlikely to be the search's luck alone. */
  readonly dsr: number;
}

/** The deflated Sharpe ratio of `chosen` among `trialsSharpes` (the Sharpe of every candidate tried). */
export function deflatedSharpe(chosen: SharpeStats, trialsSharpes: readonly number[]): DeflatedSharpe {
  const finite = trialsSharpes.filter(Number.isFinite);
  const mean = finite.reduce((a, x) => a + x, 0) / Math.max(1, finite.length);
  const variance = finite.length > 1 ? finite.reduce((a, x) => a + (x - mean) ** 2, 0) / (finite.length - 1) : 0;
  const sr0 = expectedMaxSharpe(trialsSharpes.length, variance);
  return { sharpe: chosen.sharpe, expectedMaxSharpe: sr0, nTrials: trialsSharpes.length, dsr: probabilisticSharpe(chosen, sr0) };
}

/** The probability of backtest overfitting of "pick the best in sample" over a results matrix. */
export interface PboReport {
  /** Share of in-sample / out-of-sample splits where the in-sample winner ranked at or below the out-of-sample median. */
  readonly pbo: number;
  /** Splits evaluated (C(S, S/2)). */
  readonly splits: number;
  /** Groups the windows were cut into (S, even). */
  readonly groups: number;
  /** Each split's logit of the in-sample winner's out-of-sample relative rank (≤ 0 = overfit). */
  readonly logits: readonly number[];
}

/** Every way to choose `k` of `0..n-1`, in lexicographic order. */
function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick = (start: number, acc: number[]): void => {
    if (acc.length === k) {
      out.push([...acc]);
      return;
    }
    for (let i = start; i <= n - (k - acc.length); i++) pick(i + 1, [...acc, i]);
  };
  pick(0, []);
  return out;
}

/**
 * PBO by combinatorially symmetric cross-validation: the windows (columns) are cut into `groups`
 * contiguous groups (even, at most the number of windows, default up to 16); for every way to take
 * half of them as in-sample, the candidate (row) with the best in-sample mean is ranked among all
 * candidates on the out-of-sample mean; ω = rank/(N+1), λ = ln(ω/(1−ω)); PBO = share of λ ≤ 0.
 * Null when there are under 2 candidates or 2 windows. Non-finite results count as −∞.
 */
export function probabilityOfOverfitting(matrix: readonly (readonly (number | null)[])[], groups?: number): PboReport | null {
  const nCand = matrix.length;
  const nWin = matrix[0]?.length ?? 0;
  if (nCand < 2 || nWin < 2) return null;
  let s = Math.min(groups ?? 16, nWin);
  if (s % 2 === 1) s--;
  const groupOf = (w: number): number => Math.min(s - 1, Math.floor((w * s) / nWin));
  const val = (v: number | null | undefined): number => (v !== null && v !== undefined && Number.isFinite(v) ? v : -Infinity);
  const meanOver = (row: readonly (number | null)[], inSet: (g: number) => boolean): number => {
    let sum = 0;
    let n = 0;
    for (let w = 0; w < nWin; w++) {
      if (!inSet(groupOf(w))) continue;
      sum += val(row[w]);
      n++;
    }
    return n > 0 ? sum / n : -Infinity;
  };
  const logits: number[] = [];
  for (const is of combinations(s, s / 2)) {
    const inIs = new Set(is);
    let best = 0;
    let bestIs = -Infinity;
    matrix.forEach((row, c) => {
      const m = meanOver(row, (g) => inIs.has(g));
      if (m > bestIs) {
        bestIs = m;
        best = c;
      }
    });
    const oos = matrix.map((row) => meanOver(row, (g) => !inIs.has(g)));
    // Rank 1 = worst … N = best; ties share the average rank.
    const mine = oos[best]!;
    const below = oos.filter((v) => v < mine).length;
    const equal = oos.filter((v) => v === mine).length;
    const rank = below + (equal + 1) / 2;
    const omega = rank / (nCand + 1);
    logits.push(Math.log(omega / (1 - omega)));
  }
  return { pbo: logits.filter((l) => l <= 0).length / logits.length, splits: logits.length, groups: s, logits };
}
