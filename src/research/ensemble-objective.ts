import { MmError } from '../core/errors.ts';
import { applyDraw, ensembleDraws, type DrawContext } from '../backtest/ensemble-draws.ts';
import { quantile } from '../backtest/ensemble-stats.ts';
import type { SweepRow } from '../backtest/sweep.ts';
import type { EnsembleSection } from '../domain/backtest-section.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';
import { jobId, type JobResult, type ResearchJob } from './job.ts';
import type { JobRunner } from './runner.ts';

/** Statistics a search can score each run's ensemble by. */
export const ENSEMBLE_STATISTICS = ['p5', 'p25', 'p50', 'mean'] as const;
/** An ensemble statistic. */
export type EnsembleStatistic = (typeof ENSEMBLE_STATISTICS)[number];

/** A grid file's `ensemble:`: each (point, window) runs `draws` perturbed draws, scored by `statistic`. */
export interface EnsembleObjective {
  readonly draws: number;
  readonly statistic: EnsembleStatistic;
  readonly seed: number;
}

/**
 * Parses a grid file's `ensemble: { draws: N, statistic: p5 | p25 | p50 | mean, seed }`.
 * @throws MmError CONFIG_INVALID naming the file and key.
 */
export function parseEnsembleObjective(v: unknown, file: string): EnsembleObjective {
  const bad = (path: string, why: string): MmError => new MmError('CONFIG_INVALID', `${file}: ensemble${path}: ${why}, got ${JSON.stringify(v)}`, { file, path: `ensemble${path}` });
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('', 'expected { draws: <n ≥ 2>, statistic: p5 | p25 | p50 | mean, seed: <n> }');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['draws', 'statistic', 'seed'].includes(k)) throw bad(`.${k}`, 'unknown key (expected draws, statistic, seed)');
  const draws = o['draws'];
  if (typeof draws !== 'number' || !Number.isInteger(draws) || draws < 2 || draws > 1000) throw bad('.draws', 'expected an integer in [2, 1000]');
  const statistic = o['statistic'] ?? 'p5';
  if (!(ENSEMBLE_STATISTICS as readonly unknown[]).includes(statistic)) throw bad('.statistic', `expected one of ${ENSEMBLE_STATISTICS.join(', ')}`);
  const seed = o['seed'] ?? 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0) throw bad('.seed', 'expected an integer >= 0');
  return { draws, statistic: statistic as EnsembleStatistic, seed };
}

/**
 * The figure of a run's draws the objective reads: the statistic of each figure where higher is
 * better (p5: the value 95 % of draws beat, a robust reading), and its mirror for the drawdown (p5
 * → the p95 drawdown). A failed draw fails the run (its robustness is unknown).
 */
export function ensembleRow(rows: readonly SweepRow[], stat: EnsembleStatistic): SweepRow {
  const failed = rows.find((r) => r.error !== null);
  if (failed) return failed;
  const q = stat === 'p5' ? 0.05 : stat === 'p25' ? 0.25 : stat === 'p50' ? 0.5 : NaN;
  const of = (f: (r: SweepRow) => number | undefined, worseHigh = false): number => {
    const xs = rows.map(f).filter((x): x is number => x !== undefined && !Number.isNaN(x));
    if (xs.length === 0) return NaN;
    if (Number.isNaN(q)) return xs.reduce((a, b) => a + b, 0) / xs.length;
    return quantile([...xs].sort((a, b) => a - b), worseHigh ? 1 - q : q);
  };
  const r0 = rows[0]!;
  return {
    index: r0.index,
    point: r0.point,
    net: of((r) => r.net),
    netWithRewards: of((r) => r.netWithRewards),
    sharpe: of((r) => r.sharpe),
    maxDrawdown: of((r) => r.maxDrawdown, true),
    fills: of((r) => r.fills),
    makerShare: of((r) => r.makerShare),
    uptimeTwoSided: of((r) => r.uptimeTwoSided),
    insideRewardSpread: of((r) => r.insideRewardSpread),
    markout60sBps: of((r) => r.markout60sBps),
    markout10sBps: of((r) => r.markout10sBps),
    notionalUsd: of((r) => r.notionalUsd),
    error: null,
  };
}

/** A job's id with the ensemble folded in: a journal or store never mixes ensemble-scored and plain results. */
export function withEnsembleId(job: ResearchJob, ens: EnsembleObjective, perturbations: EnsembleSection): ResearchJob {
  return { ...job, id: sha256Hex(canonicalJson({ kind: 'mmbot-ensemble-job', v: 1, job: job.id, ensemble: ens, perturbations })) };
}

/**
 * A JobRunner scoring each job by an ensemble: every job runs as `ens.draws` perturbed draws (the
 * base config's `backtest.ensemble`; draw k the same for every point, so points compare on the same
 * draws) on `inner`, and its result is `ensembleRow` of them under the job's own id.
 */
export function ensembleObjectiveRunner(inner: JobRunner, ens: EnsembleObjective, perturbations: EnsembleSection, ctxOf: (job: ResearchJob) => DrawContext): JobRunner {
  return {
    async run(jobs, onResult) {
      const expanded = jobs.map((job) => {
        const ctx = ctxOf(job);
        return ensembleDraws(perturbations, ens.seed, ens.draws, ctx, job.spec.settings).map((d) => {
          const spec = { ...job.spec, settings: applyDraw(job.spec.settings, d, ctx) };
          return { ...job, spec, id: jobId(spec, job.point, job.window, job.fingerprints, job.codeVersion, job.modules) };
        });
      });
      const inner$ = await inner.run(expanded.flat());
      const out = new Map<string, JobResult>();
      jobs.forEach((job, k) => {
        const results = expanded[k]!.map((d) => inner$.get(d.id));
        const missing = results.findIndex((r) => r === undefined);
        const rows = results.map((r, i) => r?.row ?? { ...ensembleRowOfMissing(job), error: `draw ${i} has no result` });
        const transient = results.some((r) => r === undefined || r.transient);
        const r: JobResult = { jobId: job.id, windowId: job.window.id, row: { ...ensembleRow(rows, ens.statistic), index: job.index, point: job.point }, durationS: results[0]?.durationS ?? 0, transient: transient || missing >= 0 };
        out.set(job.id, r);
        onResult?.(r, out.size, jobs.length);
      });
      return out;
    },
    close: () => inner.close(),
  };
}

const ensembleRowOfMissing = (job: ResearchJob): SweepRow => ({ index: job.index, point: job.point, net: 0, netWithRewards: 0, sharpe: NaN, maxDrawdown: 0, fills: 0, makerShare: 0, uptimeTwoSided: 0, insideRewardSpread: 0, markout60sBps: NaN, error: 'no result' });
