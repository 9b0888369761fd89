import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startRedis } from '../support/redis-server.ts';
import type { Bench } from './bench-kit.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MMBOT = join(ROOT, 'bin/mmbot.js');
// The distributed-sweep test's sweep: 24 points × 3 windows of the 8-minute sample = 72 jobs.
const GRID_YAML =
  'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3]\n  bot.strategies.0.params.levels: [1, 2]\n  bot.strategies.0.params.spacingTicks: [1, 2]\n  backtest.order_latency.entry: [5, 100]\n';

/** Starts a `mmbot worker` and resolves once it serves the queue. */
function startWorker(url: string, queue: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [MMBOT, 'worker', '--backend', url, '--queue', queue, '--concurrency', '1', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((ok, fail) => {
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('worker: serving')) ok(proc);
    });
    proc.once('exit', (code) => fail(new Error(`mmbot worker exited ${code}: ${err}`)));
  });
}

/** Wall seconds of one `mmbot sweep --backend` run with `workers` worker processes already serving its (fresh) queue. */
async function timedSweep(url: string, workers: number, dir: string, grid: string): Promise<number> {
  const queue = `bench-${workers}-${process.pid}-${Math.floor(Math.random() * 1e9)}`; // fresh: no stored results to reuse
  const procs = await Promise.all(Array.from({ length: workers }, () => startWorker(url, queue)));
  try {
    const t0 = process.hrtime.bigint();
    const sweep = spawn(process.execPath, [MMBOT, 'sweep', '--config', join(ROOT, 'config/backtest.yaml'), '--grid', grid, '--windows', '3', '--backend', url, '--queue', queue, '--out', join(dir, queue)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    sweep.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => sweep.once('exit', r));
    if (code !== 0) throw new Error(`mmbot sweep exited ${code}: ${err}`);
    return Number(process.hrtime.bigint() - t0) / 1e9;
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : undefined)));
  }
}

/** `npm run sweep:redis-demo`: the 24 × 3 sweep on a real redis-server with 1, then 2, `mmbot worker` processes. */
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
        // Best of two each: the least disturbed by whatever else the machine runs.
        const one = Math.min(await timedSweep(redis.url, 1, dir, grid), await timedSweep(redis.url, 1, dir, grid));
        const two = Math.min(await timedSweep(redis.url, 2, dir, grid), await timedSweep(redis.url, 2, dir, grid));
        process.stderr.write(`  72 jobs: 1 worker ${one.toFixed(2)} s, 2 workers ${two.toFixed(2)} s (speed-up ×${(one / two).toFixed(2)})\n`);
        return {
          'sweep.redis_1_worker_s': { value: one, unit: 's' },
          'sweep.redis_2_workers_s': { value: two, unit: 's', target: '< 1 worker' },
        };
      } finally {
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
