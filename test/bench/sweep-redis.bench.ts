import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { replayCacheDir } from '../../src/cli/commands/backtest.ts';
import { createRecordingWriter, loadColumnar } from '../../src/record/index.ts';
import { clearBackend } from '../../src/research/result-store.ts';
import { testInstrument } from '../record/fixtures.ts';
import { startRedis } from '../support/redis-server.ts';
import type { Bench, Metric } from './bench-kit.ts';
import { parseCoordinatorAccount, processCpu, redisCalls, threadCpuMs, type CoordinatorAccount, type ProcessCpu } from './sweep-accounting.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MMBOT = join(ROOT, 'bin/mmbot.js');
// The distributed-sweep test's sweep: 24 points × 3 windows of the 8-minute sample = 72 jobs.
const GRID_YAML =
  'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3]\n  bot.strategies.0.params.levels: [1, 2]\n  bot.strategies.0.params.spacingTicks: [1, 2]\n  backtest.order_latency.entry: [5, 100]\n';
/** `MMBOT_SWEEP_BENCH=sample` or `=busy` runs one half (each takes a minute or more on a loaded box). */
const ONLY = process.env['MMBOT_SWEEP_BENCH'] ?? '';
/** Timed sweeps per worker count and data (best of; `MMBOT_SWEEP_BENCH_RUNS`, default 2). */
const RUNS = Math.max(1, Number(process.env['MMBOT_SWEEP_BENCH_RUNS'] ?? 2));

/** A started `mmbot worker`; `summary()` is its last stderr line ("stopped (n jobs done, s of CPU)"). */
interface WorkerProc {
  readonly proc: ChildProcess;
  readonly summary: () => string;
}

/** Starts a `mmbot worker` and resolves once it serves the queue. */
function startWorker(url: string, queue: string): Promise<WorkerProc> {
  const proc = spawn(process.execPath, [MMBOT, 'worker', '--backend', url, '--queue', queue, '--concurrency', '1', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((ok, fail) => {
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('worker: serving')) ok({ proc, summary: () => err.trim().split('\n').at(-1) ?? '' });
    });
    proc.once('exit', (code) => (err.includes('worker: serving') ? undefined : fail(new Error(`mmbot worker exited ${code}: ${err}`))));
  });
}

/** A set of running workers on a queue of their own. */
interface WorkerSet {
  readonly n: number;
  readonly queue: string;
  readonly pids: readonly number[];
  stop(): Promise<string[]>;
}

/**
 * `n` long-running workers on a queue of their own. Workers are services (started once, serving
 * sweep after sweep), so the bench warms them with one untimed sweep and keeps them: what is timed
 * is a sweep, not a worker's start-up (module loading, JIT warm-up), which a second worker would
 * otherwise add to every 2-worker figure.
 */
async function workerSet(url: string, n: number): Promise<WorkerSet> {
  const queue = `bench-${n}-${process.pid}-${Math.floor(Math.random() * 1e9)}`;
  const procs = await Promise.all(Array.from({ length: n }, () => startWorker(url, queue)));
  return {
    n,
    queue,
    pids: procs.map((p) => p.proc.pid!),
    async stop() {
      for (const p of procs) p.proc.kill('SIGTERM');
      await Promise.all(procs.map((p) => (p.proc.exitCode === null ? new Promise((r) => p.proc.once('exit', r)) : undefined)));
      return procs.map((p) => p.summary());
    },
  };
}

/** One timed sweep and where its time went. */
interface Timed {
  /** The workers' pids, in the order of `workers`. */
  readonly pids: readonly number[];
  /** The jobs phase: from the sweep's "writing to" line (planned, connected) to its results written and printed, s. */
  readonly jobsS: number;
  /** From the results printed to the process gone (V8 and module teardown: the same for any number of workers), s. */
  readonly exitS: number;
  /** The whole command, s. */
  readonly commandS: number;
  readonly coordinator: CoordinatorAccount | null;
  /** Each worker process's CPU over the sweep (empty without /proc). */
  readonly workers: readonly ProcessCpu[];
  readonly redisCpuMs: number;
  readonly redisCalls: number;
}

/** The Redis side the bench watches: its process (CPU) and a connection (command counts). */
interface RedisWatch {
  readonly url: string;
  readonly pid: number;
  readonly conn: Redis;
}

/**
 * Runs the 24 × 3 sweep through `mmbot sweep --backend` on the set's queue into a fresh folder,
 * reading every process's CPU and Redis's command count around it, then deletes the queue's stored
 * results so the next sweep runs every job again.
 */
