import { resolveDataRef } from './data-ref.ts';
import { errorResult, relabel, type JobResult, type ResearchJob } from './job.ts';
import { JobPool } from './job-pool.ts';
import { distinctJobs, type JobRunner, type ResultCallback } from './runner.ts';

/** Options of the embedded (single machine, worker threads) runner. */
export interface EmbeddedRunnerOptions {
  /** Worker threads. */
  readonly workers: number;
  /** Decoded-recording sidecars and downloaded data (null: no sidecars; downloads need a folder). */
  readonly cacheDir: string | null;
  /** Where http(s) data is downloaded when cacheDir is null. */
  readonly downloadDir?: string;
  /** Threads started earlier (`startPool`), e.g. while the sweep was planned; the runner closes it. */
  readonly pool?: JobPool;
}

/**
 * A job pool whose threads start now: each loads its modules (through tsx: a second or more of CPU)
 * while the caller does other work, e.g. plans the sweep, instead of after it. Close it when unused.
 */
export function startPool(workers: number, cacheDir: string | null): JobPool {
  const pool = new JobPool({ threads: workers, cacheDir });
  void pool.warm();
  return pool;
}

/**
 * Runs jobs on this machine's worker threads: the default backend, no Redis needed. Jobs on the
 * same data are handed out together, so each thread decodes a data set once.
 */
export function embeddedRunner(opts: EmbeddedRunnerOptions): JobRunner {
  const pool = opts.pool ?? new JobPool({ threads: opts.workers, cacheDir: opts.cacheDir });
  const downloads = opts.cacheDir ?? opts.downloadDir ?? '.';
  return {
    async run(jobs: readonly ResearchJob[], onResult?: ResultCallback): Promise<Map<string, JobResult>> {
      const todo = distinctJobs(jobs).sort((a, b) => (a.fingerprints.join() < b.fingerprints.join() ? -1 : a.fingerprints.join() > b.fingerprints.join() ? 1 : 0));
      const results = new Map<string, JobResult>();
      const resolved = new Map<string, Promise<string>>();
      const local = (ref: string): Promise<string> => {
        let p = resolved.get(ref);
        if (!p) resolved.set(ref, (p = resolveDataRef(ref, downloads)));
        return p;
      };
      await Promise.all(
        todo.map(async (job) => {
          let r: JobResult;
          try {
            r = await pool.run(job, await Promise.all(job.data.map(local)));
          } catch (e) {
            r = errorResult(job, e instanceof Error ? e.message : String(e), true);
          }
          results.set(job.id, relabel(job, r));
          onResult?.(results.get(job.id)!, results.size, todo.length);
        }),
      );
      return results;
    },
    close: () => pool.close(),
  };
}
