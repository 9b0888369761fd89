/**
 * `npm run bench -- ensemble`: the shared AMZN day (LOBSTER, order-level), `glft` against
 * `fixed-spread` with `priceSkew: 1` (size 100, maxPosition 500, as the strategy bench runs them),
 * 32 paired draws of `mmbot backtest --ensemble 32 --vs … --jobs 2` (64 full-day replays) with the
 * default perturbations, timed from the command's start to its exit: `ensemble.amzn_32_paired_s`
 * (target ≤ 90 s on the 2-core machine). Then the same 32 draws of glft with the competitor
 * reaction switched off, and each config's plain backtest, for the table between the ENSEMBLE
 * markers of src/backtest/README.md. The data: the strategy bench's cached import
 * (.tmp/strategy-bench/real/amzn.jsonl.gz), else imported from `$MMBOT_BENCH_DATA` or
 * ../shared/data beside the repo; with neither the bench reports nothing. Tests never read it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { withMarkedSection, type Bench, type Metric } from './bench-kit.ts';
import { REAL_MARKETS } from './strategies/real-markets.ts';
import { configFor, importMarket, MAIN_LEGS } from './strategies/run-real.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);
const mmbot = (a: string[]) => exec(process.execPath, [join(ROOT, 'bin/mmbot.js'), ...a], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 3_600_000 });

/** Runs mmbot under bash and returns the CPU seconds (user + sys) it used, its worker threads included (bash's `times`). */
async function mmbotCpu(a: string[]): Promise<number> {
  const { stdout } = await exec('bash', ['-c', '"$@" >/dev/null; rc=$?; times; exit $rc', 'bash', process.execPath, join(ROOT, 'bin/mmbot.js'), ...a], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 3_600_000 });
  const children = stdout.trim().split('\n').at(-1)!.split(/\s+/);
  const secs = (t: string): number => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  return secs(children[0]!) + secs(children[1]!);
}

interface Dist { mean: number; sd: number; p5: number; p50: number; p95: number }
interface Summary { runs: number; net_usd: Dist; edge_bps: Dist; fills: Dist; markout_10s_bps: Dist; max_drawdown_usd: Dist; p_net_positive: number }
interface Ensemble { summary: Summary; sensitivity: { perturbation: string; share_of_variance: number }[]; vs?: { summary: Summary; sensitivity: { perturbation: string; share_of_variance: number }[] }; paired?: { p_better: number; diff_net_usd: Dist } }

const f2 = (v: number): string => v.toFixed(2);
const spread = (d: Dist): string => `${f2(d.p50)} [${f2(d.p5)}, ${f2(d.p95)}]`;
const sens = (s: Ensemble['sensitivity']): string => s.slice(0, 2).map((x) => `${x.perturbation} ${x.share_of_variance.toFixed(2)}`).join(', ');

