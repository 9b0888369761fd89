import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { batchId, planBatches, slotsOfWorkerName, type BatchReply } from './batch.ts';
import { decodeJson, encodeJson } from './canonical.ts';
import { errorResult, relabel, type JobResult, type ResearchJob } from './job.ts';
import { account, type RunAccounting } from './run-accounting.ts';
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
  /** Worker threads to cut batches for (default: those of the workers connected when a run starts, at least 1). */
  readonly slots?: number;
  /** Marks the accounting's times (ms, monotonic; default none: times read 0). */
  readonly clock?: () => number;
}

/** The BullMQ job name of a batch of research jobs. */
export const JOB_NAME = 'backtest-batch';
/** The BullMQ payload of a batch of research jobs over one data set. */
export interface QueuedBatch {
  /** The ResearchJobs, as `encodeJson` text (keeps non-finite numbers). */
  readonly jobs: string;
  /** How long the worker keeps the result in Redis, seconds (null or absent: never). Not part of the job id. */
  readonly resultsTtlS?: number | null;
}

const CHUNK = 500;

/**
 * Runs jobs through a BullMQ queue on Redis, on whatever `mmbot worker` processes serve it, in
 * batches over one data set (`planBatches`, cut for the threads serving the queue) that complete
 * with their results inline. Results also live in Redis keyed by job id (`result-store.ts`, written
 * by the workers, expiring after `resultsTtlS`, renewed when a sweep finds them), so a coordinator
 * started again finds them; a batch's BullMQ id hashes its job ids, so re-adding a queued batch is a
 * no-op; a job already done is never queued; a batch that failed for good is retried when planned again.
 * @throws MmError BACKEND_UNAVAILABLE when Redis cannot be reached.
 */
export async function redisRunner(opts: RedisRunnerOptions): Promise<JobRunner & { workerCount(): Promise<number>; accounting(): RunAccounting | null }> {
  const queueName = opts.queueName ?? DEFAULT_QUEUE;
  const conn: Redis = await connectRedis(opts.url, opts.onError ? { onError: opts.onError } : {});
  const queue = new Queue<QueuedBatch>(queueName, { connection: conn });
  queue.on('error', (e: Error) => opts.onError?.(e));
  const ttlS = opts.resultsTtlS === undefined ? DEFAULT_RESULTS_TTL_S : opts.resultsTtlS;
  const now = opts.clock ?? ((): number => 0);
  let acc: RunAccounting | null = null;
  /** Worker threads serving the queue now (each worker names its thread count). */
  const slotsNow = async (): Promise<number> => (await queue.getWorkers()).reduce((n, w) => n + slotsOfWorkerName(w['rawname']), 0);
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
      const run: RunAccounting = { queuedJobs: 0, queuedBatches: 0, slots: 0, startMs: now(), queuedMs: 0, firstResultMs: 0, lastResultMs: 0, workers: new Map() };
      acc = run;
      const batches = new Map<string, ResearchJob[]>();
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const record = (id: string, r: JobResult): void => {
        const job = byId.get(id);
        if (!job || results.has(id)) return; // another sweep's job, or a second report of one counted already
        results.set(id, relabel(job, r));
        run.lastResultMs = now();
        if (run.firstResultMs === 0) run.firstResultMs = run.lastResultMs;
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
      // A batch completes with every result in it (no read back from Redis), ours or another sweep's.
      queueEvents.on('completed', ({ returnvalue }) => {
        if (typeof returnvalue !== 'string') return;
        const reply = decodeJson<BatchReply>(returnvalue);
        account(run, reply);
        for (const r of reply.results) record(r.jobId, r);
      });
      queueEvents.on('failed', ({ jobId, failedReason }) => {
        const members = batches.get(jobId);
        if (!members || members.every((j) => results.has(j.id))) return;
        // 'failed' is also reported for a try that will be retried: only a batch in the failed set is done.
        void queue.getJobState(jobId).then((state) => (state === 'failed' ? members.forEach((j) => record(j.id, errorResult(j, failedReason, true))) : undefined));
      });
      await queueEvents.waitUntilReady();

      const missing: ResearchJob[] = [];
      for (let i = 0; i < todo.length; i += CHUNK) {
        const chunk = todo.slice(i, i + CHUNK);
        const stored = await loadResults(conn, queueName, chunk.map((j) => j.id), ttlS);
        chunk.forEach((j, k) => {
          const text = stored[k];
          if (text === null || text === undefined) missing.push(j);
          else record(j.id, decodeJson<JobResult>(text));
        });
      }
      run.slots = opts.slots ?? Math.max(1, await slotsNow());
      const toAdd: ResearchJob[][] = [];
      const planned = planBatches(missing, run.slots);
      for (const b of planned) batches.set(batchId(b), b);
      // Asked all at once: one burst of round trips before anything is queued, not one after another.
      const states = await Promise.all(planned.map((b) => queue.getJobState(batchId(b))));
      for (const [k, b] of planned.entries()) {
        const id = batchId(b);
        const state = states[k];
        if (state === 'unknown') toAdd.push(b);
        else if (state === 'failed') await (await queue.getJob(id))?.retry('failed');
        else if (state === 'completed') {
          // Completed, yet a result is missing (cleared or expired): run it again.
          await queue.remove(id);
          toAdd.push(b);
        }
        // waiting, active, delayed, prioritized: already on its way
      }
      for (let i = 0; i < toAdd.length; i += CHUNK)
        await queue.addBulk(
          toAdd.slice(i, i + CHUNK).map((b) => ({
            name: JOB_NAME,
            data: { jobs: encodeJson(b), resultsTtlS: ttlS },
            opts: { jobId: batchId(b), attempts: opts.attempts ?? 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
          })),
        );
      run.queuedBatches = toAdd.length;
      run.queuedJobs = toAdd.reduce((n, b) => n + b.length, 0);
      run.queuedMs = now();
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
    /** Where the last run's time went (null before any run). */
    accounting: () => acc,
    async close(): Promise<void> {
      await stopEvents();
      await queue.close();
      await conn.quit().catch(() => undefined);
    },
  };
}
