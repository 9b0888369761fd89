import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { workerName, type BatchReply } from './batch.ts';
import { decodeJson, encodeJson } from './canonical.ts';
import { codeVersion } from './code-version.ts';
import { resolveDataRef } from './data-ref.ts';
import { dataFingerprint } from './fingerprint.ts';
import { strategyModuleHash, strategyModulePath } from './strategy-modules.ts';
import { errorResult, type JobResult, type ResearchJob } from './job.ts';
import { JobPool, type PoolItem } from './job-pool.ts';
import { connectRedis, DEFAULT_QUEUE } from './redis-backend.ts';
import { loadStoredResults, storeResult } from './result-store.ts';
import { JOB_NAME, type QueuedBatch } from './redis-runner.ts';

/** What a research worker reports as it goes (the CLI prints it). */
export type WorkerEvent =
  | { readonly kind: 'start'; readonly job: ResearchJob }
  | { readonly kind: 'done'; readonly job: ResearchJob; readonly error: string | null }
  | { readonly kind: 'retry'; readonly jobId: string; readonly reason: string }
  /** Refused (other code or data), or failed on its last try. */
  | { readonly kind: 'refused'; readonly jobId: string; readonly reason: string };

/** Options of a research worker. */
export interface ResearchWorkerOptions {
  readonly url: string;
  readonly queueName?: string;
  /** Jobs run at once, one worker thread each. */
  readonly concurrency: number;
  /**
   * Batches taken from the queue ahead of a free thread (default: one per thread): the next batch
   * waits in this process, checked and ready, while a thread finishes the last one, so a thread
   * never idles through the Redis round trips between batches (completing one, taking the next).
   */
  readonly prefetch?: number;
  /** Downloaded data and decoded-recording sidecars. */
  readonly cacheDir: string;
  /** A job whose lock is not renewed for this long is taken to be lost (its worker died) and run again (ms; BullMQ default 30000). */
  readonly lockDurationMs?: number;
  /** How often this worker looks for lost jobs (ms; BullMQ default 30000). */
  readonly stalledIntervalMs?: number;
  /** How many times a job may be lost before it fails for good (default 3). */
  readonly maxStalledCount?: number;
  readonly onEvent?: (e: WorkerEvent) => void;
  readonly onError?: (e: Error) => void;
}

/** A running research worker. */
export interface ResearchWorker {
  /** Stops taking jobs; `force` false waits for the running ones, true abandons them (their locks expire and another worker reruns them). */
  close(force?: boolean): Promise<void>;
}

/**
 * Serves research jobs from a BullMQ queue, a batch of jobs over one data set per queue entry:
 * checks each job's code version and data fingerprints against this machine's, resolves its data
 * (downloading URLs once), skips the jobs whose results are already stored (a batch run again after
 * its worker died), runs the rest back to back on one worker thread (the main thread stays free to
 * renew BullMQ's locks), stores each result in Redis (`storeResult`) under its job id as it
 * arrives, for as long as the batch says (`resultsTtlS`), and completes the entry with every
 * result and the thread's timing (`BatchReply`). A backtest error is a result; a refused job
 * (`JOB_REFUSED`) is a transient result, never stored; an infrastructure failure (unreachable data,
 * a dead thread) fails the batch, which is retried (its finished jobs are not run again).
 * @throws MmError BACKEND_UNAVAILABLE when Redis cannot be reached at start.
 */
