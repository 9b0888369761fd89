import type { GridPoint } from '../backtest/sweep.ts';
import { halvingLeaderboard, halvingPlan, runHalving, type RungPlan, type RungResult } from './halving.ts';
import { buildLeaderboard, type Leaderboard } from './leaderboard.ts';
import type { Objective } from './objective.ts';
import { rungRunner } from './pair-runner.ts';
import type { SearchFile } from './search-file.ts';
import type { RunPairs } from './walk-forward.ts';
import type { DataSpan, DataWindow } from './windows.ts';

/** What a search produced: the ranking, and for successive halving its rungs. */
export interface SearchOutcome {
  readonly leaderboard: Leaderboard;
  /** Successive halving: the planned rungs and what each ran and kept (null for grid and random). */
  readonly plan: readonly RungPlan[] | null;
  readonly rungs: readonly RungResult[] | null;
}

/** How a search runs: its file, candidates, the data windows (grid/random) or the data span (halving). */
export interface SearchRunInput {
  readonly search: SearchFile;
  readonly points: readonly GridPoint[];
  /** grid and random: every point runs on every window (one batch), ranked over them. */
  readonly windows: readonly DataWindow[];
  /** halving: the rungs' windows are cut from this span (the config's start_ms/end_ms already applied). */
  readonly span: DataSpan;
  readonly objective?: Objective;
  /** pnl_over_drawdown's drawdown floor, USD (default: the search file's). */
  readonly drawdownFloorUsd?: number;
}

/**
 * Plans the rungs a halving search will run (null for grid and random), so the caller can print or
 * store them before anything runs.
 * @throws MmError CONFIG_INVALID naming the file when rungs or min_window exceed the data.
 */
export function searchPlan(input: SearchRunInput): RungPlan[] | null {
  const s = input.search;
  return s.search === 'halving' ? halvingPlan(input.span, input.points.length, s.eta, s.minWindowMs, s.rungsMs, s.file) : null;
}

/**
 * Runs a search through `run` (one batch per phase: the whole grid / random sample on every window,
 * or one batch per halving rung) and ranks it.
 */
export async function runSearch(input: SearchRunInput, run: RunPairs): Promise<SearchOutcome> {
  const objective = input.objective ?? input.search.objective;
  const floor = input.drawdownFloorUsd ?? input.search.drawdownFloorUsd;
  const plan = searchPlan(input);
  if (plan === null) {
    const obs = await run(input.windows.flatMap((window) => input.points.map((point) => ({ point, window }))), 'all');
    return { leaderboard: buildLeaderboard(input.points, obs, objective, floor), plan: null, rungs: null };
  }
  const rungs = await runHalving(input.points, plan, objective, input.search.eta, rungRunner(run), floor);
  return { leaderboard: halvingLeaderboard(rungs, input.points, objective), plan, rungs };
}
