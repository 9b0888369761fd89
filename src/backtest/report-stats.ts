/**
 * The report's statistics on plain number series: risk-adjusted PnL ratios, drawdown with its
 * duration, percentiles, and markout summaries. Pure; the report formats them.
 */
import type { MarkoutStats } from '../strategy/estimators/index.ts';
import { CURVE_HORIZONS_MS, HEADLINE_HORIZONS } from './fill-markouts.ts';

/** Periods of the PnL ratios: one per minute, scaled to a day (√1440). */
export const RATIO_PERIOD_MS = 60_000;
const PERIODS_PER_DAY = 86_400_000 / RATIO_PERIOD_MS;
/**
 * Fewest PnL changes behind a Sharpe or Sortino. Below this the ratio is noise scaled by √1440 (the
 * sample's 7 minutes gave a "Sharpe" of 199): it is undefined, shown as "n/a (N periods)".
 */
export const MIN_RATIO_PERIODS = 30;

/** Sharpe and Sortino of per-period PnL changes, scaled to one day. */
export interface PnlRatios {
  /** mean / sd × √(periods per day); null (undefined, not 0) with fewer than MIN_RATIO_PERIODS periods or no variation. */
  readonly sharpe: number | null;
  /** mean / downside deviation × √(periods per day), downside deviation = √(Σ min(r, 0)² / n); null when no period lost (unbounded) or fewer than MIN_RATIO_PERIODS periods. */
  readonly sortino: number | null;
  /** Number of PnL changes (periods) behind the figures. */
  readonly periods: number;
}

/**
 * Sharpe and Sortino of the PnL changes between consecutive equity samples taken every
 * `RATIO_PERIOD_MS` (USD; no risk-free rate: a market maker's PnL is not a return on a capital base),
 * scaled to a day by √1440. Never annualised from sub-minute samples: second-level PnL changes are
 * dominated by mark noise and autocorrelated, and √(seconds per year) inflates them into nonsense.
 */
export function pnlRatios(equity: readonly number[]): PnlRatios {
  const n = equity.length - 1;
  if (n < MIN_RATIO_PERIODS) return { sharpe: null, sortino: null, periods: Math.max(0, n) };
  let mean = 0;
  for (let k = 1; k <= n; k++) mean += equity[k]! - equity[k - 1]!;
  mean /= n;
  let v = 0;
  let down = 0;
  for (let k = 1; k <= n; k++) {
    const r = equity[k]! - equity[k - 1]!;
    v += (r - mean) ** 2;
    if (r < 0) down += r * r;
  }
  const sd = Math.sqrt(v / (n - 1));
  const dd = Math.sqrt(down / n);
  const scale = Math.sqrt(PERIODS_PER_DAY);
  return { sharpe: sd > 1e-12 ? (mean / sd) * scale : null, sortino: dd > 1e-12 ? (mean / dd) * scale : null, periods: n };
}

/** A ratio for people: two decimals, or why there is none ("n/a (7 periods; needs 30)"). */
export function formatRatio(value: number | null, periods: number): string {
  if (value !== null) return value.toFixed(2);
  return periods < MIN_RATIO_PERIODS ? `n/a (${periods} periods; needs ${MIN_RATIO_PERIODS})` : 'n/a (PnL never varied, or never lost)';
}

/** The largest fall of equity from a previous peak, and how long it lasted. */
export interface Drawdown {
  /** USD (≥ 0). */
  readonly maxDrawdown: number;
  /** From the peak before the deepest point to the first sample back at that peak, or to the last sample when equity never got back (ms). */
  readonly durationMs: number;
  /** True when equity got back to the peak. */
  readonly recovered: boolean;
}

/**
 * Max drawdown of an equity series sampled at times `t` (ms), with the duration of that drawdown
 * episode (peak → recovery, or → the end when it has not recovered). 0 / 0 / true for a series that
 * never fell.
 */
