import { applyDraw, type DrawContext, type EnsembleDraw } from '../backtest/ensemble-draws.ts';
import { drawFigures, ensembleSummary, pairedSummary, sensitivity, type DrawFigures, type EnsembleSummary, type PairedSummary, type Sensitivity } from '../backtest/ensemble-stats.ts';
import type { RunSpec } from '../backtest/run-spec.ts';
import type { EnsembleSection } from '../domain/backtest-section.ts';
import { makeJob, type JobResult, type ResearchJob } from './job.ts';
import type { JobRunner, ResultCallback } from './runner.ts';
import { WHOLE_DATA } from './windows.ts';

/** One config of an ensemble: its run spec and where its relative module paths resolve. */
export interface EnsembleLeg {
  /** As the user named it (--config / --vs). */
  readonly config: string;
  readonly spec: RunSpec;
  readonly baseDir: string | null;
  /** `strategyModuleHashes(spec, baseDir)`. */
  readonly modules: Readonly<Record<string, string>>;
}

/** What an ensemble runs: the draws, applied to each leg (leg 0 = --config, leg 1 = --vs). */
export interface EnsemblePlan {
  readonly draws: readonly EnsembleDraw[];
  /** jobs[leg][k]: draw k of that leg. */
  readonly jobs: readonly (readonly ResearchJob[])[];
}

/**
 * Plans an ensemble: draw k applied to every leg's settings (the same perturbations for each, so
 * differences are paired), one research job per (leg, draw), on the whole data (a draw's start
 * offset lives in its settings).
 */
export function planEnsemble(legs: readonly EnsembleLeg[], draws: readonly EnsembleDraw[], ctx: DrawContext, data: readonly string[], fingerprints: readonly string[], codeVersion?: string): EnsemblePlan {
  const jobs = legs.map((leg, l) =>
    draws.map((d) =>
      makeJob({
        index: l * draws.length + d.index,
        point: [['ensemble.draw', d.index]],
        window: WHOLE_DATA,
        data,
        fingerprints,
        spec: { ...leg.spec, settings: applyDraw(leg.spec.settings, d, ctx) },
        baseDir: leg.baseDir,
        modules: leg.modules,
        ...(codeVersion === undefined ? {} : { codeVersion }),
      }),
    ),
  );
  return { draws, jobs };
}

/** One config's side of ensemble.json. */
export interface EnsembleLegResult {
  readonly config: string;
  readonly summary: EnsembleSummary;
  readonly runs: readonly (DrawFigures & { readonly draw: EnsembleDraw })[];
  readonly sensitivity: readonly Sensitivity[];
}

/** ensemble.json: the first config's summary and runs, the second's under `vs`, the paired comparison. */
export interface EnsembleResult {
  readonly ensemble: { readonly seed: number; readonly draws: number; readonly data: readonly string[]; readonly perturbations: EnsembleSection };
  readonly summary: EnsembleSummary;
  readonly runs: EnsembleLegResult['runs'];
  readonly sensitivity: readonly Sensitivity[];
  readonly config: string;
  readonly vs?: EnsembleLegResult;
  readonly paired?: PairedSummary;
}

/** Runs an ensemble's jobs on a runner (worker threads or Redis workers) and builds its result. */
export async function runEnsemble(
  runner: JobRunner,
  legs: readonly EnsembleLeg[],
  plan: EnsemblePlan,
  meta: { readonly seed: number; readonly data: readonly string[]; readonly perturbations: EnsembleSection },
  onResult?: ResultCallback,
): Promise<EnsembleResult> {
  const results = await runner.run(plan.jobs.flat(), onResult);
  const side = (l: number): EnsembleLegResult => {
    const runs = plan.jobs[l]!.map((job, k) => ({ draw: plan.draws[k]!, ...drawFigures(resultOf(results, job).row) }));
    return { config: legs[l]!.config, summary: ensembleSummary(runs), runs, sensitivity: sensitivity(plan.draws, runs) };
  };
  const a = side(0);
  const base = { ensemble: { seed: meta.seed, draws: plan.draws.length, data: meta.data, perturbations: meta.perturbations }, config: a.config, summary: a.summary, runs: a.runs, sensitivity: a.sensitivity };
  if (legs.length < 2) return base;
  const b = side(1);
  return { ...base, vs: b, paired: pairedSummary(a.runs, b.runs) };
}

function resultOf(results: ReadonlyMap<string, JobResult>, job: ResearchJob): JobResult {
  const r = results.get(job.id);
  if (r) return r;
  // A runner answers every job; a missing one is reported as a failed draw rather than dropped.
  return { jobId: job.id, windowId: job.window.id, row: { index: job.index, point: job.point, net: 0, netWithRewards: 0, sharpe: NaN, maxDrawdown: 0, fills: 0, makerShare: 0, uptimeTwoSided: 0, insideRewardSpread: 0, markout60sBps: NaN, error: 'no result' }, durationS: 0, transient: true };
}

/** ensemble.json's text: numbers rounded to 6 decimals (NaN as null), keys in a fixed order, a final newline. */
export function ensembleJson(r: EnsembleResult): string {
  return `${JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' ? (Number.isFinite(v) ? Math.round(v * 1e6) / 1e6 : null) : v), 2)}\n`;
}
