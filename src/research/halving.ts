import { MmError } from '../core/errors.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import { formatDurationMs } from './duration.ts';
import { buildLeaderboard, pointKey, type Leaderboard, type LeaderboardEntry, type Observation } from './leaderboard.ts';
import { DRAWDOWN_FLOOR_USD, type Objective } from './objective.ts';
import type { DataSpan, DataWindow } from './windows.ts';

/** One rung of successive halving: its window and how many candidates it expects to run. */
export interface RungPlan {
  readonly index: number;
  readonly lengthMs: number;
  readonly window: DataWindow;
  /** Candidates expected at this rung when none fail (n, n/eta, n/eta², …, at least 1). */
  readonly candidates: number;
}

/**
 * The window a halving search cuts its rungs from: every rung starts where it starts and the last
 * ends where it ends (null = the data's own start / end); `span` gives the same bounds in ms.
 */
export interface HalvingBase {
  readonly idPrefix: string;
  readonly startMs: number | null;
  readonly endMs: number | null;
  /** How errors name it ("the data", "the train window"). */
  readonly label: string;
}

/** The whole data (a sweep's halving search). */
export const WHOLE_BASE: HalvingBase = { idPrefix: '', startMs: null, endMs: null, label: 'the data' };

/** Shortest rung window derived from the candidate count: shorter replays say too little. */
const MIN_DERIVED_MS = 1000;

/**
 * Plans the rungs of successive halving over `span`: windows all start with it (`base`: the data
 * by default, a fold's train window in a walk-forward) and grow by eta, the last one being all of
 * it (or the explicit `rungsMs`, null = all of it). Without min_window or rungs, the number of
 * rungs is 1 + ⌊log_eta(candidates)⌋ (so the last rung holds about eta candidates), fewer when the
 * first window would be under 1 s.
 * @throws MmError CONFIG_INVALID naming `where` when a rung or min_window exceeds the span.
 */
export function halvingPlan(span: DataSpan, nCandidates: number, eta: number, minWindowMs: number | null, rungsMs: readonly (number | null)[] | null, where: string, base: HalvingBase = WHOLE_BASE): RungPlan[] {
  const spanMs = span.endMs - span.startMs;
  const what = base.label;
  let lengths: number[];
  if (rungsMs !== null) {
    lengths = rungsMs.map((r, k) => {
      if (r !== null && r > spanMs) throw new MmError('CONFIG_INVALID', `${where}: rungs.${k}: ${formatDurationMs(r)} is longer than ${what} (${formatDurationMs(spanMs)})`);
      return r ?? spanMs;
    });
  } else {
    let rungs: number;
    if (minWindowMs !== null) {
      if (minWindowMs >= spanMs) throw new MmError('CONFIG_INVALID', `${where}: min_window: ${formatDurationMs(minWindowMs)} is not shorter than ${what} (${formatDurationMs(spanMs)})`);
      rungs = 1 + Math.floor(Math.log(spanMs / minWindowMs) / Math.log(eta) + 1e-9);
    } else {
      rungs = 1 + Math.floor(Math.log(Math.max(1, nCandidates)) / Math.log(eta) + 1e-9);
      while (rungs > 1 && spanMs / eta ** (rungs - 1) < MIN_DERIVED_MS) rungs--;
    }
    lengths = Array.from({ length: rungs }, (_, r) => Math.round(spanMs / eta ** (rungs - 1 - r)));
  }
  // A rung no longer than the one before (rungs: [1m, 3m, all] on a 3-minute walk-forward train
  // window) would replay the same window and rank the survivors again: it is dropped.
  lengths = lengths.filter((l, k) => k === 0 || l > lengths[k - 1]!);
  let n = nCandidates;
  return lengths.map((lengthMs, index) => {
    const candidates = n;
    n = Math.max(1, Math.floor(n / eta));
    const whole = lengthMs >= spanMs;
    return { index, lengthMs, candidates, window: { id: `${base.idPrefix}rung${index + 1}`, startMs: base.startMs, endMs: whole ? base.endMs : span.startMs + lengthMs } };
  });
}

