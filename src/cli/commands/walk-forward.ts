import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import type { GridPoint } from '../../backtest/sweep.ts';
import { formatDurationMs, parseDurationMs } from '../../research/duration.ts';
import { dataFingerprint } from '../../research/fingerprint.ts';
import { heatAxes } from '../../research/heatmap.ts';
import { makeJob } from '../../research/job.ts';
import { strategyModuleHashes } from '../../research/strategy-modules.ts';
import { writeLeaderboard } from '../../research/leaderboard-files.ts';
import { buildLeaderboard, floorOf } from '../../research/leaderboard.ts';
import { parseDrawdownFloor, parseObjective } from '../../research/objective.ts';
import { pairRunner, type JobFactory } from '../../research/pair-runner.ts';
import { candidatePoints, loadSearchFile } from '../../research/search-file.ts';
import { planFolds, runWalkForward, summarise, trainPlans, unscoredTailMs } from '../../research/walk-forward.ts';
import { walkForwardCsv, walkForwardHtml, walkForwardJson, walkForwardTable } from '../../research/walk-forward-report.ts';
import { dataSpan, type DataSpan } from '../../research/windows.ts';
import { normalizeDataRef, resolveDataRef } from '../../research/data-ref.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { journaledRunner, openRunner } from '../research-runner.ts';
import { onStopSignal, signalExitCode } from '../stop-signal.ts';
import { overfittingLine } from '../../research/selection-overfitting.ts';
import { Journal } from '../../research/journal.ts';
import { claimOutDir, WALK_FORWARD_FILE } from '../../research/out-dir.ts';
import { parseResultsTtl } from '../../research/result-store.ts';
import { DEFAULT_QUEUE, parseBackend } from '../../research/redis-backend.ts';
import { loadBacktestSetup, replayCacheDir, type BacktestSetup } from './backtest.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { drawContextOf } from '../../backtest/ensemble-draws.ts';
import { loadColumnar } from '../../record/columnar.ts';
import { ensembleObjectiveRunner, withEnsembleId, type EnsembleObjective } from '../../research/ensemble-objective.ts';
import type { JobRunner } from '../../research/runner.ts';
import { dataFacts } from '../backtest-ensemble.ts';

/** Candidates with their validated setups, the data and a job factory: what every search needs before it runs. */
export interface PreparedSearch {
  readonly points: readonly GridPoint[];
  readonly setups: readonly BacktestSetup[];
  /** Data references as jobs carry them (absolute paths or URLs). */
  readonly data: readonly string[];
  /** The data's span, narrowed by the config's backtest.start_ms / end_ms. */
  readonly span: DataSpan;
  readonly make: JobFactory;
  /** The runner the search runs on: `inner` itself, or with `ensemble:` each job scored by its draws. */
  readonly scoring: (inner: JobRunner) => JobRunner;
}

/**
 * Loads the config once per candidate (so a bad value fails before anything runs, with the config's
 * own error and the point named), resolves the data (--data paths or URLs, else backtest.data;
 * URLs downloaded once into the cache), fingerprints it and reads its span.
 * @throws MmError USAGE when there is no recording; the config's errors naming the grid point.
 */
