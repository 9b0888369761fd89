import type { GridPoint } from '../backtest/sweep.ts';
import type { RunBatch } from './halving.ts';
import { errorResult, type JobResult, type ResearchJob } from './job.ts';
import { pointKey, type Observation } from './leaderboard.ts';
import type { JobRunner } from './runner.ts';
import type { PointWindow, RunPairs } from './walk-forward.ts';
import type { DataWindow } from './windows.ts';

/** Builds the job of one candidate (by its index in the candidate list) on one window. */
export type JobFactory = (point: GridPoint, index: number, window: DataWindow) => ResearchJob;

/** Progress of one batch: a result arrived (done of total). */
export type BatchProgress = (phase: string, result: JobResult, done: number, total: number) => void;

/** A job's result as a leaderboard observation (a missing result counts as a failed run). */
export function observationOf(job: ResearchJob, r: JobResult | undefined): Observation {
  const res = r ?? errorResult(job, 'no result from the backend', true);
  return { point: job.point, windowId: job.window.id, metrics: res.row };
}

/**
 * Adapts a JobRunner (embedded threads or Redis workers alike) to the searches: each call is one
 * batch through `runner.run`, and its results come back as observations in job order.
 */
export function pairRunner(runner: JobRunner, candidates: readonly GridPoint[], make: JobFactory, progress?: BatchProgress): RunPairs {
  const index = new Map(candidates.map((p, i) => [pointKey(p), i] as const));
  return async (pairs: readonly PointWindow[], phase: string) => {
    const jobs = pairs.map(({ point, window }) => make(point, index.get(pointKey(point)) ?? 0, window));
    const results = await runner.run(jobs, progress ? (r, done, total) => progress(phase, r, done, total) : undefined);
    return jobs.map((j) => observationOf(j, results.get(j.id)));
  };
}

/** The same adapter shaped for successive halving: one batch per rung (phase = the rung's window id). */
export function rungRunner(pairs: RunPairs): RunBatch {
  return (points, window) => pairs(points.map((point) => ({ point, window })), window.id);
}
