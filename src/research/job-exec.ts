import { statSync } from 'node:fs';
import { buildReport } from '../backtest/report.ts';
import { runSpecStrategies, runSpecOnStrategies } from '../backtest/run-spec.ts';
import { MmError } from '../core/errors.ts';
import { loadColumnar, type ColumnarRecording } from '../record/columnar.ts';
import { errorResult, resultFromReport, type JobResult, type ResearchJob } from './job.ts';

/**
 * The identity of a file list's current contents: each path with its size and modification time, so
 * a recording rewritten in place (same path) is a different key and is read again. A file that cannot
 * be stat'ed keys as missing (the load then reports it).
 */
export function recordingKey(paths: readonly string[]): string {
  return paths
    .map((p) => {
      try {
        const st = statSync(p);
        return `${p}\0${st.size}\0${st.mtimeMs}`;
      } catch {
        return `${p}\0missing`;
      }
    })
    .join('\n');
}

/**
 * Decoded recordings by file list and the files' sizes and modification times, least recently used
 * evicted first: a thread serving jobs on several data sets keeps the last few in memory across jobs
 * instead of loading them for every job, and a file changed since it was loaded is loaded again.
 */
export class RecordingCache {
  readonly #entries = new Map<string, Promise<ColumnarRecording>>();
  #loads = 0;

  constructor(
    private readonly capacity: number,
    private readonly cacheDir: string | null,
  ) {}

  /** Recordings loaded so far (cache misses). */
  get loads(): number {
    return this.#loads;
  }

  /** The recording of `paths` as the files are now (kept from an earlier job, or decoded / read from the binary sidecar in cacheDir). */
  get(paths: readonly string[]): Promise<ColumnarRecording> {
    const key = recordingKey(paths);
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    this.#loads++;
    const p = loadColumnar(paths, this.cacheDir === null ? {} : { cacheDir: this.cacheDir });
    p.catch(() => this.#entries.delete(key)); // a failed load is retried next time
    this.#entries.set(key, p);
    while (this.#entries.size > Math.max(1, this.capacity)) this.#entries.delete(this.#entries.keys().next().value!);
    return p;
  }
}

/** Where one job's time went in its thread, ms of wall time (the thread runs one job at a time, so ≈ its CPU). */
export interface JobTiming {
  /** Getting the decoded recording (≈0 when the thread kept it from an earlier job). */
  loadMs: number;
  /** Loading the strategies and parsing their parameters. */
  setupMs: number;
  /** The backtest: engine construction and the replay. */
  replayMs: number;
  /** The report and the sweep row built from it. */
  reportMs: number;
}

/** A clock for `executeJob`'s timing, ms (monotonic). */
export type MsClock = () => number;

/**
 * Runs one job on local copies of its data (`paths`, in the job's data order). Never throws:
 * a failed backtest is a result with `row.error`; a recording that cannot be read here is a
 * transient one (another worker may have it), a malformed one is final. With `timing` and `clock`,
 * adds where the job's time went to `timing`.
 */
export async function executeJob(job: ResearchJob, paths: readonly string[], cache: RecordingCache, timing?: JobTiming, clock?: MsClock): Promise<JobResult> {
  const now = clock ?? ((): number => 0);
  const t0 = now();
  let data: ColumnarRecording;
  try {
    data = await cache.get(paths);
  } catch (e) {
    const final = e instanceof MmError && e.code === 'RECORDING_INVALID';
    return errorResult(job, e instanceof Error ? e.message : String(e), !final);
  }
  const t1 = now();
  try {
    const strategies = await runSpecStrategies(job.spec, job.baseDir ?? undefined);
    const t2 = now();
    const run = await runSpecOnStrategies(job.spec, data, strategies);
    const t3 = now();
    const result = resultFromReport(job, buildReport(run));
    if (timing) {
      timing.loadMs += t1 - t0;
      timing.setupMs += t2 - t1;
      timing.replayMs += t3 - t2;
      timing.reportMs += now() - t3;
    }
    return result;
  } catch (e) {
    return errorResult(job, e instanceof Error ? e.message : String(e), false);
  }
}