export async function prepareSearch(configFile: string, points: readonly GridPoint[], dataFlags: readonly string[], cacheDir: string, ensemble: EnsembleObjective | null = null): Promise<PreparedSearch> {
  const setups: BacktestSetup[] = [];
  for (const [index, point] of points.entries()) {
    try {
      setups.push(await loadBacktestSetup(configFile, point));
    } catch (e) {
      if (!(e instanceof MmError)) throw e;
      // An error the config has without any grid value (a missing file, bad YAML...) is the
      // config's own: naming a grid point would send the user looking in the wrong place.
      const plain = await loadBacktestSetup(configFile).then(
        () => null,
        (b: unknown) => b,
      );
      if (plain instanceof MmError && plain.message === e.message) throw e;
      const where = point.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
      throw new MmError(e.code, `grid point ${index + 1} (${where}): ${e.message}`, { ...e.details });
    }
  }
  const base = setups[0]!;
  const data = (dataFlags.length > 0 ? dataFlags : base.dataPaths).map(normalizeDataRef);
  if (data.length === 0) throw new MmError('USAGE', `no recording: pass --data or set backtest.data in ${configFile}`);
  const local = await Promise.all(data.map((ref) => resolveDataRef(ref, cacheDir)));
  const fingerprints = await Promise.all(local.map((p) => dataFingerprint(p, cacheDir)));
  const full = await dataSpan(local, cacheDir);
  const s = base.spec.settings;
  const span = { startMs: Math.max(full.startMs, s.startMs ?? -Infinity), endMs: Math.min(full.endMs, s.endMs ?? Infinity) };
  const baseDir = base.config.source.dir;
  const modules = await Promise.all(setups.map((s) => strategyModuleHashes(s.spec, baseDir)));
  const plain: JobFactory = (point, index, window) => makeJob({ index, point, window, data, fingerprints, spec: setups[index]!.spec, baseDir, modules: modules[index]! });
  if (ensemble === null) return { points, setups, data, span, make: plain, scoring: (inner) => inner };
  // An ensemble objective: the recording is decoded once here (what the draws need to know about it;
  // its sidecar then serves the worker threads), every job scored by its draws under its own id.
  const facts = dataFacts(await loadColumnar(local, { cacheDir }));
  const perturbations = base.section.ensemble;
  const make: JobFactory = (point, index, window) => withEnsembleId(plain(point, index, window), ensemble, perturbations);
  return { points, setups, data, span, make, scoring: (inner) => ensembleObjectiveRunner(inner, ensemble, perturbations, (job) => drawContextOf(job.spec.settings, facts)) };
}

const usage = `usage: mmbot walk-forward --config <file> --grid <grid.yaml> --train <dur> --test <dur> [--step <dur>] [--anchored] [--partial-fold]
                          [--data <path|url>]... [--objective <name>] [--drawdown-floor <usd>] [--top-k <n>] [--backend embedded|redis://host:port]
                          [--workers <n>] [--queue <name>] [--results-ttl <dur>|never] [--out <dir> [--force]] [--heatmap x,y]

Walk-forward validation: for each fold, runs every grid point on a train window, chooses the best by
the objective, and scores that choice on the next, unseen test window; then rolls forward by --step
(default: --test). Every point is also scored on each test window, so the report shows the chosen
point's out-of-sample rank and the best out-of-sample point. Prints in-sample vs out-of-sample per
fold and a summary (means, walk-forward efficiency, how often the choice stayed in the top k).
  --train, --test, --step  durations: 90s, 2m, 1h30m, 500ms
  --anchored     every train window starts with the data (expanding) instead of rolling
  --partial-fold score the data left after the last whole test window (shorter than --test, at least
                 1s) as a final, shorter fold flagged "partial"; without it that stretch is not scored,
                 and the report says how long it is
  --grid         a grid file: search: grid or random (every candidate on each train window) or halving
                 (successive halving inside each train window: rungs from its start, eta, rungs/min_window);
                 objective: from it unless --objective
  --objective    pnl_over_drawdown (default) | net | net_with_rewards | sharpe | max_drawdown | fills | uptime | markout_60s
  --drawdown-floor  USD: pnl_over_drawdown divides by max(drawdown, this) (default: the grid file's
                 drawdown_floor_usd, else 0.01)
  --top-k        report how often the chosen point ranked within the top k out of sample (default 3)
  --backend      embedded (default): worker threads here (--workers, default cores - 1); redis://host:port:
                 jobs for \`mmbot worker --backend …\` processes (--queue <name>, default ${DEFAULT_QUEUE}); one batch
                 for every train window, then one for every test window; --results-ttl as for mmbot sweep
  --data         recordings: paths, file:// or http(s):// URLs; default backtest.data
  --out          output folder (default: a new folder under backtest.out_dir); a walk-forward's folder again
                 reuses its journal; a sweep's folder is refused (exit 2, OUTPUT_IN_USE) unless --force,
                 which deletes that sweep's plan, journal and reports first
  --heatmap x,y  parameters of the out-of-sample leaderboard's heat map (default: the first two axes)
  --workers      embedded backend: worker threads (default cores - 1)
Writes walk-forward.{json,csv,html}, oos-leaderboard.{csv,json,html} (every point over all test windows)
and results.jsonl (every run by job id: the same --out again runs only the jobs it lacks). Ctrl-C (or
SIGTERM) stops with every run so far journaled and prints how to continue. Exit codes: 0 every fold
scored; 1 a fold could not be scored (no train run succeeded, or the chosen point failed its test) or
the backend or data was unreachable; 2 bad input (flags, durations, grid, config); 130 interrupted.`;

