/**
 * What a leaderboard's winner owes to the search: the probability of backtest overfitting of
 * "take the best" over its candidates × windows results, and the winner's deflated Sharpe ratio.
 */
import { lowerIsBetter, type Objective } from './objective.ts';
import { deflatedSharpe, probabilityOfOverfitting, sharpeStats } from './overfitting.ts';

/** What the figures read of a ranked leaderboard (its entries best first). */
export interface RankedResults {
  readonly objective: Objective;
  readonly windows: readonly string[];
  readonly staged?: boolean;
  readonly entries: readonly { readonly failed: number; readonly perWindow: readonly (number | null)[]; readonly perWindowNet?: readonly (number | null)[] }[];
}

/** The selection's overfitting figures, as leaderboard.json spells them. */
export interface SelectionOverfitting {
  /** Probability that the in-sample winner ranks at or below the median out of sample (CSCV over the windows). */
  readonly pbo: number;
  readonly splits: number;
  readonly groups: number;
  /** Candidates that ran on every window (the trials). */
  readonly trials: number;
  readonly windows: number;
  /** The winner's Sharpe of its per-window net (not annualised), and the best a skill-less search of this size would show. */
  readonly winner_sharpe: number | null;
  readonly expected_max_sharpe: number | null;
  /** P(the winner's true per-window Sharpe > expected_max_sharpe); above 0.95 it is unlikely to be the search's luck. */
  readonly deflated_sharpe: number | null;
  readonly basis: string;
}

/**
 * The overfitting figures of a ranked leaderboard: PBO over the per-window objective of every
 * candidate that ran on every window; the deflated Sharpe of the rank-1 entry's per-window net
 * against the Sharpe of every such candidate. Null with under two such candidates or two windows,
 * and for successive halving (its candidates did not all run on the same windows).
 */
export function selectionOverfitting(lb: RankedResults): SelectionOverfitting | null {
  if (lb.staged === true) return null;
  const complete = lb.entries.filter((e) => e.failed === 0 && e.perWindow.every((v) => v !== null && Number.isFinite(v)));
  if (complete.length < 2 || lb.windows.length < 2) return null;
  const sign = lowerIsBetter(lb.objective) ? -1 : 1;
  const pbo = probabilityOfOverfitting(complete.map((e) => e.perWindow.map((v) => sign * (v as number))));
  if (pbo === null) return null;
  const winner = complete[0]!;
  const net = (e: (typeof complete)[number]): number[] => (e.perWindowNet ?? []).map((v) => v ?? Number.NaN);
  const trials = complete.map((e) => sharpeStats(net(e)).sharpe);
  const d = deflatedSharpe(sharpeStats(net(winner)), trials);
  const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
  return {
    pbo: pbo.pbo,
    splits: pbo.splits,
    groups: pbo.groups,
    trials: complete.length,
    windows: lb.windows.length,
    winner_sharpe: finite(d.sharpe),
    expected_max_sharpe: finite(d.expectedMaxSharpe),
    deflated_sharpe: finite(d.dsr),
    basis: `PBO by combinatorially symmetric cross-validation over ${pbo.groups} groups of the ${lb.windows.length} windows (Bailey, Borwein, López de Prado & Zhu 2015); deflated Sharpe of the winner's per-window net against the ${complete.length} candidates tried (Bailey & López de Prado 2014)`,
  };
}

/** One line for a terminal: the PBO and the winner's deflated Sharpe, or why there is none. */
export function overfittingLine(lb: RankedResults): string {
  const o = selectionOverfitting(lb);
  if (o === null) return lb.staged === true ? 'overfitting: not estimated for successive halving (candidates ran on different windows)' : 'overfitting: needs at least 2 windows (--windows N) and 2 candidates that ran on all of them';
  const dsr = o.deflated_sharpe === null ? 'n/a' : o.deflated_sharpe.toFixed(2);
  const sr = o.winner_sharpe === null ? 'n/a' : o.winner_sharpe.toFixed(2);
  const sr0 = o.expected_max_sharpe === null ? 'n/a' : o.expected_max_sharpe.toFixed(2);
  return `overfitting: PBO ${o.pbo.toFixed(2)} (${o.splits} in/out-of-sample splits of ${o.windows} windows; 0.5 = the pick is a coin toss); winner's deflated Sharpe ${dsr} (per-window Sharpe ${sr} vs ${sr0} expected of the best of ${o.trials} skill-less trials; > 0.95 = unlikely to be luck)`;
}
