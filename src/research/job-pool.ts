import { Worker } from 'node:worker_threads';
import { errorResult, type JobResult, type ResearchJob } from './job.ts';

/** A job sent to a thread with the local paths of its data. */
export interface ThreadTask {
  readonly seq: number;
  readonly job: ResearchJob;
  readonly paths: readonly string[];
}

/** A thread's answer. */
export interface ThreadReply {
  readonly seq: number;
  readonly result: JobResult;
}

/** Options of a JobPool. */
export interface JobPoolOptions {
  /** Worker threads (backtests are CPU-bound: one per core to spare). */
  readonly threads: number;
  /** Where decoded recordings are cached as binary sidecars (null: decode every time). */
  readonly cacheDir: string | null;
  /** Decoded data sets each thread keeps in memory (LRU; default 2). */
  readonly recordingsPerThread?: number;
}

/** A job waiting for or running on a thread. */
interface Pending {
  readonly task: ThreadTask;
  readonly resolve: (r: JobResult) => void;
  readonly onStart: (() => void) | undefined;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  task: Pending | null;
}

/**
 * A pool of worker threads running research jobs, at most one per thread at a time; jobs queue
 * FIFO. Threads start lazily; one that dies is replaced and its job answered with a transient error.
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
  run(job: ResearchJob, paths: readonly string[], onStart?: () => void): Promise<JobResult> {
    if (this.#closed) return Promise.resolve(errorResult(job, 'the job pool is closed', true));
    return new Promise((resolve) => {
      this.#queue.push({ task: { seq: ++this.#seq, job, paths }, resolve, onStart });
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
    for (const q of this.#queue.splice(0)) q.resolve(errorResult(q.task.job, 'the job pool closed before the job ran', true));
    await Promise.all(this.#slots.splice(0).map((s) => s.worker.terminate()));
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => s.task === null);
      if (!slot && this.#slots.length < this.threads) slot = this.#spawn();
      if (!slot) return;
      const next = this.#queue.shift()!;
      slot.task = next;
      slot.worker.postMessage(next.task);
      next.onStart?.();
    }
  }

  #spawn(): Slot {
    const url = new URL('./job-thread.ts', import.meta.url);
    const hooks = new URL('../../bin/register-ts.js', import.meta.url);
    const boot = `import(${JSON.stringify(hooks.href)}).then(() => import(${JSON.stringify(url.href)}));`;
    const worker = new Worker(boot, { eval: true, workerData: { cacheDir: this.opts.cacheDir, recordings: this.opts.recordingsPerThread ?? 2 } });
    let ready: () => void = () => undefined;
    const slot: Slot = { worker, task: null, ready: new Promise<void>((r) => (ready = r)) };
    worker.on('message', (m: ThreadReply | { readonly seq: 0; readonly ready: true }) => {
      if (!('result' in m)) return ready();
      const t = slot.task;
      if (!t || t.task.seq !== m.seq) return;
      slot.task = null;
      t.resolve(m.result);
      this.#pump();
    });
    const die = (why: string): void => {
      ready();
      const i = this.#slots.indexOf(slot);
      if (i < 0) return;
      this.#slots.splice(i, 1);
      const t = slot.task;
      slot.task = null;
      if (t) t.resolve(errorResult(t.task.job, `worker thread died: ${why}`, true));
      if (!this.#closed) this.#pump();
    };
    worker.on('error', (e) => die(e.message));
    worker.on('exit', (code) => die(`exit code ${code}`));
    this.#slots.push(slot);
    return slot;
  }
}