export async function startResearchWorker(opts: ResearchWorkerOptions): Promise<ResearchWorker> {
  const queueName = opts.queueName ?? DEFAULT_QUEUE;
  const conn: Redis = await connectRedis(opts.url, opts.onError ? { onError: opts.onError } : {});
  const prefetch = Math.max(0, opts.prefetch ?? opts.concurrency);
  // A prefetched batch goes to its thread at once, to start there the moment the one before ends.
  const pool = new JobPool({ threads: opts.concurrency, cacheDir: opts.cacheDir, batchesPerThread: prefetch > 0 ? 2 : 1 });
  await pool.warm(); // thread start-up (module loading) before the first job, not inside it
  const mine = codeVersion();
  const me = `${hostname()}:${process.pid}`;
  const emit = (e: WorkerEvent): void => opts.onEvent?.(e);

  /** Why this machine cannot run `job` (other code, strategy files or data), or null; `paths` gets its local data. */
  const refusal = async (job: ResearchJob, local: (ref: string) => Promise<string>): Promise<{ reason: string } | { paths: string[] }> => {
    if (job.codeVersion !== mine) return { reason: `JOB_REFUSED: job ${job.id.slice(0, 12)} was planned by mmbot code ${job.codeVersion}; this worker runs ${mine} (deploy the same checkout on the coordinator and every worker)` };
    for (const [name, planned] of Object.entries(job.modules ?? {})) {
      const file = strategyModulePath(name, job.baseDir)!;
      const here = await strategyModuleHash(file);
      if (here !== planned)
        return { reason: `JOB_REFUSED: strategy module ${name} here (${file}) is ${here === 'unreadable' ? 'missing or unreadable' : `another file, or imports other helper files (${here})`}; the sweep planned ${planned} (deploy the same strategy folder on every worker)` };
    }
    const paths = await Promise.all(job.data.map(local));
    for (const [k, p] of paths.entries()) {
      const fp = await dataFingerprint(p, opts.cacheDir);
      if (fp !== job.fingerprints[k]) return { reason: `JOB_REFUSED: data ${job.data[k]} here (${p}) has fingerprint ${fp}, the sweep planned ${job.fingerprints[k]} (another file under the same name)` };
    }
    return { paths };
  };

  const processBatch = async (bjob: Job<QueuedBatch>): Promise<string> => {
    if (bjob.name !== JOB_NAME) throw new UnrecoverableError(`JOB_REFUSED: unknown job kind "${bjob.name}"`);
    const jobs = decodeJson<ResearchJob[]>(bjob.data.jobs);
    const ttlS = bjob.data.resultsTtlS ?? null;
    const results: (JobResult | undefined)[] = await loadStoredResults(conn, queueName, jobs.map((j) => j.id));
    const resolved = new Map<string, Promise<string>>();
    const local = (ref: string): Promise<string> => {
      let p = resolved.get(ref);
      if (!p) resolved.set(ref, (p = resolveDataRef(ref, opts.cacheDir)));
      return p;
    };
    const items: PoolItem[] = [];
    const at: number[] = []; // items[i] is jobs[at[i]]
    for (const [k, job] of jobs.entries()) {
      if (results[k] !== undefined) continue;
      const ok = await refusal(job, local);
      if ('reason' in ok) {
        emit({ kind: 'refused', jobId: job.id, reason: ok.reason });
        results[k] = errorResult(job, ok.reason, true);
      } else {
        items.push({ job, paths: ok.paths });
        at.push(k);
      }
    }
    const stores: Promise<void>[] = [];
    const outcome = await pool.runBatch(items, {
      onStart: (i) => emit({ kind: 'start', job: items[i]!.job }),
      onResult: (i, r) => {
        if (r.transient) return;
        // Stored as each job finishes (a worker dying mid-batch keeps what it did), before the batch completes.
        stores.push(storeResult(conn, queueName, r.jobId, encodeJson(r), ttlS));
        emit({ kind: 'done', job: items[i]!.job, error: r.row.error });
      },
    });
    await Promise.all(stores);
    const failed = outcome.results.find((r) => r.transient);
    if (failed) throw new Error(failed.row.error ?? 'transient failure');
    outcome.results.forEach((r, i) => (results[at[i]!] = r));
    const reply: BatchReply = { worker: me, results: results as JobResult[], ran: items.length, timing: outcome.timing };
    return encodeJson(reply);
  };

  const worker = new Worker<QueuedBatch, string>(queueName, processBatch, {
    connection: conn,
    name: workerName(pool.threads), // the coordinator sizes batches by the threads serving the queue
    concurrency: pool.threads + prefetch,
    ...(opts.lockDurationMs === undefined ? {} : { lockDuration: opts.lockDurationMs }),
    ...(opts.stalledIntervalMs === undefined ? {} : { stalledInterval: opts.stalledIntervalMs }),
    maxStalledCount: opts.maxStalledCount ?? 3,
  });
  worker.on('error', (e: Error) => opts.onError?.(e));
  worker.on('failed', (j, e) => {
    if (!j || e instanceof UnrecoverableError) return;
    if (j.attemptsMade < (j.opts.attempts ?? 1)) emit({ kind: 'retry', jobId: j.id ?? '?', reason: e.message });
    else emit({ kind: 'refused', jobId: j.id ?? '?', reason: `failed ${j.attemptsMade} time(s), giving up: ${e.message}` });
  });
  await worker.waitUntilReady();
  return {
    async close(force = false) {
      await worker.close(force);
      await pool.close();
      await conn.quit().catch(() => undefined);
    },
  };
}
