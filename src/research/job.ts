import { buildReport } from '../backtest/report.ts';
import type { RunSpec } from '../backtest/run-spec.ts';
import { sweepRow, type GridPoint, type SweepRow } from '../backtest/sweep.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';
import { codeVersion } from './code-version.ts';
import type { DataWindow } from './windows.ts';

export type { DataWindow } from './windows.ts';

/**
 * One backtest to run: a parameter point on a data window. Plain data (crosses worker threads,
 * Redis and sweep.json). `id` names it everywhere: equal ids mean equal results.
 */
export interface ResearchJob {
  /** sha256 of (spec, point, window bounds, data fingerprints, code version); see `jobId`. */
  readonly id: string;
  /** The point's position in its sweep (presentation only: not part of the id). */
  readonly index: number;
  readonly point: GridPoint;
  readonly window: DataWindow;
  /** Recordings as references: absolute paths or file:// / http(s):// URLs each worker resolves. */
  readonly data: readonly string[];
  /** Content fingerprints of `data`, in order (`dataFingerprint`); workers check theirs match. */
  readonly fingerprints: readonly string[];
  /** `codeVersion()` of the planner; a worker running other code refuses the job. */
  readonly codeVersion: string;
  /** Content hashes of strategies loaded from module paths (`strategyModuleHashes`); workers check theirs match. */
  readonly modules: Readonly<Record<string, string>>;
  /** The run, with `settings.startMs/endMs` narrowed to the window. */
  readonly spec: RunSpec;
  /** Where relative strategy module paths resolve (the config's folder); not part of the id. */
  readonly baseDir: string | null;
}

/** What `makeJob` needs: the point's spec after its overrides, and the data already fingerprinted. */
export interface JobInput {
  readonly index: number;
  readonly point: GridPoint;
  readonly window: DataWindow;
  readonly data: readonly string[];
  readonly fingerprints: readonly string[];
  readonly spec: RunSpec;
  readonly baseDir?: string | null;
  /** `strategyModuleHashes(spec, baseDir)`, computed by the planner (default: none, every strategy a built-in). */
  readonly modules?: Readonly<Record<string, string>>;
  /** Defaults to this process's `codeVersion()`. */
  readonly codeVersion?: string;
}

/**
 * The id of a job: sha256 over a canonical JSON of what decides its result (never labels or paths):
 * the spec, the point, the window bounds, the data's fingerprints, the code version and the content
 * of strategies loaded from module paths.
 */
export function jobId(spec: RunSpec, point: GridPoint, window: DataWindow, fingerprints: readonly string[], version: string, modules: Readonly<Record<string, string>> = {}): string {
  const what: Record<string, unknown> = { kind: 'mmbot-research-job', v: 1, spec, point, window: [window.startMs, window.endMs], data: fingerprints, code: version };
  if (Object.keys(modules).length > 0) what['modules'] = modules; // built-in strategies only: the ids stay what they were
  return sha256Hex(canonicalJson(what));
}

/**
 * Builds a job: narrows the spec's replay to the window (a null bound keeps the config's own
 * `backtest.start_ms` / `end_ms`) and computes its id.
 */
export function makeJob(input: JobInput): ResearchJob {
  const s = input.spec.settings;
  const spec: RunSpec = { ...input.spec, settings: { ...s, startMs: input.window.startMs ?? s.startMs, endMs: input.window.endMs ?? s.endMs } };
  const version = input.codeVersion ?? codeVersion();
  const modules = input.modules ?? {};
  return {
    id: jobId(spec, input.point, input.window, input.fingerprints, version, modules),
    index: input.index,
    point: input.point,
    window: input.window,
    data: input.data,
    fingerprints: input.fingerprints,
    codeVersion: version,
    modules,
    spec,
    baseDir: input.baseDir ?? null,
  };
}

/** A job's outcome: the sweep row of its report, or an error. */
export interface JobResult {
  readonly jobId: string;
  readonly windowId: string;
  /** The figures; `row.index` / `row.point` are the job's. `row.error` is set when it failed. */
  readonly row: SweepRow;
  /** Seconds of market the job replayed (0 when it failed). */
  readonly durationS: number;
  /**
   * True when the failure came from the infrastructure (code version, unreachable data, a crashed
   * worker) rather than the backtest: such results are reported but never stored or journaled,
   * so a resumed sweep runs the job again. False for every completed backtest, errors included.
   */
  readonly transient: boolean;
}

/** The result of a finished run. */
export function resultFromReport(job: ResearchJob, report: ReturnType<typeof buildReport>): JobResult {
  return { jobId: job.id, windowId: job.window.id, row: sweepRow(job.index, job.point, report), durationS: report.window.duration_s, transient: false };
}

/** A failed job's result (`transient`: see JobResult). */
export function errorResult(job: ResearchJob, message: string, transient: boolean): JobResult {
  const row: SweepRow = { index: job.index, point: job.point, net: 0, netWithRewards: 0, sharpe: 0, maxDrawdown: 0, fills: 0, makerShare: 0, uptimeTwoSided: 0, insideRewardSpread: 0, markout60sBps: NaN, error: message };
  return { jobId: job.id, windowId: job.window.id, row, durationS: 0, transient };
}

/** A stored result re-labelled with this plan's job (a shared result store may hold it from another sweep with other indices). */
export const relabel = (job: ResearchJob, r: JobResult): JobResult => ({ ...r, jobId: job.id, windowId: job.window.id, row: { ...r.row, index: job.index, point: job.point } });