export function equityStats(equity: readonly number[], t: readonly number[]): Drawdown {
  let peak = -Infinity;
  let peakAt = 0;
  let maxDrawdown = 0;
  let ddPeakAt = -1;
  let ddPeak = 0;
  let ddAt = -1;
  for (let k = 0; k < equity.length; k++) {
    const e = equity[k]!;
    if (e > peak) ((peak = e), (peakAt = k));
    if (peak - e > maxDrawdown) ((maxDrawdown = peak - e), (ddPeakAt = peakAt), (ddPeak = peak), (ddAt = k));
  }
  if (ddAt < 0) return { maxDrawdown: 0, durationMs: 0, recovered: true };
  let end = equity.length - 1;
  let recovered = false;
  for (let k = ddAt + 1; k < equity.length; k++)
    if (equity[k]! >= ddPeak) {
      end = k;
      recovered = true;
      break;
    }
  return { maxDrawdown, durationMs: t[end]! - t[ddPeakAt]!, recovered };
}

/** Nearest-rank percentile (`q` in [0, 1]) of |values|; 0 for an empty series. */
export function absPercentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const abs = Float64Array.from(values, Math.abs).sort();
  return abs[Math.min(abs.length - 1, Math.max(0, Math.ceil(q * abs.length) - 1))]!;
}

/** Markout figures as report.json carries them (bps, null where no fill matured). */
export interface MarkoutReport {
  readonly basis: string;
  /** Weighted mean edge at the fill: side × (mid − price) / mid, bps (edge + markout = PnL marked at the horizon). */
  readonly edge_bps: number | null;
  /** Fills whose markout matured inside the window, per headline horizon. */
  readonly measured: Readonly<Record<string, number>>;
  readonly buy_bps: Readonly<Record<string, number | null>>;
  readonly sell_bps: Readonly<Record<string, number | null>>;
  /** The 0–120 s curve. */
  readonly curve: readonly { horizon_s: number; fills: number; mean_bps: number | null; buy_bps: number | null; sell_bps: number | null }[];
}

/** What `report.json` says a markout is. */
export const MARKOUT_BASIS =
  'side × (mid at fill + horizon − mid at fill) / mid at fill, bps; notional-weighted mean over the fills whose horizon ended inside the window; positive = the mid moved our way (less adverse selection)';

const bps = (x: number): number | null => (Number.isFinite(x) ? Number(x.toFixed(4)) : null);

/** Adds per-symbol stats of one horizon into one (weights and weighted sums add). */
export function combineStats(parts: readonly MarkoutStats[], horizonMs: number): MarkoutStats {
  let count = 0;
  let buyCount = 0;
  let w = 0;
  let wm = 0;
  let wb = 0;
  let wmb = 0;
  for (const p of parts) {
    count += p.count;
    buyCount += p.buyCount;
    w += p.weight;
    wm += p.weightedSumBps;
    wb += p.buyWeight;
    wmb += p.buyWeightedSumBps;
  }
  const ws = w - wb;
  const wms = wm - wmb;
  return {
    horizonMs,
    count,
    buyCount,
    sellCount: count - buyCount,
    meanBps: w > 0 ? wm / w : NaN,
    buyMeanBps: wb > 0 ? wmb / wb : NaN,
    sellMeanBps: ws > 0 ? wms / ws : NaN,
    weight: w,
    weightedSumBps: wm,
    buyWeight: wb,
    buyWeightedSumBps: wmb,
    sellWeight: ws,
    sellWeightedSumBps: wms,
  };
}

/** `markouts_bps` (headline horizons, overall) and the `markouts` detail from curve stats (one per CURVE_HORIZONS_MS entry). */
export function markoutReport(curve: readonly MarkoutStats[], edgeBps: number): { headline: Record<string, number | null>; detail: MarkoutReport } {
  const at = (ms: number): MarkoutStats => curve[CURVE_HORIZONS_MS.indexOf(ms)]!;
  const pick = (f: (s: MarkoutStats) => number): Record<string, number | null> => Object.fromEntries(HEADLINE_HORIZONS.map((h) => [h.key, bps(f(at(h.ms)))]));
  return {
    headline: pick((s) => s.meanBps),
    detail: {
      basis: MARKOUT_BASIS,
      edge_bps: bps(edgeBps),
      measured: Object.fromEntries(HEADLINE_HORIZONS.map((h) => [h.key, at(h.ms).count])),
      buy_bps: pick((s) => s.buyMeanBps),
      sell_bps: pick((s) => s.sellMeanBps),
      curve: curve.map((s) => ({ horizon_s: s.horizonMs / 1000, fills: s.count, mean_bps: bps(s.meanBps), buy_bps: bps(s.buyMeanBps), sell_bps: bps(s.sellMeanBps) })),
    },
  };
}