/** `mmbot walk-forward`. */
export const command: Command = {
  summary: COMMAND_SUMMARIES['walk-forward'],
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'grid', 'train', 'test', 'step', 'objective', 'top-k', 'workers', 'out', 'heatmap', 'backend', 'queue', 'results-ttl', 'drawdown-floor'], boolean: ['anchored', 'force', 'partial-fold'], repeated: ['data'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const file = flagString(p, 'config');
    const gridFile = flagString(p, 'grid');
    if (!file || !gridFile) throw new MmError('USAGE', '--config and --grid are required');
    const trainFlag = flagString(p, 'train');
    const testFlag = flagString(p, 'test');
    if (!trainFlag || !testFlag) throw new MmError('USAGE', '--train and --test are required (durations like 2m, 90s)');
    const trainMs = parseDurationMs(trainFlag, '--train');
    const testMs = parseDurationMs(testFlag, '--test');
    const stepFlag = flagString(p, 'step');
    const stepMs = stepFlag === undefined ? testMs : parseDurationMs(stepFlag, '--step');
    const anchored = p.flags.has('anchored');
    const backend = flagString(p, 'backend') ?? 'embedded';
    parseBackend(backend); // a bad URL fails before any planning
    const grid = loadSearchFile(gridFile);
    const objFlag = flagString(p, 'objective');
    const objective = objFlag === undefined ? grid.objective : parseObjective(objFlag, '--objective', 'USAGE');
    const topK = flagInt(p, 'top-k', 1, 1_000_000) ?? 3;
    const floorFlag = flagString(p, 'drawdown-floor');
    const floor = floorFlag === undefined ? grid.drawdownFloorUsd : parseDrawdownFloor(floorFlag, '--drawdown-floor', 'USAGE');
    const points = candidatePoints(grid);
    const heat = heatAxes(points[0]?.map(([k]) => k) ?? [], flagString(p, 'heatmap'));
    const cacheDir = replayCacheDir();
    const prep = await prepareSearch(file, points, p.lists.get('data') ?? [], cacheDir, grid.ensemble);
    const span = prep.span;
    const partialLast = p.flags.has('partial-fold');
    const folds = planFolds(span, { trainMs, testMs, stepMs, anchored, partialLast });
    const unscored = unscoredTailMs(span, folds);
    const partialFoldFits = !partialLast && planFolds(span, { trainMs, testMs, stepMs, anchored, partialLast: true }).length > folds.length;
    const halving = grid.search === 'halving' ? { eta: grid.eta, minWindowMs: grid.minWindowMs, rungsMs: grid.rungsMs, where: gridFile } : null;
    // Plans every fold's rungs now, so a rung longer than a train window fails before anything runs.
    // Anchored train windows grow, and so may their rungs: every distinct set is named.
    const rungLengths = halving ? [...new Set(trainPlans(folds, points.length, halving).map((plan) => plan.map((r) => formatDurationMs(r.lengthMs)).join(', ')))] : null;
    const trainSearch = halving && rungLengths ? `successive halving (eta ${halving.eta}) on rungs of ${rungLengths.join(' / ')} from each train window's start` : undefined;
    const ttlFlag = flagString(p, 'results-ttl');
    const resultsTtlS = ttlFlag === undefined ? undefined : parseResultsTtl(ttlFlag);
    const workers = flagInt(p, 'workers', 1, 256) ?? Math.max(1, availableParallelism() - 1);
    const outFlag = flagString(p, 'out');
    const out = outFlag ? resolve(outFlag) : join(resolve(prep.setups[0]!.section.out_dir), `walk-forward-${Date.now()}`);
    // A sweep's folder is refused before anything runs: its journal must not mix with ours (a
    // walk-forward's own folder is reused: the same --out again runs only what its journal lacks).
    const replaced = claimOutDir(out, null, p.flags.has('force'), 'this walk-forward');
    process.stderr.write(`walk-forward: ${points.length} point(s) × ${folds.length} fold(s) (train ${formatDurationMs(trainMs)}, test ${formatDurationMs(testMs)}, step ${formatDurationMs(stepMs)}${anchored ? ', anchored' : ''}${folds.at(-1)?.partial ? ', the last fold partial' : ''}): ${trainSearch ? `train by ${trainSearch}` : `${points.length * folds.length} train runs`} + ${points.length * folds.length} test runs`);
    let opened;
    try {
      opened = await openRunner(backend, { workers, cacheDir, queue: flagString(p, 'queue') ?? DEFAULT_QUEUE, label: 'walk-forward', ...(resultsTtlS === undefined ? {} : { resultsTtlS }) });
    } catch (e) {
      process.stderr.write('\n'); // ends the line above, so the error gets its own
      throw e;
    }
    const { runner: inner, where } = opened;
    // Results are journaled by job id in the output folder: the same --out again (after a crash,
    // or with more points or folds) runs only the jobs it lacks.
    const journal = new Journal(out);
    const runner = journaledRunner(prep.scoring(inner), journal);
    process.stderr.write(` on ${where}${journal.done.size > 0 ? `; ${journal.done.size} result(s) already in ${journal.file}` : ''}\n`);
    if (replaced !== null) process.stderr.write(`walk-forward: --force: replaced ${replaced} in ${out}\n`);
    // Ctrl-C / SIGTERM: every run so far is journaled (appended synchronously as it arrives): say
    // how to go on and stop. A second signal kills as usual.
    const offSignal = onStopSignal((signal) => {
      process.stderr.write(`walk-forward: ${signal}: stopped with ${journal.done.size} run(s) in ${journal.file}\nwalk-forward: continue with the same command and --out ${out} (it runs only the jobs the journal lacks)\n`);
      process.exit(signalExitCode(signal));
    });
    let results;
    try {
      const run = pairRunner(runner, points, prep.make, (phase, r, done, total) => {
        if (done === total || r.row.error) process.stderr.write(`  ${phase}: ${done}/${total}${r.row.error ? ` (${r.windowId} point ${r.row.index + 1} failed: ${r.row.error})` : ''}\n`);
      });
      results = await runWalkForward(points, folds, objective, run, halving, floor);
    } finally {
      offSignal();
      await runner.close();
    }
    const summary = summarise(results, topK);
    const meta = { objective, dataStartMs: span.startMs, trainMs, testMs, stepMs, anchored, points: points.length, unscoredTailMs: unscored, partialFoldFits, ...floorOf(objective, floor), command: `mmbot walk-forward ${args.join(' ')}`, ...(trainSearch ? { trainSearch } : {}) };
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, WALK_FORWARD_FILE), walkForwardJson(results, summary, meta));
    writeFileSync(join(out, 'walk-forward.csv'), walkForwardCsv(results, meta));
    writeFileSync(join(out, 'walk-forward.html'), walkForwardHtml(results, summary, meta));
    // Every point over all test windows: which parameters did best out of sample overall.
    const oos = buildLeaderboard(points, results.flatMap((r) => r.test.entries.map((e) => ({ point: e.point, windowId: r.fold.test.id, metrics: e.metrics }))), objective, floor);
    writeLeaderboard(out, oos, { title: 'mmbot walk-forward: out-of-sample leaderboard', heatmap: heat, notes: ['Every grid point scored on every test window of the walk-forward (all out of sample).'] }, 'oos-leaderboard');
    // Picking the best of the grid over the test windows: how much of that pick is the search itself.
    process.stdout.write(`${walkForwardTable(results, summary, meta)}\n${overfittingLine(oos)} (over the test windows)\nreport: ${join(out, 'walk-forward.html')}\n`);
    return summary.scored === folds.length ? 0 : 1;
  },
};
