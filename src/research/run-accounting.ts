import type { BatchReply } from './batch.ts';
import type { BatchTiming } from './job-pool.ts';

/** One worker's share of a run, as its batch replies tell it. */
export interface WorkerShare extends BatchTiming {
  batches: number;
  /** Jobs it ran (not those it found stored). */
  jobs: number;
}

/** Where a run's time went, from the coordinator's side and from the workers' replies. */
export interface RunAccounting {
  /** Jobs and batches queued (jobs found stored or already queued are not). */
  queuedJobs: number;
  queuedBatches: number;
  /** Worker threads the batches were cut for. */
  slots: number;
  /** Clock marks, ms: run started, everything queued, first and last result (0: none). */
  startMs: number;
  queuedMs: number;
  firstResultMs: number;
  lastResultMs: number;
  /** By worker (`host:pid`). */
  workers: Map<string, WorkerShare>;
}

const emptyShare = (): WorkerShare => ({ batches: 0, jobs: 0, loadMs: 0, setupMs: 0, replayMs: 0, reportMs: 0, cpuMs: 0 });

/** Adds a batch reply to the run's accounting. */
export function account(acc: RunAccounting, reply: BatchReply): void {
  const w = acc.workers.get(reply.worker) ?? emptyShare();
  acc.workers.set(reply.worker, w);
  w.batches++;
  w.jobs += reply.ran;
  const t = reply.timing;
  if (!t) return;
  w.loadMs += t.loadMs;
  w.setupMs += t.setupMs;
  w.replayMs += t.replayMs;
  w.reportMs += t.reportMs;
  w.cpuMs = w.cpuMs === null || t.cpuMs === null ? null : w.cpuMs + t.cpuMs;
}

const s = (ms: number): string => (ms / 1000).toFixed(2);

/**
 * The accounting as lines for the terminal: the coordinator's marks (relative to the run's start),
 * then each worker's batches, jobs and thread time by phase (seconds).
 */
export function accountingLines(acc: RunAccounting): string[] {
  const rel = (ms: number): string => (ms === 0 ? '—' : `${s(ms - acc.startMs)} s`);
  const lines = [`${acc.queuedJobs} job(s) queued in ${acc.queuedBatches} batch(es) for ${acc.slots} thread(s) by ${rel(acc.queuedMs)}; first result ${rel(acc.firstResultMs)}, last ${rel(acc.lastResultMs)}`];
  for (const [name, w] of [...acc.workers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const busy = w.loadMs + w.setupMs + w.replayMs + w.reportMs;
    lines.push(
      `worker ${name}: ${w.jobs} job(s) in ${w.batches} batch(es); thread busy ${s(busy)} s (load ${s(w.loadMs)}, setup ${s(w.setupMs)}, replay ${s(w.replayMs)}, report ${s(w.reportMs)}), thread CPU ${w.cpuMs === null ? '?' : `${s(w.cpuMs)} s`}`,
    );
  }
  return lines;
}
