import { Worker } from 'node:worker_threads';
import { errorResult, type JobResult, type ResearchJob } from './job.ts';
import type { JobTiming } from './job-exec.ts';

/** A job with the local paths of its data. */
export interface PoolItem {
  readonly job: ResearchJob;
  readonly paths: readonly string[];
}

/** A batch of jobs sent to a thread, run one after the other there. */
export interface ThreadTask {
  readonly seq: number;
  readonly items: readonly PoolItem[];
}

/** Where a batch's time went on its thread: the jobs' phases, and the thread's CPU time if the OS tells it (Linux). */
export interface BatchTiming extends JobTiming {
  /** CPU time of the thread over the batch, ms (null: unknown on this OS). */
  cpuMs: number | null;
}

/**
 * A thread's messages about a batch: each job's result as it finishes, then the batch's timing. No
 * message says a job started (each costs the thread a wake-up of this one): a thread runs its
 * batches and their jobs in order, so a job starts when the one before it ends (`BatchListener.onStart`).
 */
export type ThreadReply =
  | { readonly seq: number; readonly kind: 'result'; readonly k: number; readonly result: JobResult }
  | { readonly seq: number; readonly kind: 'done'; readonly timing: BatchTiming };

/** What a caller hears about a batch while it runs. */
export interface BatchListener {
  /** Job k of the batch started on its thread. */
  readonly onStart?: (k: number) => void;
  /** Job k of the batch finished (results arrive in the batch's order). */
  readonly onResult?: (k: number, result: JobResult) => void;
}

/** A batch's outcome: every job's result in the batch's order, and the thread's timing (null when the thread died). */
export interface BatchOutcome {
  readonly results: JobResult[];
  readonly timing: BatchTiming | null;
}

/** Options of a JobPool. */
export interface JobPoolOptions {
  /** Worker threads (backtests are CPU-bound: one per core to spare). */
  readonly threads: number;
  /** Where decoded recordings are cached as binary sidecars (null: decode every time). */
  readonly cacheDir: string | null;
  /** Decoded data sets each thread keeps in memory (LRU; default 2). */
  readonly recordingsPerThread?: number;
  /**
   * Batches handed to a thread at once (default 1): with 2, the next batch already waits in the
   * thread's own queue when it finishes one, so it starts without waiting for this thread to wake
   * up and send it (a hop that takes milliseconds on a loaded machine). Use more than 1 only when
   * every batch in hand should run soon anyway (a worker's prefetched batches).
   */
  readonly batchesPerThread?: number;
}

/** A batch waiting for or running on a thread, with the results it has so far. */
interface Pending {
  readonly task: ThreadTask;
  readonly results: (JobResult | undefined)[];
  readonly resolve: (o: BatchOutcome) => void;
  readonly listener: BatchListener;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Batches sent to the thread, oldest (running) first. */
  readonly tasks: Pending[];
}

/** Tells a batch's listener its job k started (a thread starts a job when the one before it ends). */
function started(p: Pending, k: number): void {
  if (k < p.task.items.length) p.listener.onStart?.(k);
}

/** Every job of a batch answered: the results so far, the rest as `why` (transient). */
function settle(p: Pending, why: string): BatchOutcome {
  return { results: p.task.items.map((it, k) => p.results[k] ?? errorResult(it.job, why, true)), timing: null };
}

/**
 * A pool of worker threads running research jobs in batches, one batch at a time on a thread, its
 * jobs back to back there (no hop through this thread between them); batches queue FIFO. Threads start lazily; one that dies is replaced and its batch's unfinished jobs are
 * answered with a transient error.
 * The TypeScript sources load through tsx's register API (execArgv does not reach threads on Node 20).
 */
export class JobPool {
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #seq = 0;
  #closed = false;

  constructor(private readonly opts: JobPoolOptions) {}

  /** Threads in the pool. */
  get threads(): number {
    return Math.max(1, this.opts.threads);
  }

  /** Runs a job on local copies of its data (`onStart` once a thread takes it); never rejects (failures are results). */
  async run(job: ResearchJob, paths: readonly string[], onStart?: () => void): Promise<JobResult> {
    const out = await this.runBatch([{ job, paths }], onStart ? { onStart } : {});
    return out.results[0]!;
  }

  /** Runs jobs one after the other on one thread; never rejects (failures are results). */
  runBatch(items: readonly PoolItem[], listener: BatchListener = {}): Promise<BatchOutcome> {
    const task: ThreadTask = { seq: ++this.#seq, items };
    const pending: Pending = { task, results: [], resolve: () => undefined, listener };
    if (this.#closed) return Promise.resolve(settle(pending, 'the job pool is closed'));
    return new Promise((resolve) => {
      this.#queue.push({ ...pending, resolve });
      this.#pump();
    });
  }

  /** Starts every thread and resolves once each has loaded its modules (a worker warms up before it takes jobs). */
  async warm(): Promise<void> {
    while (this.#slots.length < this.threads) this.#spawn();
    await Promise.all(this.#slots.map((s) => s.ready));
  }

  /** Stops every thread; queued jobs resolve as transient errors. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const q of this.#queue.splice(0)) q.resolve(settle(q, 'the job pool closed before the job ran'));
    await Promise.all(this.#slots.splice(0).map((s) => s.worker.terminate()));
  }

  #pump(): void {
    const depth = Math.max(1, this.opts.batchesPerThread ?? 1);
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => s.tasks.length === 0);
      if (!slot && this.#slots.length < this.threads) slot = this.#spawn();
      slot ??= this.#slots.filter((s) => s.tasks.length < depth).sort((a, b) => a.tasks.length - b.tasks.length)[0];
      if (!slot) return;
      const next = this.#queue.shift()!;
      slot.tasks.push(next);
      slot.worker.postMessage(next.task);
      if (slot.tasks.length === 1) started(next, 0);
    }
  }

  #spawn(): Slot {
    const url = new URL('./job-thread.ts', import.meta.url);
    const hooks = new URL('../../bin/register-ts.js', import.meta.url);
    const boot = `import(${JSON.stringify(hooks.href)}).then(() => import(${JSON.stringify(url.href)}));`;
    const worker = new Worker(boot, { eval: true, workerData: { cacheDir: this.opts.cacheDir, recordings: this.opts.recordingsPerThread ?? 2 } });
    let ready: () => void = () => undefined;
    const slot: Slot = { worker, tasks: [], ready: new Promise<void>((r) => (ready = r)) };
    worker.on('message', (m: ThreadReply | { readonly seq: 0; readonly ready: true }) => {
      if (!('kind' in m)) return ready();
      const t = slot.tasks[0]; // the thread runs its batches in the order sent
      if (!t || t.task.seq !== m.seq) return;
      if (m.kind === 'result') {
        t.results[m.k] = m.result;
        t.listener.onResult?.(m.k, m.result);
        return started(t, m.k + 1);
      }
      slot.tasks.shift();
      t.resolve({ ...settle(t, 'the thread did not answer'), timing: m.timing });
      if (slot.tasks[0]) started(slot.tasks[0], 0);
      this.#pump();
    });
    const die = (why: string): void => {
      ready();
      const i = this.#slots.indexOf(slot);
      if (i < 0) return;
      this.#slots.splice(i, 1);
      for (const t of slot.tasks.splice(0)) t.resolve(settle(t, `worker thread died: ${why}`));
      if (!this.#closed) this.#pump();
    };
    worker.on('error', (e) => die(e.message));
    worker.on('exit', (code) => die(`exit code ${code}`));
    this.#slots.push(slot);
    return slot;
  }
}
