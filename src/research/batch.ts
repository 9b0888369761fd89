import { sha256Hex } from './canonical.ts';
import type { JobResult, ResearchJob } from './job.ts';
import type { BatchTiming } from './job-pool.ts';

/** What a worker completes a batch with: every job's result in the batch's order (and what it cost). */
export interface BatchReply {
  /** The worker (`host:pid`). */
  readonly worker: string;
  readonly results: readonly JobResult[];
  /** Jobs run for this reply (the others were found stored or refused). */
  readonly ran: number;
  /** Where the thread's time went (null when unknown). */
  readonly timing: BatchTiming | null;
}

/** How many batches per worker thread the remaining jobs are cut into at each step (guided self-scheduling). */
export const BATCHES_PER_SLOT = 4;

/**
 * Cuts jobs into batches for distributed workers: one queue entry, one thread hand-over and one
 * result write per batch instead of per job, over data the worker keeps loaded (a batch never mixes
 * data sets). Sizes follow guided self-scheduling: each batch takes ⌈remaining / (BATCHES_PER_SLOT ×
 * slots)⌉ jobs, so the first batches are large (few round trips) and the last ones single jobs
 * (no worker is left holding a long batch while the others are idle at the end). Jobs keep their
 * order within a data set; data sets keep their first appearance's order.
 * @param slots worker threads expected to serve the sweep (at least 1 is assumed).
 */
export function planBatches(jobs: readonly ResearchJob[], slots: number, perSlot = BATCHES_PER_SLOT): ResearchJob[][] {
  const byData = new Map<string, ResearchJob[]>();
  for (const j of jobs) {
    const key = j.fingerprints.join('\n');
    const list = byData.get(key);
    if (list) list.push(j);
    else byData.set(key, [j]);
  }
  const divisor = Math.max(1, Math.floor(slots)) * Math.max(1, Math.floor(perSlot));
  const batches: ResearchJob[][] = [];
  for (const list of byData.values()) {
    let at = 0;
    while (at < list.length) {
      const size = Math.ceil((list.length - at) / divisor);
      batches.push(list.slice(at, at + size));
      at += size;
    }
  }
  return batches;
}

/** The queue id of a batch: a hash of its jobs' ids in order (the same batch planned twice is queued once). */
export const batchId = (jobs: readonly ResearchJob[]): string => `b${sha256Hex(jobs.map((j) => j.id).join(','))}`;

/** The queue connection name of a worker with `threads` threads (`slotsOfWorkerName` reads it back). */
export const workerName = (threads: number): string => `mmbot-${threads}t`;

/** Worker threads a worker announces in its queue connection name (`mmbot-<threads>t`), or 1 when the name says nothing. */
export function slotsOfWorkerName(name: string | undefined): number {
  const m = /mmbot-(\d+)t$/.exec(name ?? '');
  return m ? Math.max(1, Number(m[1])) : 1;
}
