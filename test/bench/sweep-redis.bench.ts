import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { replayCacheDir } from '../../src/cli/commands/backtest.ts';
import { createRecordingWriter, loadColumnar } from '../../src/record/index.ts';
import { testInstrument } from '../record/fixtures.ts';
import { startRedis } from '../support/redis-server.ts';
import type { Bench } from './bench-kit.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MMBOT = join(ROOT, 'bin/mmbot.js');
// The distributed-sweep test's sweep: 24 points × 3 windows of the 8-minute sample = 72 jobs.
const GRID_YAML =
  'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3]\n  bot.strategies.0.params.levels: [1, 2]\n  bot.strategies.0.params.spacingTicks: [1, 2]\n  backtest.order_latency.entry: [5, 100]\n';

/** Starts a `mmbot worker` and resolves once it serves the queue; `cpuS()` reads the CPU seconds it reports when it stops. */
function startWorker(url: string, queue: string): Promise<{ proc: ChildProcess; cpuS: () => number; jobs: () => number }> {
  const proc = spawn(process.execPath, [MMBOT, 'worker', '--backend', url, '--queue', queue, '--concurrency', '1', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const cpuS = (): number => Number(/ ([\d.]+) s of CPU/.exec(err)?.[1] ?? NaN);
  const jobs = (): number => Number(/stopped \((\d+) job/.exec(err)?.[1] ?? NaN);
  return new Promise((ok, fail) => {
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('worker: serving')) ok({ proc, cpuS, jobs });
    });
    proc.once('exit', (code) => (err.includes('worker: serving') ? undefined : fail(new Error(`mmbot worker exited ${code}: ${err}`))));
  });
}

/** One timed sweep: wall seconds, the workers' CPU seconds, and how many jobs each worker ran. */
interface Timed {
  readonly wallS: number;
  readonly cpuS: number;
  readonly split: string;
}

/** Wall seconds of one `mmbot sweep --backend` run with `workers` worker processes already serving its (fresh) queue, and the workers' CPU seconds (start-up included). */
async function timedSweep(url: string, workers: number, dir: string, grid: string, data: readonly string[] = []): Promise<Timed> {
  const queue = `bench-${workers}-${process.pid}-${Math.floor(Math.random() * 1e9)}`; // fresh: no stored results to reuse
  const procs = await Promise.all(Array.from({ length: workers }, () => startWorker(url, queue)));
  let wallS = NaN;
  try {
    const t0 = process.hrtime.bigint();
    const sweep = spawn(process.execPath, [MMBOT, 'sweep', '--config', join(ROOT, 'config/backtest.yaml'), '--grid', grid, '--windows', '3', '--backend', url, '--queue', queue, '--out', join(dir, queue), ...data.flatMap((d) => ['--data', d])], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    sweep.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => sweep.once('exit', r));
    if (code !== 0) throw new Error(`mmbot sweep exited ${code}: ${err}`);
    wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  } finally {
    for (const p of procs) p.proc.kill('SIGTERM');
    await Promise.all(procs.map((p) => (p.proc.exitCode === null ? new Promise((r) => p.proc.once('exit', r)) : undefined)));
  }
  return { wallS, cpuS: procs.reduce((s, p) => s + p.cpuS(), 0), split: procs.map((p) => p.jobs()).join('/') };
}

/** A busy synthetic EURUSD-PERP market (≈2,000 events/s for 7.5 minutes), written as a recording and decoded once into the replay cache. */
async function heavyRecording(dir: string): Promise<string> {
  const inst = testInstrument('EURUSD-PERP', '0.0001', 100);
  const path = join(dir, 'busy.jsonl.gz');
  const start = 1_700_000_000_000;
  const w = createRecordingWriter(path, { instruments: [inst], startedAtMs: start, source: 'synthetic' });
  for (const ev of syntheticMarket({ instrument: inst, seed: 3, events: 900_000, startMs: start, midTicks: 11380, levels: 20, meanGapMs: 0.5, tickerEveryMs: 1000 })) w.write(ev);
  await w.close();
  await loadColumnar([path], { cacheDir: replayCacheDir() }); // the binary sidecar every worker then reads
  return path;
}

/**
 * `npm run sweep:redis-demo`: the 24 × 3 sweep on a real redis-server with 1, then 2, `mmbot worker`
 * processes; on the 8-minute sample (jobs of ≈20 ms: coordination and start-up dominate) and on a
 * busy 7.5-minute synthetic market (jobs of a few hundred ms: the backtests dominate).
 */
export const benches: Bench[] = [
  {
    name: 'distributed sweep on Redis: 24 points × 3 windows, 1 vs 2 worker processes',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'mmbot-sweep-bench-'));
      const grid = join(dir, 'grid.yaml');
      writeFileSync(grid, GRID_YAML);
      const redis = await startRedis();
      try {
        await timedSweep(redis.url, 1, dir, grid); // warm-up: decoded-recording cache, fingerprints, spans
        // Alternating 1 and 2 workers, best of two each: the machine's other load changes by the minute.
        const best = async (data: readonly string[]): Promise<[Timed, Timed]> => {
          const runs: { n: number; r: Timed }[] = [];
          for (const n of [1, 2, 1, 2]) runs.push({ n, r: await timedSweep(redis.url, n, dir, grid, data) });
          const pick = (n: number): Timed => runs.filter((x) => x.n === n).map((x) => x.r).sort((a, b) => a.wallS - b.wallS)[0]!;
          return [pick(1), pick(2)];
        };
        const say = (what: string, [a, b]: [Timed, Timed]): void =>
          void process.stderr.write(`  ${what}, 72 jobs: 1 worker ${a.wallS.toFixed(2)} s (workers' CPU ${a.cpuS.toFixed(1)} s), 2 workers ${b.wallS.toFixed(2)} s (CPU ${b.cpuS.toFixed(1)} s, jobs split ${b.split}): ×${(a.wallS / b.wallS).toFixed(2)}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
        const light = await best([]);
        say('sample', light);
        const busy = await best([await heavyRecording(dir)]);
        say('busy synthetic market', busy);
        return {
          'sweep.redis_1_worker_s': { value: light[0].wallS, unit: 's' },
          'sweep.redis_2_workers_s': { value: light[1].wallS, unit: 's', target: '< 1 worker' },
          'sweep.redis_busy_1_worker_s': { value: busy[0].wallS, unit: 's' },
          'sweep.redis_busy_2_workers_s': { value: busy[1].wallS, unit: 's', target: '≈ half of 1 worker on 2 free cores' },
        };
      } finally {
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
