import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildReport } from '../../src/backtest/report.ts';
import { executeRunSpec } from '../../src/backtest/run-spec.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { command } from '../../src/cli/commands/walk-forward.ts';
import { loadColumnar } from '../../src/record/columnar.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'config/backtest.yaml');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-wf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface FoldJson {
  fold: number;
  test: { start_ms: number; end_ms: number };
  chosen: Record<string, unknown>;
  in_sample: { objective: number; net_usd: number };
  out_of_sample: { objective: number; net_usd: number; rank: number };
  test_scores: { rank: number; params: Record<string, unknown>; objective: number }[];
}

/** Runs `mmbot walk-forward` in this process with its output captured: exit code, stdout, stderr. */
async function runCaptured(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const w = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  try {
    const code = await command.run([...args]);
    return { code, stdout, stderr };
  } finally {
    w.mockRestore();
    e.mockRestore();
  }
}

describe('mmbot walk-forward on the sample recording (embedded runner)', () => {
  it('reports in-sample and out-of-sample side by side, and the OOS figure is the chosen point replayed on the test window', async () => {
    const grid = join(dir, 'grid.yaml');
    writeFileSync(grid, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 3]\nobjective: net\n');
    const out = join(dir, 'out');
    const args = ['--config', CONFIG, '--grid', grid, '--train', '2m', '--test', '1m', '--step', '2m', '--workers', '2', '--out', out];
    const { code, stdout } = await runCaptured(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(/fold +train +test +chosen in-sample +IS score +OOS score +IS net +OOS net +OOS rank/);
    expect(stdout).toMatch(/^ +1 +0s–2m +2m–3m +halfSpreadTicks=\d/m);
    expect(stdout).toMatch(/mean net PnL \(USD\): in-sample \/ out-of-sample +-?\d+\.\d{2} \/ -?\d+\.\d{2}/); // objective net: its line once
    const report = JSON.parse(readFileSync(join(out, 'walk-forward.json'), 'utf8')) as { folds: FoldJson[]; summary: Record<string, number | null> };
    expect(report.folds).toHaveLength(3); // tests at 2–3, 4–5 and 6–7 min of the 8-minute sample
    for (const f of report.folds) {
      expect(Object.keys(f.chosen)).toEqual(['bot.strategies.0.params.halfSpreadTicks']);
      expect(f.in_sample.objective).toBe(f.in_sample.net_usd); // objective: net
      expect(f.test_scores).toHaveLength(2);
      expect(f.test_scores.find((t) => t.rank === f.out_of_sample.rank)!.params).toEqual(f.chosen);
    }
    expect(report.summary['scored']).toBe(3);
    expect(typeof report.summary['efficiency']).toBe('number');
    // The out-of-sample figure of fold 1 is exactly the chosen point replayed alone on its test window.
    const f1 = report.folds[0]!;
    const setup = await loadBacktestSetup(CONFIG, Object.entries(f1.chosen));
    const spec = { ...setup.spec, settings: { ...setup.spec.settings, startMs: f1.test.start_ms, endMs: f1.test.end_ms } };
    const direct = buildReport(await executeRunSpec(spec, await loadColumnar([SAMPLE]), setup.config.source.dir));
    expect(Number(direct.total.pnl.net)).toBeCloseTo(f1.out_of_sample.net_usd, 9);
    for (const f of ['walk-forward.csv', 'walk-forward.html', 'oos-leaderboard.csv', 'oos-leaderboard.json', 'oos-leaderboard.html']) expect(readFileSync(join(out, f), 'utf8').length).toBeGreaterThan(100);
    expect(readFileSync(join(out, 'walk-forward.html'), 'utf8')).toContain('Folds: in-sample vs out-of-sample');
    // The same --out again: every run comes from the journal, and the report is the same.
    const again = await runCaptured(args);
    expect(again.code).toBe(0);
    const stderr = again.stderr;
    expect(stderr).toMatch(/12 result\(s\) already in .*results\.jsonl/);
    expect(stderr).not.toMatch(/train: \d+\/\d+/); // nothing ran
    expect(JSON.parse(readFileSync(join(out, 'walk-forward.json'), 'utf8')).folds).toEqual(report.folds);
    // The 58.84 s after the last test window (6–7 min) are not scored, and the report says why: the
    // next fold would train on 6–8 min, past the data.
    expect(stdout).toMatch(/data after the last test window, not scored +58\.84s \(shorter than --test 1m; the next fold's train window would end with the data or after it/);
    expect(JSON.parse(readFileSync(join(out, 'walk-forward.json'), 'utf8'))).toMatchObject({ unscored_tail_ms: 58_840, partial_fold_fits: false });
  }, 90_000);

  it('Ctrl-C (SIGINT) stops with the runs journaled, exits 130, and the same command continues', async () => {
    const grid = join(dir, 'g-int.yaml');
    writeFileSync(grid, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3]\n');
    const out = join(dir, 'int');
    const journal = join(out, 'results.jsonl');
    const lines = (): number => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l.endsWith('}')).length : 0);
    const args = [join(ROOT, 'bin/mmbot.js'), 'walk-forward', '--config', CONFIG, '--grid', grid, '--train', '2m', '--test', '1m', '--workers', '1', '--out', out];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    proc.stderr.on('data', (c: Buffer) => (text += c.toString()));
    const timer = setInterval(() => {
      if (lines() >= 2) {
        clearInterval(timer);
        proc.kill('SIGINT');
      }
    }, 20);
    const code = await new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
    clearInterval(timer);
    expect(code, text).toBe(130);
    expect(text).toContain(`walk-forward: SIGINT: stopped with ${lines()} run(s) in ${journal}`);
    expect(text).toContain(`continue with the same command and --out ${out}`);
    const done = await runCaptured(args.slice(2));
    expect(done.code).toBe(0);
    expect(lines()).toBe(30);
    // Folds test 2–3 … 6–7 min; the 58.84 s left would fit a shorter sixth fold: the report says so...
    expect(done.stdout).toMatch(/data after the last test window, not scored +58\.84s \(shorter than --test 1m; --partial-fold scores it as a shorter final fold\)/);
    // ...and --partial-fold scores it, flagged (only that fold's runs are new).
    const partial = await runCaptured([...args.slice(2), '--partial-fold']);
    expect(partial.code).toBe(0);
    expect(lines()).toBe(36);
    expect(partial.stderr).toMatch(/× 6 fold\(s\) .*the last fold partial/);
    expect(partial.stdout).toMatch(/^ +6 +5m–7m +7m–7m58\.84s \(partial\)/m);
    expect(partial.stdout).toMatch(/folds \(scored\) +6 \(6\); fold 6 is partial: its test window is the last 58\.84s of data, not 1m/);
    expect(partial.stdout).not.toMatch(/not scored/);
    const report = JSON.parse(readFileSync(join(out, 'walk-forward.json'), 'utf8')) as { unscored_tail_ms: number; folds: { partial: boolean; test: { end_ms: number; start_ms: number } }[] };
    expect(report.folds.map((f) => f.partial)).toEqual([false, false, false, false, false, true]);
    expect(report.folds[5]!.test.end_ms - report.folds[5]!.test.start_ms).toBe(58_840);
    expect(report.unscored_tail_ms).toBe(0);
  }, 90_000);

  it('rejects bad durations and folds that do not fit, naming the flag', async () => {
    const grid = join(dir, 'g2.yaml');
    writeFileSync(grid, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1]\n');
    await expect(command.run(['--config', CONFIG, '--grid', grid, '--train', '2 min', '--test', '1m'])).rejects.toThrow(/--train: expected a duration like 90s/);
    await expect(command.run(['--config', CONFIG, '--grid', grid, '--train', '2m', '--test', '1m', '--step', 'x'])).rejects.toThrow(/--step: expected a duration/);
    await expect(command.run(['--config', CONFIG, '--grid', grid, '--train', '7m', '--test', '2m'])).rejects.toThrow(/--train 7m \+ --test 2m is longer than the data \(7m58/);
    await expect(command.run(['--config', CONFIG, '--grid', grid, '--test', '1m'])).rejects.toThrow(/--train and --test are required/);
    // An unreachable backend: the error starts its own line (not glued to the plan's line).
    let err = '';
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
    try {
      await expect(command.run(['--config', CONFIG, '--grid', grid, '--train', '2m', '--test', '1m', '--backend', 'redis://127.0.0.1:1'])).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    } finally {
      e.mockRestore();
    }
    expect(err).toMatch(/^walk-forward: 1 point\(s\) × 5 fold\(s\) .*\+ 5 test runs\n$/);
    writeFileSync(grid, 'search: halving\nrungs: [1m, 3m]\ngrid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2]\n');
    await expect(command.run(['--config', CONFIG, '--grid', grid, '--train', '2m', '--test', '1m'])).rejects.toThrow(/rungs\.1: 3m is longer than the train window \(2m\)/);
  }, 30_000);

  it('with search: halving, chooses by successive halving inside each train window; the IS score is the whole train window\'s', async () => {
    const grid = join(dir, 'halving.yaml');
    writeFileSync(grid, 'search: halving\neta: 2\nrungs: [30s, all]\ngrid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2]\n  bot.strategies.0.params.levels: [1, 2]\nobjective: net\n');
    const out = join(dir, 'halving');
    const { code } = await runCaptured(['--config', CONFIG, '--grid', grid, '--train', '2m', '--test', '1m', '--step', '3m', '--workers', '2', '--out', out]);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'walk-forward.json'), 'utf8')) as { train_search: string; folds: (FoldJson & { train: { start_ms: number; end_ms: number }; train_rungs: { rung: number; end_ms: number; candidates: number; survivors: unknown[] }[] })[] };
    expect(report.train_search).toMatch(/successive halving \(eta 2\) on rungs of 30s, 2m/);
    expect(report.folds).toHaveLength(2); // tests at 2–3 and 5–6 min
    for (const f of report.folds) {
      expect(f.train_rungs.map((r) => [r.candidates, r.survivors.length])).toEqual([[4, 2], [2, 0]]);
      expect(f.train_rungs[1]!.end_ms).toBe(f.train.end_ms);
    }
    // The chosen point's IS figure is that point replayed alone on the whole train window.
    const f1 = report.folds[0]!;
    const setup = await loadBacktestSetup(CONFIG, Object.entries(f1.chosen));
    const spec = { ...setup.spec, settings: { ...setup.spec.settings, startMs: null, endMs: f1.train.end_ms } };
    const direct = buildReport(await executeRunSpec(spec, await loadColumnar([SAMPLE]), setup.config.source.dir));
    expect(Number(direct.total.pnl.net)).toBeCloseTo(f1.in_sample.net_usd, 9);
  }, 90_000);
});
