import type { GridPoint } from '../backtest/sweep.ts';
import { compareObjective, DRAWDOWN_FLOOR_USD, objectiveHelp, objectiveValue, type Objective, type RunMetrics } from './objective.ts';
import { selectionOverfitting } from './selection-overfitting.ts';

/** One run's outcome: the parameter point, the data window it ran on, its metrics. */
export interface Observation {
  readonly point: GridPoint;
  readonly windowId: string;
  readonly metrics: RunMetrics;
}

/** One parameter point's figures aggregated over the data windows it ran on. */
export interface LeaderboardEntry {
  /** 1-based rank (best first). */
  readonly rank: number;
  /** Position of the point in the candidate list (ties rank in this order). */
  readonly pointIndex: number;
  readonly point: GridPoint;
  /** The objective on the aggregate (total net over worst drawdown, …); NaN when every window failed. */
  readonly objective: number;
  /** Totals over the windows that ran: net and net with rewards summed, drawdown the worst, fills summed. */
  readonly metrics: RunMetrics;
  /** Windows that ran / failed. */
  readonly windows: number;
  readonly failed: number;
  /** Windows whose run had a Sharpe (under 2 minutes or a flat PnL has none): the mean Sharpe is over these. */
  readonly sharpeWindows: number;
  /** Windows the figures (`metrics`) aggregate: those that ran without failing (halving: of the last rung only). */
  readonly metricWindows: number;
  /** Per window id (in the leaderboard's window order): that window's objective, null when it did not run. */
  readonly perWindow: readonly (number | null)[];
  /** Per window id: that window's net PnL (USD), null when it did not run or failed (the deflated Sharpe's returns). */
  readonly perWindowNet?: readonly (number | null)[];
  /** The first error message, null when nothing failed. */
  readonly error: string | null;
  /** Successive halving: the last rung (1-based) the point ran on; its figures are that rung's. */
  readonly rung?: number;
}

/** One stage of a staged search (a halving rung): every point that ran on one window, ranked there. */
export interface LeaderboardStage {
  /** 1-based stage number. */
  readonly index: number;
  /** What the stage ran on ("first 1m of the data"). */
  readonly label: string;
  readonly leaderboard: Leaderboard;
}

/** A ranked leaderboard. */
export interface Leaderboard {
  readonly objective: Objective;
  /** Grid axes (dotted config paths), in point order. */
  readonly axes: readonly string[];
  /** Window ids, in first-seen order. */
  readonly windows: readonly string[];
  readonly entries: readonly LeaderboardEntry[];
  /**
   * Successive halving: entries are ranked by the last stage (rung) they reached, then within it,
   * and their figures are that stage's, so values compare only within a stage.
   */
  readonly staged?: boolean;
  /** The stages (rungs), each comparing like with like: the heat maps are drawn from these. */
  readonly stages?: readonly LeaderboardStage[];
  /** pnl_over_drawdown's drawdown floor, USD (absent: DRAWDOWN_FLOOR_USD). */
  readonly drawdownFloorUsd?: number;
}

/** The floor a leaderboard records: only where it matters (pnl_over_drawdown) and differs from the default. */
export const floorOf = (o: Objective, floorUsd: number): { drawdownFloorUsd?: number } => (o === 'pnl_over_drawdown' && floorUsd !== DRAWDOWN_FLOOR_USD ? { drawdownFloorUsd: floorUsd } : {});

/** A point's identity: the same path/value pairs in the same order give the same key. */
export const pointKey = (p: GridPoint): string => JSON.stringify(p);

/**
 * Aggregates runs of the same point over several windows: net, net with rewards and fills are
 * summed, the drawdown is the worst window's (a bound: windows are scored separately, so a loss
 * spread over two windows is not joined), Sharpe and uptime are means over the windows that have one
 * (a window too short for a Sharpe is left out, not averaged in as 0; NaN when none has), the 60 s
 * markout and the maker share are fill-weighted means. Failed runs are left out of every figure.
 */
export function aggregateMetrics(runs: readonly RunMetrics[]): RunMetrics {
  const ok = runs.filter((r) => r.error === null);
  if (ok.length === 0) return { net: 0, netWithRewards: 0, sharpe: 0, maxDrawdown: 0, fills: 0, markout60sBps: NaN, error: runs.find((r) => r.error !== null)?.error ?? 'no runs' };
  let net = 0;
  let netWithRewards = 0;
  let sharpe = 0;
  let sharpeN = 0;
  let maxDrawdown = 0;
  let fills = 0;
  let mkSum = 0;
  let mkFills = 0;
  let makerSum = 0;
  let uptime = 0;
  let uptimeN = 0;
  for (const r of ok) {
    net += r.net;
    netWithRewards += r.netWithRewards;
    if (Number.isFinite(r.sharpe)) ((sharpe += r.sharpe), sharpeN++);
    maxDrawdown = Math.max(maxDrawdown, r.maxDrawdown);
    fills += r.fills;
    if (!Number.isNaN(r.markout60sBps) && r.fills > 0) ((mkSum += r.markout60sBps * r.fills), (mkFills += r.fills));
    makerSum += (r.makerShare ?? 0) * r.fills;
    if (r.uptimeTwoSided !== undefined) ((uptime += r.uptimeTwoSided), uptimeN++);
  }
  return {
    net,
    netWithRewards,
    sharpe: sharpeN > 0 ? sharpe / sharpeN : NaN,
    maxDrawdown,
    fills,
    markout60sBps: mkFills > 0 ? mkSum / mkFills : NaN,
    makerShare: fills > 0 ? makerSum / fills : 0,
    ...(uptimeN > 0 ? { uptimeTwoSided: uptime / uptimeN } : {}),
    error: null,
  };
}

