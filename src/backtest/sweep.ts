import { MmError } from '../core/errors.ts';
import type { BacktestReport } from './report.ts';

/** One grid axis: a dotted config path and the values to try. */
export interface GridAxis {
  readonly path: string;
  readonly values: readonly unknown[];
}

/** One point of the grid: path → value, in axis order. */
export type GridPoint = ReadonlyArray<readonly [string, unknown]>;

/** The cartesian product of the axes, first axis varying slowest. */
export function expandGrid(axes: readonly GridAxis[], maxPoints = 10_000): GridPoint[] {
  let points: GridPoint[] = [[]];
  for (const a of axes) {
    if (a.values.length === 0) throw new MmError('CONFIG_INVALID', `grid axis ${a.path} has no values`);
    const next: GridPoint[] = [];
    for (const p of points) for (const v of a.values) next.push([...p, [a.path, v]]);
    points = next;
    if (points.length > maxPoints) throw new MmError('CONFIG_INVALID', `the grid has more than ${maxPoints} points`);
  }
  return points;
}

/** The figures a sweep ranks on, taken from one run's report. */
export interface SweepRow {
  readonly index: number;
  readonly point: GridPoint;
  readonly net: number;
  readonly netWithRewards: number;
  /** One-day Sharpe; NaN when the run had none (under 2 minutes, or PnL never varied). */
  readonly sharpe: number;
  readonly maxDrawdown: number;
  readonly fills: number;
  readonly makerShare: number;
  readonly uptimeTwoSided: number;
  readonly insideRewardSpread: number;
  /** Mean 60 s fill markout, bps (positive = good; NaN when no fill matured). */
  readonly markout60sBps: number;
  /** Mean 10 s fill markout, bps (ensembles; absent in results stored by older code). */
  readonly markout10sBps?: number;
  /** Traded notional, USD (ensembles' edge = net / notional). */
  readonly notionalUsd?: number;
  readonly error: string | null;
}

/** Metrics a sweep can rank by (descending, except max_drawdown which ranks ascending; markout_60s: least adverse selection first). */
export const RANK_KEYS = ['net', 'net_with_rewards', 'sharpe', 'max_drawdown', 'fills', 'uptime', 'markout_60s'] as const;
/** A rank key. */
export type RankKey = (typeof RANK_KEYS)[number];

/** Extracts a sweep row from a report. */
export function sweepRow(index: number, point: GridPoint, r: BacktestReport): SweepRow {
  const t = r.total;
  return {
    index,
    point,
    net: Number(t.pnl.net),
    netWithRewards: Number(t.pnl.net_with_rewards),
    sharpe: t.sharpe ?? NaN,
    maxDrawdown: Number(t.max_drawdown_usd),
    fills: t.fills.count,
    makerShare: t.fills.maker_share,
    uptimeTwoSided: t.quoting.uptime_two_sided,
    insideRewardSpread: t.quoting.two_sided_inside_reward_spread,
    markout60sBps: t.markouts_bps['60s'] ?? NaN,
    markout10sBps: t.markouts_bps['10s'] ?? NaN,
    notionalUsd: Number(t.fills.notional_usd),
    error: null,
  };
}

/** Sorts rows best first by `key`; failed runs last; ties keep grid order (deterministic). */
export function rankRows(rows: readonly SweepRow[], key: RankKey): SweepRow[] {
  const v = (r: SweepRow): number => {
    const x = key === 'net' ? r.net : key === 'net_with_rewards' ? r.netWithRewards : key === 'sharpe' ? r.sharpe : key === 'max_drawdown' ? -r.maxDrawdown : key === 'fills' ? r.fills : key === 'uptime' ? r.uptimeTwoSided : r.markout60sBps;
    return Number.isNaN(x) ? -Number.MAX_VALUE : x; // no figure (no fill matured) ranks after every figure
  };
  return [...rows].sort((a, b) => (a.error === null) !== (b.error === null) ? (a.error === null ? -1 : 1) : v(b) - v(a) || a.index - b.index);
}

/** The ranked table as CSV (one column per grid axis, then the metrics). */
export function sweepCsv(rows: readonly SweepRow[]): string {
  const axes = rows[0]?.point.map(([p]) => p) ?? [];
  const head = ['rank', ...axes, 'net_usd', 'net_with_rewards_usd', 'sharpe', 'max_drawdown_usd', 'fills', 'maker_share', 'uptime_two_sided', 'inside_reward_spread', 'markout_60s_bps', 'error'];
  const cell = (v: unknown): string => {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [head.join(',')];
  rows.forEach((r, k) =>
    lines.push(
      [k + 1, ...r.point.map(([, v]) => cell(v)), r.net.toFixed(6), r.netWithRewards.toFixed(6), Number.isNaN(r.sharpe) ? '' : r.sharpe.toFixed(4), r.maxDrawdown.toFixed(6), r.fills, r.makerShare.toFixed(4), r.uptimeTwoSided.toFixed(4), r.insideRewardSpread.toFixed(4), Number.isNaN(r.markout60sBps) ? '' : r.markout60sBps.toFixed(4), cell(r.error ?? '')].join(','),
    ),
  );
  return `${lines.join('\n')}\n`;
}