async function timedSweep(redis: RedisWatch, set: WorkerSet, dir: string, grid: string, data: readonly string[]): Promise<Timed> {
  const out = join(dir, `out-${Math.floor(Math.random() * 1e9)}`);
  const before = set.pids.map((pid) => threadCpuMs(pid));
  const redisBefore = [...threadCpuMs(redis.pid).values()].reduce((a, b) => a + b, 0);
  const callsBefore = redisCalls(await redis.conn.info('commandstats'));
  const t0 = process.hrtime.bigint();
  let tJobs = 0n;
  let tReported = 0n;
  const sweep = spawn(process.execPath, [MMBOT, 'sweep', '--config', join(ROOT, 'config/backtest.yaml'), '--grid', grid, '--windows', '3', '--backend', redis.url, '--queue', set.queue, '--out', out, ...data.flatMap((d) => ['--data', d])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let stdout = '';
  sweep.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
    // Printed once the plan is made and the runner connected, right before the first job is queued.
    if (tJobs === 0n && err.includes('sweep: writing to')) tJobs = process.hrtime.bigint();
  });
  sweep.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
    // The last line: every result collected, the reports written.
    if (tReported === 0n && /new result\(s\) in .*\n/.test(stdout)) tReported = process.hrtime.bigint();
  });
  const code = await new Promise<number | null>((r) => sweep.once('exit', r));
  const t1 = process.hrtime.bigint();
  if (code !== 0 || tJobs === 0n) throw new Error(`mmbot sweep exited ${code}: ${err}`);
  if (tReported === 0n) tReported = t1;
  const workers = set.pids.map((pid, k) => processCpu(pid, before[k]!, threadCpuMs(pid)));
  const redisCpuMs = [...threadCpuMs(redis.pid).values()].reduce((a, b) => a + b, 0) - redisBefore;
  const calls = redisCalls(await redis.conn.info('commandstats')) - callsBefore;
  await clearBackend(redis.url, set.queue, null);
  rmSync(out, { recursive: true, force: true });
  return { pids: set.pids, jobsS: Number(tReported - tJobs) / 1e9, exitS: Number(t1 - tReported) / 1e9, commandS: Number(t1 - t0) / 1e9, coordinator: parseCoordinatorAccount(err), workers, redisCpuMs, redisCalls: calls };
}

/** CPU of every process over a sweep's jobs phase, s: the coordinator's since planned, the workers', redis-server's. */
const cpuS = (t: Timed): number => (t.coordinator?.cpuSincePlannedS ?? 0) + t.workers.reduce((a, w) => a + (w.mainMs + w.jobThreadMs + w.otherMs) / 1000, 0) + t.redisCpuMs / 1000;

/**
 * Wall time of the jobs phase in which no worker can be running a job: before everything is queued
 * and after the last result (collecting, reports), s. The serial part: it does not shrink with workers.
 */
const serialS = (t: Timed): number => (t.coordinator ? t.coordinator.queuedAtS + Math.max(0, t.jobsS - t.coordinator.lastResultS) : NaN);