/**
 * Builds the leaderboard: one entry per point of `points` (observations of other points are
 * ignored), ranked best first by the objective on the aggregate; points with a failed window rank
 * after every complete point (their totals cover fewer windows), then points that never ran; ties
 * keep the order of `points`, so equal inputs give the same ranking.
 */
export function buildLeaderboard(points: readonly GridPoint[], observations: readonly Observation[], objective: Objective, drawdownFloorUsd = DRAWDOWN_FLOOR_USD): Leaderboard {
  const index = new Map(points.map((p, i) => [pointKey(p), i] as const));
  const windows: string[] = [];
  const byPoint = points.map(() => new Map<string, RunMetrics>());
  for (const o of observations) {
    const i = index.get(pointKey(o.point));
    if (i === undefined) continue;
    if (!windows.includes(o.windowId)) windows.push(o.windowId);
    byPoint[i]!.set(o.windowId, o.metrics);
  }
  const unranked = points.map((point, pointIndex) => {
    const runs = [...byPoint[pointIndex]!.values()];
    const metrics = aggregateMetrics(runs);
    const failed = runs.filter((r) => r.error !== null).length;
    return {
      pointIndex,
      point,
      objective: runs.length === 0 ? NaN : objectiveValue(metrics, objective, drawdownFloorUsd),
      metrics,
      windows: runs.length,
      failed,
      sharpeWindows: runs.filter((r) => r.error === null && Number.isFinite(r.sharpe)).length,
      metricWindows: runs.length - failed,
      perWindow: windows.map((w) => {
        const r = byPoint[pointIndex]!.get(w);
        return r === undefined ? null : objectiveValue(r, objective, drawdownFloorUsd);
      }),
      perWindowNet: windows.map((w) => {
        const r = byPoint[pointIndex]!.get(w);
        return r === undefined || r.error !== null ? null : r.net;
      }),
      error: runs.find((r) => r.error !== null)?.error ?? (runs.length === 0 ? 'not run' : null),
    };
  });
  const tier = (e: (typeof unranked)[number]): number => (e.windows === 0 ? 2 : e.failed > 0 ? 1 : 0);
  unranked.sort((a, b) => tier(a) - tier(b) || compareObjective(a.objective, b.objective, objective) || a.pointIndex - b.pointIndex);
  return { objective, axes: points[0]?.map(([p]) => p) ?? [], windows, entries: unranked.map((e, k) => ({ ...e, rank: k + 1 })), ...floorOf(objective, drawdownFloorUsd) };
}

/** A value as a CSV cell (strings bare unless they need quoting, everything else as JSON). */
function cell(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const num = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : '');

/**
 * The leaderboard as CSV: rank, one column per axis, the objective, the aggregated figures, the
 * window counts, one objective column per window (`objective@<window id>`), then the error.
 */
export function leaderboardCsv(lb: Leaderboard): string {
  const head = ['rank', ...lb.axes, ...(lb.staged ? ['rung'] : []), lb.objective, 'net_usd', 'net_with_rewards_usd', 'max_drawdown_usd', 'sharpe_mean', 'sharpe_windows', 'fills', 'markout_60s_bps', 'windows', 'failed', ...lb.windows.map((w) => `${lb.objective}@${w}`), 'error'];
  const lines = [head.map(cell).join(',')];
  for (const e of lb.entries) {
    const m = e.metrics;
    lines.push(
      [
        e.rank,
        ...e.point.map(([, v]) => cell(v)),
        ...(lb.staged ? [e.rung ?? ''] : []),
        num(e.objective, 6),
        num(m.net, 6),
        num(m.netWithRewards, 6),
        num(m.maxDrawdown, 6),
        num(m.sharpe, 4),
        e.sharpeWindows,
        m.fills,
        num(m.markout60sBps, 4),
        e.windows,
        e.failed,
        ...e.perWindow.map((v) => (v === null ? '' : num(v, 6))),
        cell(e.error ?? ''),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A finite number, else null (JSON has no NaN or Infinity). */
const finite = (v: number | undefined): number | null => (v !== undefined && Number.isFinite(v) ? v : null);

/** The leaderboard as JSON (stable key order; NaN figures as null), for tools and notebooks. */
export function leaderboardJson(lb: Leaderboard): string {
  const doc = {
    objective: lb.objective,
    objective_definition: objectiveHelp(lb.objective, lb.drawdownFloorUsd),
    axes: lb.axes,
    windows: lb.windows,
    ...(lb.staged ? { staged: 'successive halving: entries ranked by the last rung they reached (rung), figures from that rung' } : {}),
    overfitting: selectionOverfitting(lb),
    entries: lb.entries.map((e) => ({
      rank: e.rank,
      point_index: e.pointIndex,
      params: Object.fromEntries(e.point),
      ...(lb.staged ? { rung: e.rung ?? null } : {}),
      objective: finite(e.objective),
      net_usd: finite(e.metrics.net),
      net_with_rewards_usd: finite(e.metrics.netWithRewards),
      max_drawdown_usd: finite(e.metrics.maxDrawdown),
      sharpe_mean: finite(e.metrics.sharpe),
      sharpe_windows: e.sharpeWindows,
      fills: e.metrics.fills,
      markout_60s_bps: finite(e.metrics.markout60sBps),
      windows: e.windows,
      failed: e.failed,
      per_window: Object.fromEntries(lb.windows.map((w, k) => [w, finite(e.perWindow[k] ?? undefined)])),
      error: e.error,
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