/** How many of `n` candidates go on to the next rung: the best 1/eta, at least one. */
export const survivorCount = (n: number, eta: number): number => Math.max(1, Math.floor(n / eta));

/** The best `keep` points of a rung: complete runs with a figure only, in rank order. */
export function survivors(lb: Leaderboard, keep: number): GridPoint[] {
  return lb.entries.filter((e) => e.failed === 0 && e.windows > 0 && Number.isFinite(e.objective)).slice(0, keep).map((e) => e.point);
}

/** What one rung ran and kept. */
export interface RungResult {
  readonly plan: RungPlan;
  readonly leaderboard: Leaderboard;
  /** Points promoted to the next rung (empty after the last). */
  readonly survivors: readonly GridPoint[];
}

/** Runs a batch of points on one window and returns one observation per point. */
export type RunBatch = (points: readonly GridPoint[], window: DataWindow) => Promise<readonly Observation[]>;

/**
 * Successive halving: runs every candidate on the first (shortest) rung's window, keeps the best
 * 1/eta by the objective, runs those on the next longer window, and so on; stops early when no
 * candidate survives (every run failed). One batch per rung.
 */
export async function runHalving(candidates: readonly GridPoint[], plan: readonly RungPlan[], objective: Objective, eta: number, runBatch: RunBatch, drawdownFloorUsd = DRAWDOWN_FLOOR_USD): Promise<RungResult[]> {
  const out: RungResult[] = [];
  let current = [...candidates];
  for (const rung of plan) {
    if (current.length === 0) break;
    const obs = await runBatch(current, rung.window);
    const leaderboard = buildLeaderboard(current, obs, objective, drawdownFloorUsd);
    const last = rung.index === plan.length - 1;
    const next = last ? [] : survivors(leaderboard, survivorCount(current.length, eta));
    out.push({ plan: rung, leaderboard, survivors: next });
    current = next;
  }
  return out;
}

/**
 * The overall ranking of a halving search: points that reached a later rung rank above those
 * eliminated earlier; within a rung, by that rung's ranking. Each entry carries its figures on the
 * last rung it ran (`rung`) and its objective on every rung (per-window columns, one per rung); the
 * rungs' own rankings are kept as `stages` (like-with-like comparisons, for the heat maps).
 */
export function halvingLeaderboard(rungs: readonly RungResult[], candidates: readonly GridPoint[], objective: Objective): Leaderboard {
  const windows = rungs.map((r) => r.plan.window.id);
  const perRung = new Map<string, (number | null)[]>(candidates.map((p) => [pointKey(p), windows.map(() => null)]));
  rungs.forEach((r, k) => {
    for (const e of r.leaderboard.entries) perRung.get(pointKey(e.point))![k] = e.windows > 0 ? e.objective : null;
  });
  const placed = new Set<string>();
  const entries: LeaderboardEntry[] = [];
  for (let k = rungs.length - 1; k >= 0; k--) {
    for (const e of rungs[k]!.leaderboard.entries) {
      const key = pointKey(e.point);
      if (placed.has(key)) continue;
      placed.add(key);
      entries.push({ ...e, rank: entries.length + 1, pointIndex: candidates.findIndex((p) => pointKey(p) === key), windows: perRung.get(key)!.filter((v) => v !== null).length, perWindow: perRung.get(key)!, rung: k + 1 });
    }
  }
  const stages = rungs.map((r, k) => ({ index: k + 1, label: `rung ${k + 1} (first ${formatDurationMs(r.plan.lengthMs)})`, leaderboard: r.leaderboard }));
  const floor = rungs[0]?.leaderboard.drawdownFloorUsd;
  return { objective, axes: candidates[0]?.map(([p]) => p) ?? [], windows, entries, staged: true, stages, ...(floor === undefined ? {} : { drawdownFloorUsd: floor }) };
}