/** Where a timed sweep's time went, as lines for the terminal. */
function phaseLines(what: string, n: number, t: Timed): string[] {
  const f = (x: number): string => x.toFixed(2);
  const c = t.coordinator;
  const lines = [`  ${what}, ${n} worker(s): jobs phase ${f(t.jobsS)} s (then ${f(t.exitS)} s to exit), CPU of all processes ${f(cpuS(t))} s, serial part ${f(serialS(t))} s; load average ${load()}`];
  if (c)
    lines.push(
      `    coordinator: CPU ${f(c.cpuSincePlannedS)} s in the jobs phase (${f(c.cpuTotalS)} s with start-up and planning); ${c.queuedJobs} jobs queued in ${c.batches} batches for ${c.slots} thread(s) by ${f(c.queuedAtS)} s; first result ${f(c.firstResultS)} s, last ${f(c.lastResultS)} s`,
    );
  t.workers.forEach((w, k) => {
    const r = c?.workers.find((x) => x.pid === t.pids[k]);
    const phases = r ? `${r.jobs} jobs in ${r.batches} batches; thread busy ${f(r.busyS)} s (load ${f(r.loadS)}, setup ${f(r.setupS)}, replay ${f(r.replayS)}, report ${f(r.reportS)}), idle ${f(Math.max(0, (c?.lastResultS ?? 0) - r.busyS))} s; ` : '';
    lines.push(`    worker ${k + 1}: ${phases}CPU: job thread ${f(w.jobThreadMs / 1000)} s, main thread ${f(w.mainMs / 1000)} s, other threads (GC, compiler) ${f(w.otherMs / 1000)} s`);
  });
  lines.push(`    redis-server: CPU ${f(t.redisCpuMs / 1000)} s, ${t.redisCalls} commands (${(t.redisCalls / Math.max(1, c?.queuedJobs ?? 72)).toFixed(1)} a job)`);
  return lines;
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

const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

/**
 * `npm run sweep:redis-demo`: the 24 × 3 sweep on a real redis-server with 1, then 2, warm
 * `mmbot worker` processes; on the 8-minute sample (jobs of ≈20 ms) and on a busy 7.5-minute
 * synthetic market (jobs of a few hundred ms). The ratios are of the jobs phase (the sweep planned
 * and connected: what more workers can shorten); the whole command adds the coordinator's start-up
 * and planning (≈2 s on this machine), the same for any number of workers.
 */
export const benches: Bench[] = [
  {
    name: 'distributed sweep on Redis: 24 points × 3 windows, 1 vs 2 warm worker processes',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'mmbot-sweep-bench-'));
      const grid = join(dir, 'grid.yaml');
      writeFileSync(grid, GRID_YAML);
      const server = await startRedis();
      const redis: RedisWatch = { url: server.url, pid: server.process.pid!, conn: new Redis(server.url) };
      const loadAtStart = loadavg()[0]!;
      const sets = [await workerSet(redis.url, 1), await workerSet(redis.url, 2)] as const;
      const out: Record<string, Metric> = {};
      try {
        // Alternating 1 and 2 workers, best of RUNS each: the machine's other load changes by the minute.
        const best = async (data: readonly string[]): Promise<[Timed, Timed]> => {
          const runs: { n: number; r: Timed }[] = [];
          for (let k = 0; k < RUNS; k++) for (const set of sets) runs.push({ n: set.n, r: await timedSweep(redis, set, dir, grid, data) });
          const pick = (n: number): Timed => runs.filter((x) => x.n === n).map((x) => x.r).sort((a, b) => a.jobsS - b.jobsS)[0]!;
          return [pick(1), pick(2)];
        };
        const report = (key: string, what: string, target: string, [a, b]: [Timed, Timed]): void => {
          process.stderr.write(
            `  ${what}, 72 jobs: 1 worker ${a.jobsS.toFixed(2)} s (command ${a.commandS.toFixed(2)} s), 2 workers ${b.jobsS.toFixed(2)} s (command ${b.commandS.toFixed(2)} s): ${(b.jobsS / a.jobsS).toFixed(2)} × (target ${target}; command ${(b.commandS / a.commandS).toFixed(2)} ×)\n`,
          );
          for (const line of [...phaseLines(what, 1, a), ...phaseLines(what, 2, b)]) process.stderr.write(`${line}\n`);
          out[`sweep.${key}_1_worker_s`] = { value: a.jobsS, unit: 's' };
          out[`sweep.${key}_2_workers_s`] = { value: b.jobsS, unit: 's' };
          out[`sweep.${key}_2_vs_1`] = { value: b.jobsS / a.jobsS, unit: '×', target: target };
          out[`sweep.${key}_command_2_vs_1`] = { value: b.commandS / a.commandS, unit: '×', target: 'none (adds the coordinator start-up)' };
          // The accounting in brief: CPU should not grow with workers, the serial part should be small.
          out[`sweep.${key}_cpu_1_worker_s`] = { value: cpuS(a), unit: 's' };
          out[`sweep.${key}_cpu_2_vs_1`] = { value: cpuS(b) / cpuS(a), unit: '×', target: '≈ 1 (work does not grow with workers)' };
          out[`sweep.${key}_serial_1_worker_s`] = { value: serialS(a), unit: 's', target: 'small against the jobs phase' };
          out[`sweep.${key}_exit_s`] = { value: a.exitS, unit: 's' };
        };
        // Warm-up: every worker serves ≈72 jobs (a set of n serves n sweeps): module loading, the JIT's
        // optimised code (a cold thread runs the sample's jobs ≈4× slower) and decoded data are in place.
        for (const set of sets) for (let k = 0; k < set.n; k++) await timedSweep(redis, set, dir, grid, []);
        if (ONLY !== 'busy') report('sample', 'sample', '≤ 0.6', await best([]));
        if (ONLY !== 'sample') report('busy', 'busy synthetic market', '≤ 0.55', await best([await heavyRecording(dir)]));
        out['sweep.load_average_at_start'] = { value: loadAtStart, unit: '' };
        return out;
      } finally {
        for (const s of sets) for (const line of await s.stop()) process.stderr.write(`  ${s.n} worker set: ${line}\n`);
        redis.conn.disconnect();
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