export const benches: Bench[] = [
  {
    name: 'ensemble: AMZN day, glft vs fixed-spread priceSkew=1, 32 paired draws',
    async run() {
      const amzn = REAL_MARKETS.find((m) => m.name === 'amzn')!;
      const realDir = join(ROOT, '.tmp/strategy-bench/real');
      const dataDir = resolve(ROOT, process.env['MMBOT_BENCH_DATA'] ?? '../shared/data');
      if (!existsSync(join(realDir, 'amzn.jsonl.gz')) && !existsSync(join(dataDir, amzn.folder))) {
        process.stderr.write('  no AMZN day: ensemble bench skipped\n');
        return {};
      }
      mkdirSync(realDir, { recursive: true });
      const data = await importMarket(amzn, dataDir, realDir);
      const work = join(ROOT, '.tmp/bench-ensemble');
      mkdirSync(work, { recursive: true });
      const full = { name: 'full', startMs: null, endMs: null };
      const glft = join(work, 'glft.yaml');
      const fixed = join(work, 'fixed-spread-skew.yaml');
      writeFileSync(glft, configFor(amzn, MAIN_LEGS.find((l) => l.label === 'glft')!, full, null, 0));
      writeFileSync(fixed, configFor(amzn, MAIN_LEGS.find((l) => l.label === 'fixed-spread priceSkew=1')!, full, null, 0));
      const noReaction = join(work, 'glft-no-reaction.yaml');
      const doc = parse(readFileSync(glft, 'utf8')) as { backtest: Record<string, unknown> };
      doc.backtest['ensemble'] = { reaction: { enabled: false } };
      writeFileSync(noReaction, stringify(doc));
      // The sidecar first (decoded once), so the timed run measures the ensemble, not the first decode.
      await mmbot(['backtest', '--config', glft, '--data', data, '--out', join(work, 'plain-glft'), '--quiet']);
      await mmbot(['backtest', '--config', fixed, '--data', data, '--out', join(work, 'plain-fixed'), '--quiet']);
      const load = loadavg()[0]!;
      const t0 = performance.now();
      const cpuS = await mmbotCpu(['backtest', '--config', glft, '--vs', fixed, '--data', data, '--ensemble', '32', '--jobs', '2', '--out', join(work, 'paired'), '--quiet']);
      const pairedS = (performance.now() - t0) / 1000;
      const loadEnd = loadavg()[0]!;
      await mmbot(['backtest', '--config', noReaction, '--data', data, '--ensemble', '32', '--jobs', '2', '--out', join(work, 'no-reaction'), '--quiet']);
      const e = JSON.parse(readFileSync(join(work, 'paired/ensemble.json'), 'utf8')) as Ensemble;
      const off = JSON.parse(readFileSync(join(work, 'no-reaction/ensemble.json'), 'utf8')) as Ensemble;
      const plain = (d: string): number => Number((JSON.parse(readFileSync(join(work, d, 'report.json'), 'utf8')) as { total: { pnl: { net: string } } }).total.pnl.net);
      const row = (label: string, single: number, s: Summary, se: Ensemble['sensitivity']): string =>
        `| ${label} | ${f2(single)} | ${spread(s.net_usd)} | ${f2(s.net_usd.mean)} ± ${f2(s.net_usd.sd)} | ${Math.round(s.p_net_positive * 100)} % | ${spread(s.edge_bps)} | ${f2(s.fills.p50)} | ${f2(s.markout_10s_bps.p50)} | ${sens(se)} |`;
      const table = [
        `AMZN 2012-06-21 (LOBSTER, order-level: exact FIFO, no queue-model draw), size 100, maxPosition 500; 32 draws of the default \`backtest.ensemble\` (seed 1); ${f2(pairedS)} s for the 64 replays (\`--jobs 2\`, load average ${load.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end), using ${f2(cpuS)} s of CPU (${f2(cpuS / 2)} s of two otherwise idle cores).`,
        '',
        '| config | plain run net USD | net USD median [p5, p95] | mean ± sd | P(net > 0) | edge bps median [p5, p95] | fills p50 | markout 10 s bps p50 | moves net most (r²) |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---|',
        row('glft', plain('plain-glft'), e.summary, e.sensitivity),
        row('fixed-spread priceSkew=1', plain('plain-fixed'), e.vs!.summary, e.vs!.sensitivity),
        row('glft, competitor reaction off', plain('plain-glft'), off.summary, off.sensitivity),
        '',
        `Paired (same 32 draws): P(glft nets more) = ${Math.round(e.paired!.p_better * 100)} %; net(glft) − net(fixed-spread) median ${spread(e.paired!.diff_net_usd)} USD.`,
        `The competitor reaction moves glft's median net from ${f2(off.summary.net_usd.p50)} (off) to ${f2(e.summary.net_usd.p50)} USD (drawn on), fills p50 ${f2(off.summary.fills.p50)} → ${f2(e.summary.fills.p50)}.`,
      ].join('\n');
      const readme = join(ROOT, 'src/backtest/README.md');
      const next = withMarkedSection(readFileSync(readme, 'utf8'), 'ENSEMBLE', `\n${table}\n`);
      if (next !== null) writeFileSync(readme, next);
      else process.stderr.write('  src/backtest/README.md has no ENSEMBLE markers: table not written\n');
      process.stderr.write(`${table}\n`);
      const out: Record<string, Metric> = {
        'ensemble.amzn_32_paired_s': { value: Number(pairedS.toFixed(1)), unit: `s (mmbot backtest --ensemble 32 --vs, 64 AMZN-day replays, --jobs 2; load average ${load.toFixed(1)} at the start)`, target: '<= 90' },
        'ensemble.amzn_32_paired_cpu_s': { value: Number(cpuS.toFixed(1)), unit: 's of CPU (user + sys, every thread) of that command: half of it is the wall time two idle cores would need' },
        'ensemble.amzn_glft_net_p50_usd': { value: Number(e.summary.net_usd.p50.toFixed(2)), unit: 'USD (glft, median of 32 draws)' },
        'ensemble.amzn_glft_p_better': { value: Number(e.paired!.p_better.toFixed(3)), unit: 'share of the 32 draws where glft nets more than fixed-spread priceSkew=1' },
      };
      return out;
    },
  },
];
