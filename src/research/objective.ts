import { MmError } from '../core/errors.ts';
import type { SweepRow } from '../backtest/sweep.ts';

/**
 * The figures of one run (or of several runs aggregated) that objectives read: a sweep row without
 * its grid position. `error` is non-null when the run failed (its figures are then meaningless).
 */
export type RunMetrics = Pick<SweepRow, 'net' | 'netWithRewards' | 'sharpe' | 'maxDrawdown' | 'fills' | 'markout60sBps' | 'error'> &
  Partial<Pick<SweepRow, 'makerShare' | 'uptimeTwoSided'>>;

/** Objectives a leaderboard, a search or a walk-forward can rank by. */
export const OBJECTIVES = ['pnl_over_drawdown', 'net', 'net_with_rewards', 'sharpe', 'max_drawdown', 'fills', 'uptime', 'markout_60s'] as const;
/** An objective's name. */
export type Objective = (typeof OBJECTIVES)[number];
/** The default objective: net PnL per USD of worst drawdown. */
export const DEFAULT_OBJECTIVE: Objective = 'pnl_over_drawdown';

/**
 * Drawdown floor for `pnl_over_drawdown`, USD: a run that never gave anything back (drawdown 0)
 * would divide by zero, so the divisor is max(drawdown, 1 cent). A run with no drawdown then scores
 * its net × 100 (finite, so means and walk-forward efficiency stay defined), and a run that never
 * traded scores 0.
 */
export const DRAWDOWN_FLOOR_USD = 0.01;

/**
 * Parses a drawdown floor (USD, > 0: a zero floor would divide a flat run's PnL by zero) from a grid
 * file's `drawdown_floor_usd` or a `--drawdown-floor` flag.
 * @throws MmError CONFIG_INVALID (or the given code) naming `where` and the value.
 */
export function parseDrawdownFloor(v: unknown, where: string, code: 'CONFIG_INVALID' | 'USAGE' = 'CONFIG_INVALID'): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n === 'number' && Number.isFinite(n) && n > 0) return n;
  throw new MmError(code, `${where}: expected a drawdown floor in USD above 0 (e.g. 0.01), got ${JSON.stringify(v)}`);
}

/** The objective's one-line definition, with the drawdown floor in force for pnl_over_drawdown. */
export const objectiveHelp = (o: Objective, drawdownFloorUsd = DRAWDOWN_FLOOR_USD): string =>
  o === 'pnl_over_drawdown' ? `net PnL / max drawdown (USD per USD; drawdown floored at ${drawdownFloorUsd} USD), higher is better` : OBJECTIVE_HELP[o];

/** One line per objective, for usage texts and report pages. */
export const OBJECTIVE_HELP: Readonly<Record<Objective, string>> = {
  pnl_over_drawdown: `net PnL / max drawdown (USD per USD; drawdown floored at ${DRAWDOWN_FLOOR_USD} USD), higher is better`,
  net: 'net PnL (USD), higher is better',
  net_with_rewards: 'net PnL plus estimated liquidity rewards (USD), higher is better',
  sharpe: 'Sharpe ratio of per-minute PnL (one day), higher is better',
  max_drawdown: 'worst drawdown (USD), lower is better',
  fills: 'number of fills, higher is better',
  uptime: 'share of time quoting both sides, higher is better',
  markout_60s: 'mean 60 s fill markout (bps, + = good), higher is better; runs without a matured fill rank last',
};

/** True when a lower value of the objective is better. */
export const lowerIsBetter = (o: Objective): boolean => o === 'max_drawdown';

/**
 * The objective's value for one run's (or an aggregate's) metrics; NaN when the run failed or has no
 * figure. `drawdownFloorUsd`: pnl_over_drawdown's divisor floor (default DRAWDOWN_FLOOR_USD).
 */
export function objectiveValue(m: RunMetrics, o: Objective, drawdownFloorUsd = DRAWDOWN_FLOOR_USD): number {
  if (m.error !== null) return NaN;
  switch (o) {
    case 'pnl_over_drawdown':
      return m.net / Math.max(m.maxDrawdown, drawdownFloorUsd);
    case 'net':
      return m.net;
    case 'net_with_rewards':
      return m.netWithRewards;
    case 'sharpe':
      return m.sharpe;
    case 'max_drawdown':
      return m.maxDrawdown;
    case 'fills':
      return m.fills;
    case 'uptime':
      return m.uptimeTwoSided ?? NaN;
    case 'markout_60s':
      return m.markout60sBps;
  }
}

/**
 * Orders two objective values best first (a negative result puts `a` first); NaN (failed run, no
 * figure) after every number. Equal values compare 0 so callers break ties by point order.
 */
export function compareObjective(a: number, b: number, o: Objective): number {
  const na = Number.isNaN(a);
  const nb = Number.isNaN(b);
  if (na || nb) return na === nb ? 0 : na ? 1 : -1;
  if (a === b) return 0;
  return lowerIsBetter(o) ? (a < b ? -1 : 1) : a > b ? -1 : 1;
}

/**
 * Parses an objective name (from a flag or a grid file).
 * @throws MmError CONFIG_INVALID (or the given code) naming `where` and the accepted names.
 */
export function parseObjective(v: unknown, where: string, code: 'CONFIG_INVALID' | 'USAGE' = 'CONFIG_INVALID'): Objective {
  if (typeof v === 'string' && (OBJECTIVES as readonly string[]).includes(v)) return v as Objective;
  throw new MmError(code, `${where}: expected one of ${OBJECTIVES.join(', ')}, got ${JSON.stringify(v)}`);
}
