import { availableParallelism } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { drawContextOf, ensembleDraws, type DataFacts } from '../backtest/ensemble-draws.ts';
import type { Dist } from '../backtest/ensemble-stats.ts';
import { recordedLatency } from '../backtest/latency-model.ts';
import { MmError } from '../core/errors.ts';
import { loadColumnar, type ColumnarRecording } from '../record/columnar.ts';
import { ensembleHtml } from '../research/ensemble-html.ts';
import { ensembleJson, planEnsemble, runEnsemble, type EnsembleLeg, type EnsembleResult } from '../research/ensemble.ts';
import { dataFingerprint } from '../research/fingerprint.ts';
import { inProcessRunner } from '../research/in-process-runner.ts';
import { DEFAULT_QUEUE } from '../research/redis-backend.ts';
import { strategyModuleHashes } from '../research/strategy-modules.ts';
import { flagInt, flagString, type ParsedArgs } from './args.ts';
import { openRunner } from './research-runner.ts';
import { defaultOutDir, loadBacktestSetup, replayCacheDir } from './backtest-setup.ts';

const money = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '—');
const pctText = (v: number): string => (Number.isFinite(v) ? `${Math.round(v * 100)} %` : '—');
const spread = (d: Dist): string => `median ${money(d.p50)} [p5 ${money(d.p5)}, p95 ${money(d.p95)}]`;

/** The printed summary: median [p5, p95], P(net > 0), P(better), what moves net most. */
export function ensembleLines(r: EnsembleResult, out: string): string[] {
  const lines = [`ensemble: ${r.ensemble.draws} draws (seed ${r.ensemble.seed}) of ${r.ensemble.data.join(', ')}`];
  const leg = (config: string, s: EnsembleResult['summary'], sens: EnsembleResult['sensitivity']): void => {
    lines.push(`${config}: net USD ${spread(s.net_usd)}; P(net > 0) ${pctText(s.p_net_positive)}; edge bps ${spread(s.edge_bps)}; fills median ${money(s.fills.p50)}${s.failed > 0 ? `; ${s.failed} draw(s) failed` : ''}`);
    if (sens.length > 0) lines.push(`  moves net most: ${sens.slice(0, 3).map((x) => `${x.perturbation} (${x.share_of_variance.toFixed(2)} of the variance)`).join(', ')}`);
  };
  leg(r.config, r.summary, r.sensitivity);
  if (r.vs && r.paired) {
    leg(r.vs.config, r.vs.summary, r.vs.sensitivity);
    lines.push(`paired (${r.paired.draws} draws): P(better) ${pctText(r.paired.p_better)} that ${r.config} nets more; difference USD ${spread(r.paired.diff_net_usd)}`);
  }
  lines.push(`report: ${out}/ensemble.html`, '');
  return lines;
}

/** What an ensemble's draws need to know about a loaded recording. */
export function dataFacts(col: ColumnarRecording): DataFacts {
  return { startMs: col.tsRecv[0]!, endMs: col.tsRecv[col.length - 1]!, orderLevel: col.orderStart !== undefined && col.orderQty !== undefined, hasRoundTrips: recordedLatency(col.session, 0.5) !== null };
}

/**
 * `mmbot backtest --ensemble <N>`: replays the data N times with seeded perturbations
 * (backtest.ensemble), the --vs config on the same draws; writes ensemble.json and ensemble.html.
 */
export async function runEnsembleCommand(p: ParsedArgs, file: string, data: readonly string[]): Promise<number> {
  const n = flagInt(p, 'ensemble', 1, 100_000)!;
  const setup = await loadBacktestSetup(file);
  const vsFile = flagString(p, 'vs');
  const legsSetup = vsFile ? [setup, await loadBacktestSetup(vsFile)] : [setup];
  const paths = data.length > 0 ? data.map((d) => resolve(d)) : setup.dataPaths;
  if (paths.length === 0) throw new MmError('USAGE', `no recording: pass --data or set backtest.data in ${file}`);
  const cacheDir = p.flags.has('no-cache') ? null : replayCacheDir();
  // Decoded once here (and its binary sidecar written, which worker threads then map instead of decoding).
  const col = await loadColumnar(paths, cacheDir === null ? {} : { cacheDir });
  const ctx = drawContextOf(setup.spec.settings, dataFacts(col));
  const seed = flagInt(p, 'seed', 0, 2 ** 32 - 1) ?? setup.section.ensemble.seed;
  const draws = ensembleDraws(setup.section.ensemble, seed, n, ctx, setup.spec.settings);
  const fingerprints = await Promise.all(paths.map((x) => dataFingerprint(x, cacheDir)));
  const legs: EnsembleLeg[] = await Promise.all(
    legsSetup.map(async (s, k) => ({ config: k === 0 ? file : vsFile!, spec: s.spec, baseDir: s.config.source.dir, modules: await strategyModuleHashes(s.spec, s.config.source.dir) })),
  );
  const plan = planEnsemble(legs, draws, ctx, paths, fingerprints);
  const jobs = flagInt(p, 'jobs', 1, 256) ?? Math.max(1, availableParallelism() - 1);
  const backend = flagString(p, 'backend') ?? 'embedded';
  const { runner } = backend === 'embedded' && jobs === 1
    ? { runner: inProcessRunner(cacheDir, { paths, data: col }) }
    : await openRunner(backend, { workers: jobs, cacheDir: cacheDir ?? replayCacheDir(), queue: flagString(p, 'queue') ?? DEFAULT_QUEUE, label: 'ensemble' });
  const quiet = p.flags.has('quiet');
  let result: EnsembleResult;
  try {
    result = await runEnsemble(runner, legs, plan, { seed, data: data.length > 0 ? data : (setup.section.data ?? []), perturbations: setup.section.ensemble }, (_r, done, total) => {
      if (!quiet && process.stderr.isTTY) process.stderr.write(`\rensemble: ${done}/${total} replays`);
    });
  } finally {
    await runner.close();
  }
  if (!quiet && process.stderr.isTTY) process.stderr.write('\n');
  const outFlag = flagString(p, 'out');
  const out = outFlag ? resolve(outFlag) : defaultOutDir(resolve(setup.section.out_dir), col.tsRecv[0]!);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'ensemble.json'), ensembleJson(result));
  writeFileSync(join(out, 'ensemble.html'), ensembleHtml(result));
  if (!quiet) process.stdout.write(ensembleLines(result, out).join('\n'));
  const failed = result.summary.failed + (result.vs?.summary.failed ?? 0);
  return failed > 0 ? 1 : 0;
}
