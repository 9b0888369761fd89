import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { decodeJson, encodeJson } from './canonical.ts';
import { errorResult, relabel, type JobResult, type ResearchJob } from './job.ts';
import { connectRedis, DEFAULT_QUEUE } from './redis-backend.ts';
import { DEFAULT_RESULTS_TTL_S, loadResults } from './result-store.ts';
import { distinctJobs, type JobRunner, type ResultCallback } from './runner.ts';

/** Options of the Redis runner (the coordinator's side of a distributed sweep). */
export interface RedisRunnerOptions {
  readonly url: string;
  /** BullMQ queue name (workers must use the same; default mmbot-research). */
  readonly queueName?: string;
  /** Tries per job before it fails for good (worker crashes and lost locks are not tries; default 3). */
  readonly attempts?: number;
  /** Connection errors after the first connection. */
  readonly onError?: (e: Error) => void;
  /** How long results stay in Redis, seconds (null: never; default DEFAULT_RESULTS_TTL_S); results this sweep finds stored are renewed to it. */
  readonly resultsTtlS?: number | null;
}

/** The BullMQ job name of a research job. */
export const JOB_NAME = 'backtest';
/** The BullMQ payload of a research job. */
export interface QueuedJob {
  /** The ResearchJob, as `encodeJson` text (keeps non-finite numbers). */
  readonly job: string;
  /** How long the worker keeps the result in Redis, seconds (null or absent: never). Not part of the job id. */
  readonly resultsTtlS?: number | null;
}

const CHUNK = 500;

/**
 * Runs jobs through a BullMQ queue on Redis, on whatever `mmbot worker` processes serve it. Results
 * live in Redis keyed by job id (`result-store.ts`, written by the workers, expiring after
 * `resultsTtlS`, renewed when a sweep finds them), so a coordinator started again
 * finds them; jobs are added with the job id as BullMQ id, so re-adding a queued job is a no-op; a
 * job already done is never queued; a job that failed for good is retried when planned again.
 * @throws MmError BACKEND_UNAVAILABLE when Redis cannot be reached.
 */
export async function redisRunner(opts: RedisRunnerOptions): Promise<JobRunner & { workerCount(): Promise<number> }> {
  const queueName = opts.queueName ?? DEFAULT_QUEUE;
  const conn: Redis = await connectRedis(opts.url, opts.onError ? { onError: opts.onError } : {});
  const queue = new Queue<QueuedJob>(queueName, { connection: conn });
  queue.on('error', (e: Error) => opts.onError?.(e));
  const ttlS = opts.resultsTtlS === undefined ? DEFAULT_RESULTS_TTL_S : opts.resultsTtlS;
  let queueEvents: QueueEvents | null = null;
  let eventsConn: Redis | null = null;
  const stopEvents = async (): Promise<void> => {
    await queueEvents?.close();
    await eventsConn?.quit().catch(() => undefined);
    queueEvents = null;
    eventsConn = null;
  };

  return {
    async run(jobs: readonly ResearchJob[], onResult?: ResultCallback): Promise<Map<string, JobResult>> {
      const todo = distinctJobs(jobs);
      const byId = new Map(todo.map((j) => [j.id, j] as const));
      const results = new Map<string, JobResult>();
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const record = (id: string, r: JobResult): void => {
        const job = byId.get(id);
        if (!job || results.has(id)) return; // another sweep's job, or a second report of one counted already
        results.set(id, relabel(job, r));
        onResult?.(results.get(id)!, results.size, todo.length);
        if (results.size === todo.length) finish();
      };
      if (todo.length === 0) return results;
      // Listen from the stream's current end before looking at anything, so no completion is missed.
      const last = (await conn.xrevrange(`${queue.opts.prefix ?? 'bull'}:${queueName}:events`, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
      await stopEvents();
      // A connection of its own: QueueEvents blocks on it (XREAD).
      eventsConn = conn.duplicate();
      eventsConn.on('error', (e: Error) => opts.onError?.(e));
      queueEvents = new QueueEvents(queueName, { connection: eventsConn, lastEventId: last[0]?.[0] ?? '0-0' });
      queueEvents.on('error', (e: Error) => opts.onError?.(e));
      queueEvents.on('completed', ({ jobId }) => {
        if (!byId.has(jobId) || results.has(jobId)) return;
        void loadResults(conn, queueName, [jobId], ttlS).then(([text]) => (text === null || text === undefined ? undefined : record(jobId, decodeJson<JobResult>(text))));
      });
      queueEvents.on('failed', ({ jobId, failedReason }) => {
        if (!byId.has(jobId) || results.has(jobId)) return;
        // 'failed' is also reported for a try that will be retried: only a job in the failed set is done.
        void queue.getJobState(jobId).then((state) => (state === 'failed' ? record(jobId, errorResult(byId.get(jobId)!, failedReason, true)) : undefined));
      });
      await queueEvents.waitUntilReady();

      const toAdd: ResearchJob[] = [];
      for (let i = 0; i < todo.length; i += CHUNK) {
        const chunk = todo.slice(i, i + CHUNK);
        const stored = await loadResults(conn, queueName, chunk.map((j) => j.id), ttlS);
        const missing = chunk.filter((j, k) => {
          const text = stored[k];
          if (text === null || text === undefined) return true;
          record(j.id, decodeJson<JobResult>(text));
          return false;
        });
        const states = await Promise.all(missing.map((j) => queue.getJobState(j.id)));
        for (const [k, j] of missing.entries()) {
          const state = states[k];
          if (state === 'unknown') toAdd.push(j);
          else if (state === 'failed') await (await queue.getJob(j.id))?.retry('failed');
          else if (state === 'completed') {
            // Completed without a stored result (cleared or expired): run it again.
            await queue.remove(j.id);
            toAdd.push(j);
          }
          // waiting, active, delayed, prioritized: already on its way
        }
      }
      for (let i = 0; i < toAdd.length; i += CHUNK)
        await queue.addBulk(
          toAdd.slice(i, i + CHUNK).map((j) => ({
            name: JOB_NAME,
            data: { job: encodeJson(j), resultsTtlS: ttlS },
            opts: { jobId: j.id, attempts: opts.attempts ?? 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
          })),
        );
      // A job may have completed between the hash read and the listener's first read: look once more.
      const pending = todo.filter((j) => !results.has(j.id));
      for (let i = 0; i < pending.length; i += CHUNK) {
        const chunk = pending.slice(i, i + CHUNK);
        const stored = await loadResults(conn, queueName, chunk.map((j) => j.id), ttlS);
        chunk.forEach((j, k) => {
          const text = stored[k];
          if (text !== null && text !== undefined) record(j.id, decodeJson<JobResult>(text));
        });
      }
      if (results.size < todo.length) await finished;
      await stopEvents();
      return results;
    },
    /** `mmbot worker` processes connected to the queue now. */
    workerCount: () => queue.getWorkersCount(),
    async close(): Promise<void> {
      await stopEvents();
      await queue.close();
      await conn.quit().catch(() => undefined);
    },
  };
}
