import { buildReport } from '../backtest/report.ts';
import { executeRunSpec } from '../backtest/run-spec.ts';
import { MmError } from '../core/errors.ts';
import { loadColumnar, type ColumnarRecording } from '../record/columnar.ts';
import { errorResult, resultFromReport, type JobResult, type ResearchJob } from './job.ts';

/**
 * Decoded recordings by file list, least recently used evicted first: a thread serving jobs on
 * several data sets keeps the last few in memory instead of decoding on every switch.
 */
export class RecordingCache {
  readonly #entries = new Map<string, Promise<ColumnarRecording>>();

  constructor(
    private readonly capacity: number,
    private readonly cacheDir: string | null,
  ) {}

  /** The recording of `paths` (decoded, or read from the binary sidecar in cacheDir). */
  get(paths: readonly string[]): Promise<ColumnarRecording> {
    const key = paths.join('\n');
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const p = loadColumnar(paths, this.cacheDir === null ? {} : { cacheDir: this.cacheDir });
    p.catch(() => this.#entries.delete(key)); // a failed load is retried next time
    this.#entries.set(key, p);
    while (this.#entries.size > Math.max(1, this.capacity)) this.#entries.delete(this.#entries.keys().next().value!);
    return p;
  }
}

/**
 * Runs one job on local copies of its data (`paths`, in the job's data order). Never throws:
 * a failed backtest is a result with `row.error`; a recording that cannot be read here is a
 * transient one (another worker may have it), a malformed one is final.
 */
export async function executeJob(job: ResearchJob, paths: readonly string[], cache: RecordingCache): Promise<JobResult> {
  let data: ColumnarRecording;
  try {
    data = await cache.get(paths);
  } catch (e) {
    const final = e instanceof MmError && e.code === 'RECORDING_INVALID';
    return errorResult(job, e instanceof Error ? e.message : String(e), !final);
  }
  try {
    const run = await executeRunSpec(job.spec, data, job.baseDir ?? undefined);
    return resultFromReport(job, buildReport(run));
  } catch (e) {
    return errorResult(job, e instanceof Error ? e.message : String(e), false);
  }
}
