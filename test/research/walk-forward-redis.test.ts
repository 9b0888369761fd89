import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { command } from '../../src/cli/commands/walk-forward.ts';
import { needs } from '../setup/system-deps.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'config/backtest.yaml');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-wf-redis-'));
const GRID = join(dir, 'grid.yaml');
writeFileSync(GRID, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2]\n  bot.strategies.0.params.levels: [1, 2]\n');
const ARGS = ['--config', CONFIG, '--grid', GRID, '--train', '2m', '--test', '1m', '--step', '2m'];

/** Runs the command in this process with its output captured. */
async function walkForward(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const w = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await command.run([...ARGS, ...args]), stdout };
  } finally {
    w.mockRestore();
    e.mockRestore();
  }
}

describe.skipIf(!needs('redis'))('walk-forward on the Redis backend (real redis-server, one mmbot worker process)', () => {
  let redis: TestRedis;
  let worker: ChildProcess | null = null;
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the embedded backend\'s folds, in-sample and out-of-sample figures to the byte', async () => {
    const embedded = await walkForward(['--workers', '2', '--out', join(dir, 'embedded')]);
    expect(embedded.code).toBe(0);
    worker = spawn(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'worker', '--backend', redis.url, '--concurrency', '2'], { cwd: dir, stdio: 'ignore' });
    const distributed = await walkForward(['--backend', redis.url, '--queue', 'mmbot-research', '--out', join(dir, 'redis')]);
    expect(distributed.code).toBe(0);
    const strip = (f: string): unknown => {
      const j = JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;
      return { folds: j['folds'], summary: j['summary'] };
    };
    expect(strip(join(dir, 'redis/walk-forward.json'))).toEqual(strip(join(dir, 'embedded/walk-forward.json')));
    expect(distributed.stdout.split('\n').slice(0, 8)).toEqual(embedded.stdout.split('\n').slice(0, 8));
    expect(distributed.stdout).toMatch(/mean pnl_over_drawdown: in-sample \/ out-of-sample/);
  }, 120_000);
});
