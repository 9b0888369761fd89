import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { decodeJson, encodeJson } from './canonical.ts';
import { codeVersion } from './code-version.ts';
import { resolveDataRef } from './data-ref.ts';
import { dataFingerprint } from './fingerprint.ts';
import { strategyModuleHash, strategyModulePath } from './strategy-modules.ts';
import type { ResearchJob } from './job.ts';
import { JobPool } from './job-pool.ts';
import { connectRedis, DEFAULT_QUEUE } from './redis-backend.ts';
import { storeResult } from './result-store.ts';
import { JOB_NAME, type QueuedJob } from './redis-runner.ts';

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
   * Jobs taken from the queue ahead of a free thread (default: one per thread): the next job waits
   * in this process, checked and ready, while a thread finishes the last one, so a thread never
   * idles through the Redis round trips between jobs (storing a result, taking the next job).
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
 * Serves research jobs from a BullMQ queue: checks each job's code version and data fingerprints
 * against this machine's, resolves its data (downloading URLs once), runs it on a worker thread
 * (the main thread stays free to renew BullMQ's locks) and stores the result in Redis (`storeResult`)
 * under the job id, for as long as the job says (`resultsTtlS`). A backtest error is a result; a refused job (`JOB_REFUSED`) fails at once; an
 * infrastructure failure (unreachable data, a dead thread) is retried.
 * @throws MmError BACKEND_UNAVAILABLE when Redis cannot be reached at start.
 */
export async function startResearchWorker(opts: ResearchWorkerOptions): Promise<ResearchWorker> {
  const queueName = opts.queueName ?? DEFAULT_QUEUE;
  const conn: Redis = await connectRedis(opts.url, opts.onError ? { onError: opts.onError } : {});
  const pool = new JobPool({ threads: opts.concurrency, cacheDir: opts.cacheDir });
  await pool.warm(); // thread start-up (module loading) before the first job, not inside it
  const mine = codeVersion();
  const emit = (e: WorkerEvent): void => opts.onEvent?.(e);

  const processJob = async (bjob: Job<QueuedJob>): Promise<string> => {
    if (bjob.name !== JOB_NAME) throw new UnrecoverableError(`JOB_REFUSED: unknown job kind "${bjob.name}"`);
    const job = decodeJson<ResearchJob>(bjob.data.job);
    if (job.codeVersion !== mine) {
      const reason = `JOB_REFUSED: job ${job.id.slice(0, 12)} was planned by mmbot code ${job.codeVersion}; this worker runs ${mine} (deploy the same checkout on the coordinator and every worker)`;
      emit({ kind: 'refused', jobId: job.id, reason });
      throw new UnrecoverableError(reason);
    }
    for (const [name, planned] of Object.entries(job.modules ?? {})) {
      const file = strategyModulePath(name, job.baseDir)!;
      const here = await strategyModuleHash(file);
      if (here !== planned) {
        const reason = `JOB_REFUSED: strategy module ${name} here (${file}) is ${here === 'unreadable' ? 'missing or unreadable' : `another file, or imports other helper files (${here})`}; the sweep planned ${planned} (deploy the same strategy folder on every worker)`;
        emit({ kind: 'refused', jobId: job.id, reason });
        throw new UnrecoverableError(reason);
      }
    }
    const paths = await Promise.all(job.data.map((ref) => resolveDataRef(ref, opts.cacheDir)));
    for (const [k, p] of paths.entries()) {
      const fp = await dataFingerprint(p, opts.cacheDir);
      if (fp !== job.fingerprints[k]) {
        const reason = `JOB_REFUSED: data ${job.data[k]} here (${p}) has fingerprint ${fp}, the sweep planned ${job.fingerprints[k]} (another file under the same name)`;
        emit({ kind: 'refused', jobId: job.id, reason });
        throw new UnrecoverableError(reason);
      }
    }
    const result = await pool.run(job, paths, () => emit({ kind: 'start', job }));
    if (result.transient) throw new Error(result.row.error ?? 'transient failure');
    // Stored before the job completes: a worker dying in between leaves a result the rerun overwrites with the same value.
    await storeResult(conn, queueName, job.id, encodeJson(result), bjob.data.resultsTtlS ?? null);
    emit({ kind: 'done', job, error: result.row.error });
    return job.id;
  };

  const worker = new Worker<QueuedJob, string>(queueName, processJob, {
    connection: conn,
    concurrency: pool.threads + Math.max(0, opts.prefetch ?? pool.threads),
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
