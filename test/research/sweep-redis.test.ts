import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { Redis } from 'ioredis';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { dataFingerprint } from '../../src/research/fingerprint.ts';
import { makeJob } from '../../src/research/job.ts';
import { redisRunner } from '../../src/research/redis-runner.ts';
import { needs } from '../setup/system-deps.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { strategyModuleHashes } from '../../src/research/strategy-modules.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MMBOT = join(ROOT, 'bin/mmbot.js');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-sweep-redis-'));
const GRID = join(dir, 'grid.yaml');
// 3 × 2 × 2 × 2 = 24 points, on 3 windows of the 8-minute sample: 72 jobs of well under a second.
writeFileSync(
  GRID,
  'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3]\n  bot.strategies.0.params.levels: [1, 2]\n  bot.strategies.0.params.spacingTicks: [1, 2]\n  backtest.order_latency.entry: [5, 100]\n',
);
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const SWEEP = ['sweep', '--config', join(ROOT, 'config/backtest.yaml'), '--grid', GRID, '--windows', '3'];

interface Run {
  readonly proc: ChildProcess;
  readonly exit: Promise<number>;
  readonly lines: string[];
  onLine?: (line: string) => void;
}

function mmbot(args: readonly string[]): Run {
  const proc = spawn(process.execPath, [MMBOT, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { proc, lines: [], exit: new Promise((r) => proc.once('exit', (code) => r(code ?? -1))) };
  let rest = '';
  const feed = (chunk: Buffer): void => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop()!;
    for (const l of parts) {
      run.lines.push(l);
      run.onLine?.(l);
    }
  };
  proc.stdout!.on('data', feed);
  proc.stderr!.on('data', feed);
  return run;
}

const workerArgs = (url: string): string[] => ['worker', '--backend', url, '--concurrency', '1', '--lock-ms', '1000', '--stalled-ms', '500'];

describe.skipIf(!needs('redis'))('distributed sweep on Redis (real redis-server, coordinator + 2 mmbot worker processes)', () => {
  let redis: TestRedis;
  const procs: ChildProcess[] = [];
  // The Redis sweep names its data by URL: coordinator and workers download it (once) and find the
  // same content fingerprint as the embedded sweep's local file.
  let http: Server;
  let dataUrl = '';
  beforeAll(async () => {
    redis = await startRedis();
    const body = readFileSync(SAMPLE);
    http = createServer((_req, res) => res.writeHead(200).end(body));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    dataUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}/eurusd-perp-local.jsonl.gz`;
  }, 20_000);
  afterAll(async () => {
    await new Promise((r) => http?.close(r));
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('24 points × 3 windows give the embedded backend\'s leaderboard, with one worker SIGKILLed mid-job', async () => {
    const embedded = mmbot([...SWEEP, '--workers', '2', '--out', join(dir, 'embedded')]);
    expect(await embedded.exit, embedded.lines.join('\n')).toBe(0);

    const w1 = mmbot(workerArgs(redis.url));
    const w2 = mmbot(workerArgs(redis.url));
    procs.push(w1.proc, w2.proc);
    // Kill worker 1 (SIGKILL: no clean-up at all) right after it starts its 4th job.
    const started: string[] = [];
    const finished = new Set<string>();
    let killedDuring: string | null = null;
    w1.onLine = (line) => {
      const m = /^worker: (start|done) ([0-9a-f]{12})/.exec(line);
      if (!m || killedDuring !== null) return;
      if (m[1] === 'done') finished.add(m[2]!);
      else {
        started.push(m[2]!);
        if (started.length === 4) {
          w1.proc.kill('SIGKILL');
          killedDuring = m[2]!;
        }
      }
    };
    const coordinator = mmbot([...SWEEP, '--data', dataUrl, '--backend', redis.url, '--out', join(dir, 'redis'), '--results-ttl', '2h']);
    procs.push(coordinator.proc);
    const code = await coordinator.exit;
    expect(code, coordinator.lines.join('\n')).toBe(0);
    expect(killedDuring).not.toBeNull();
    expect(finished.has(killedDuring!)).toBe(false); // it really died mid-job...
    expect(w2.lines.some((l) => l.startsWith(`worker: done ${killedDuring}`))).toBe(true); // ...and the other worker ran it

    for (const f of ['leaderboard.csv', 'leaderboard.json', 'sweep.csv'])
      expect(readFileSync(join(dir, 'redis', f), 'utf8'), f).toBe(readFileSync(join(dir, 'embedded', f), 'utf8'));
    const lb = readFileSync(join(dir, 'redis', 'leaderboard.csv'), 'utf8').trim().split('\n');
    expect(lb).toHaveLength(25);
    // Counted once: one journal line per job.
    const journal = readFileSync(join(dir, 'redis', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { jobId: string }).jobId);
    expect(journal).toHaveLength(72);
    expect(new Set(journal).size).toBe(72);
    // The workers stored every result with the coordinator's --results-ttl.
    const conn = new Redis(redis.url);
    const ttls = await Promise.all(journal.map((id) => conn.ttl(`mmbot:research:mmbot-research:result:${id}`)));
    conn.disconnect();
    expect(ttls.filter((t) => t > 3600 && t <= 7200)).toHaveLength(72);

    // The same sweep again: every result is in Redis already, nothing is queued or run.
    const doneBefore = w2.lines.filter((l) => l.startsWith('worker: done')).length;
    const again = mmbot([...SWEEP, '--data', SAMPLE, '--backend', redis.url, '--out', join(dir, 'again')]);
    expect(await again.exit).toBe(0);
    expect(readFileSync(join(dir, 'again', 'leaderboard.csv'), 'utf8')).toBe(readFileSync(join(dir, 'embedded', 'leaderboard.csv'), 'utf8'));
    expect(w2.lines.filter((l) => l.startsWith('worker: done')).length).toBe(doneBefore);

    // A job planned by other code is refused by the worker, reported as a (transient) failure.
    const setup = await loadBacktestSetup(join(ROOT, 'config/backtest.yaml'));
    const alien = makeJob({ index: 0, point: [], window: { id: 'w1', startMs: null, endMs: null }, data: [SAMPLE], fingerprints: [await dataFingerprint(SAMPLE)], spec: setup.spec, codeVersion: '0.0.0+other' });
    // So is a job whose strategy module (loaded by path) is another file on the worker than the planner hashed.
    const byPath = join(ROOT, 'strategies/fixed-spread/index.ts');
    const pathSpec = { ...setup.spec, strategies: setup.spec.strategies.map((x) => ({ ...x, strategy: byPath })) };
    const planned = makeJob({ index: 0, point: [], window: { id: 'w1', startMs: null, endMs: null }, data: [SAMPLE], fingerprints: [await dataFingerprint(SAMPLE)], spec: pathSpec, modules: await strategyModuleHashes(pathSpec, null) });
    expect(planned.modules[byPath]).toMatch(/^sha256:[0-9a-f]{64}$/);
    const stale = { ...planned, modules: { [byPath]: `sha256:${'0'.repeat(64)}` } };
    // And a job whose strategy imports a helper file that changed after planning (the worker hashes its copy's imports too).
    const strat = join(dir, 'strat', 'index.ts');
    mkdirSync(join(dir, 'strat'), { recursive: true });
    writeFileSync(strat, "export * from './helper.ts';\n");
    writeFileSync(join(dir, 'strat', 'helper.ts'), 'export const edge = 1;\n');
    const helperSpec = { ...setup.spec, strategies: setup.spec.strategies.map((x) => ({ ...x, strategy: strat })) };
    const withHelper = makeJob({ index: 0, point: [], window: { id: 'w1', startMs: null, endMs: null }, data: [SAMPLE], fingerprints: [await dataFingerprint(SAMPLE)], spec: helperSpec, modules: await strategyModuleHashes(helperSpec, null) });
    writeFileSync(join(dir, 'strat', 'helper.ts'), 'export const edge = 2;\n');
    utimesSync(join(dir, 'strat', 'helper.ts'), 2_000_000, 2_000_000);
    const runner = await redisRunner({ url: redis.url });
    const results = await runner.run([alien, stale, withHelper]);
    await runner.close();
    const refused = results.get(alien.id)!;
    expect(refused.transient).toBe(true);
    expect(refused.row.error).toMatch(/^JOB_REFUSED: job [0-9a-f]{12} was planned by mmbot code 0\.0\.0\+other; this worker runs /);
    expect(w2.lines.some((l) => l.startsWith(`worker: refused ${alien.id.slice(0, 12)}`))).toBe(true);
    expect(results.get(stale.id)!.row.error).toMatch(/^JOB_REFUSED: strategy module .*fixed-spread\/index\.ts here .* is another file, or imports other helper files \(sha256:[0-9a-f]{64}\); the sweep planned sha256:0{64}/);
    expect(results.get(withHelper.id)!.row.error).toMatch(/^JOB_REFUSED: strategy module .*strat\/index\.ts here .* is another file, or imports other helper files/);

    // SIGTERM: the worker finishes what it runs and exits 0.
    w2.proc.kill('SIGTERM');
    expect(await w2.exit).toBe(0);
    expect(w2.lines.some((l) => /^worker: stopped \(\d+ job\(s\) done, [\d.]+ s of CPU\)$/.test(l))).toBe(true);
  }, 180_000); // a hang guard: three sweeps of 72 CPU-bound jobs took up to 90 s on a 2-core box under load
});
