import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { backendErrorLog } from '../../src/cli/research-runner.ts';
import { parseWindowFlag } from '../../src/cli/sweep-plan.ts';
import { command as sweep, printTable } from '../../src/cli/commands/sweep.ts';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import { buildLeaderboard } from '../../src/research/leaderboard.ts';
import type { Objective } from '../../src/research/objective.ts';
import { command as worker } from '../../src/cli/commands/worker.ts';
import { command as wf } from '../../src/cli/commands/walk-forward.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MMBOT = join(ROOT, 'bin/mmbot.js');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-sweep-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GRID = join(dir, 'grid.yaml');
writeFileSync(GRID, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3]\n  bot.strategies.0.params.levels: [1, 2]\nrank_by: net\n');
const CONFIG = join(ROOT, 'config/backtest.yaml');
const journalLines = (out: string): number => (existsSync(join(out, 'results.jsonl')) ? readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.endsWith('}')).length : 0);

const pids = new Map<string, number>();
const pidOf = (out: string): number => pids.get(out)!;

function mmbot(args: readonly string[], onTick?: (kill: () => void) => void): Promise<{ code: number | null; signal: string | null; out: string }> {
  const proc = spawn(process.execPath, [MMBOT, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const outAt = args.indexOf('--out');
  if (outAt >= 0 && proc.pid !== undefined) pids.set(args[outAt + 1]!, proc.pid);
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const timer = onTick ? setInterval(() => onTick(() => proc.kill('SIGKILL')), 20) : null;
  return new Promise((r) =>
    proc.once('exit', (code, signal) => {
      if (timer) clearInterval(timer);
      r({ code, signal, out });
    }),
  );
}

// Timeouts are hang guards: the tests wait for conditions, and their child processes are CPU-bound
// backtests whose wall time scales with the machine's load (up to 90 s for the longest one on a
// 2-core box shared with 3 busy loops and other jobs), so they get about twice that.
describe('mmbot sweep: windows, journal and --resume (embedded backend)', () => {
  it('a coordinator SIGKILLed after k results resumes with only the rest, and ends with the uninterrupted leaderboard', async () => {
    const full = await mmbot(['sweep', '--config', CONFIG, '--grid', GRID, '--windows', '2', '--workers', '1', '--out', join(dir, 'full')]);
    expect(full.code, full.out).toBe(0);
    expect(full.out).toMatch(/6 points × 2 window\(s\) = 12 jobs/);

    const cut = join(dir, 'cut');
    const killed = await mmbot(['sweep', '--config', CONFIG, '--grid', GRID, '--windows', '2', '--workers', '1', '--out', cut], (kill) => {
      if (journalLines(cut) >= 4) kill();
    });
    expect(killed.signal).toBe('SIGKILL');
    const k = journalLines(cut);
    expect(k).toBeGreaterThanOrEqual(4);
    expect(k).toBeLessThan(12);
    expect(existsSync(join(cut, 'leaderboard.csv'))).toBe(false);

    const resumed = await mmbot(['sweep', '--resume', cut, '--workers', '1']);
    expect(resumed.code, resumed.out).toBe(0);
    expect(resumed.out).toContain(`${k} done already (journal)`);
    expect(resumed.out).toContain(`${12 - k} new result(s) in`);
    expect(journalLines(cut)).toBe(12);
    for (const f of ['leaderboard.csv', 'sweep.csv']) expect(readFileSync(join(cut, f), 'utf8'), f).toBe(readFileSync(join(dir, 'full', f), 'utf8'));
    const csv = readFileSync(join(cut, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('point,bot.strategies.0.params.halfSpreadTicks,bot.strategies.0.params.levels,window,job_id,net_usd,net_with_rewards_usd,sharpe,max_drawdown_usd,fills,maker_share,uptime_two_sided,inside_reward_spread,markout_60s_bps,duration_s,error');
    expect(csv).toHaveLength(13);
    expect(readFileSync(join(cut, 'leaderboard.csv'), 'utf8').split('\n')[0]).toContain('net@w1');
  }, 240_000);

  it('runs random and halving searches, and refuses to resume when the inputs changed', async () => {
    const random = join(dir, 'random.yaml');
    writeFileSync(random, 'search: random\nsamples: 3\nseed: 5\ngrid:\n  bot.strategies.0.params.halfSpreadTicks: { int: [1, 3] }\n  bot.strategies.0.params.levels: [1, 2]\n');
    const r = await mmbot(['sweep', '--config', CONFIG, '--grid', random, '--windows', '2', '--workers', '1', '--out', join(dir, 'random')]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/3 points × 2 window\(s\) = 6 jobs/);
    const halving = join(dir, 'halving.yaml');
    writeFileSync(halving, 'search: halving\neta: 2\nrungs: [2m, all]\ngrid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3, 4]\n');
    const h = await mmbot(['sweep', '--config', CONFIG, '--grid', halving, '--workers', '1', '--out', join(dir, 'halving')]);
    expect(h.code, h.out).toBe(0);
    expect(h.out).toMatch(/successive halving: 4 candidates over 2 rungs, ≤ 6 jobs/);
    expect(JSON.parse(readFileSync(join(dir, 'halving', 'halving.json'), 'utf8'))).toHaveLength(2);
    expect(readFileSync(join(dir, 'halving', 'sweep.csv'), 'utf8').trim().split('\n')).toHaveLength(7);
    // The plan's grid file changed: its jobs differ, so resuming would mix two sweeps.
    writeFileSync(halving, 'search: halving\neta: 2\nrungs: [2m, all]\ngrid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 2, 3, 5]\n');
    await expect(sweep.run(['--resume', join(dir, 'halving')])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/changed since the sweep was planned/) });
  }, 120_000);

  it('takes explicit windows (--window name=from/to), ISO or epoch ms, open-ended', async () => {
    expect(parseWindowFlag('first=/2026-11-18T16:00:00Z')).toEqual({ id: 'first', startMs: null, endMs: Date.parse('2026-11-18T16:00:00Z') });
    expect(parseWindowFlag('1795017600000/')).toEqual({ startMs: 1795017600000, endMs: null });
    expect(() => parseWindowFlag('yesterday')).toThrow(/expected \[name=\]from\/to/);
    expect(() => parseWindowFlag('2026-11-18T16:00:00/')).toThrow(/not epoch ms or an ISO time with a zone/);
    const one = join(dir, 'one.yaml');
    writeFileSync(one, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [2]\n');
    const r = await mmbot(['sweep', '--config', CONFIG, '--grid', one, '--window', 'before=/1795017600000', '--window', 'after=1795017600000/', '--workers', '1', '--out', join(dir, 'explicit')]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/1 points × 2 window\(s\) = 2 jobs/);
    const runs = readFileSync(join(dir, 'explicit', 'sweep.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(runs.map((c) => c[2])).toEqual(['before', 'after']);
    expect(runs.map((c) => Math.round(Number(c[13])))).toEqual([237, 241]); // seconds of market either side of 16:00:00.000
  }, 60_000);

  it('refuses an --out that holds another sweep or a walk-forward (OUTPUT_IN_USE, exit 2) unless --force, and never mixes journals', async () => {
    const a = join(dir, 'grid-a.yaml');
    const b = join(dir, 'grid-b.yaml');
    writeFileSync(a, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [2]\n');
    writeFileSync(b, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [3]\n');
    const out = join(dir, 'taken');
    const first = await mmbot(['sweep', '--config', CONFIG, '--grid', a, '--workers', '1', '--out', out]);
    expect(first.code, first.out).toBe(0);
    const plan = readFileSync(join(out, 'sweep.json'), 'utf8');
    const journal = readFileSync(join(out, 'results.jsonl'), 'utf8');
    // Another grid into the same folder: refused before anything is written, naming the folder and the sweep it holds.
    const other = await mmbot(['sweep', '--config', CONFIG, '--grid', b, '--workers', '1', '--out', out]);
    expect(other.code, other.out).toBe(2);
    expect(other.out).toContain(`--out ${out} holds a sweep of ${a} on ${CONFIG} (1 job(s) planned by code`);
    expect(other.out).toMatch(/with 1 journaled result\(s\): writing this sweep there would mix two journals .* continue it with mmbot sweep --resume .* or pass --force/);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(plan);
    expect(readFileSync(join(out, 'results.jsonl'), 'utf8')).toBe(journal);
    // The same sweep again is no conflict (its journal is reused), and it stays resumable.
    const again = await mmbot(['sweep', '--config', CONFIG, '--grid', a, '--workers', '1', '--out', out]);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('1 done already (journal)');
    // A walk-forward into a sweep's folder is refused too (checked before anything runs).
    await expect(wf.run(['--config', CONFIG, '--grid', b, '--train', '2m', '--test', '1m', '--out', out])).rejects.toMatchObject({ code: 'OUTPUT_IN_USE', message: expect.stringContaining(`--out ${out} holds a sweep of ${a}`) });
    await expect(sweep.run(['--resume', out, '--force'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/drop --force/) });
    // --force replaces it: the old plan, journal and reports go; only the new sweep's results remain.
    const forced = await mmbot(['sweep', '--config', CONFIG, '--grid', b, '--workers', '1', '--out', out, '--force']);
    expect(forced.code, forced.out).toBe(0);
    expect(forced.out).toContain(`sweep: --force: replaced a sweep of ${a}`);
    expect(forced.out).not.toMatch(/done already/);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(readFileSync(join(out, 'leaderboard.csv'), 'utf8')).toMatch(/\n1,3,/);
    // A walk-forward's folder (journal, no sweep plan) is refused to a sweep.
    const wfDir = join(dir, 'wf-taken');
    mkdirSync(wfDir);
    writeFileSync(join(wfDir, 'results.jsonl'), journal);
    writeFileSync(join(wfDir, 'walk-forward.json'), '{}');
    await expect(sweep.run(['--config', CONFIG, '--grid', a, '--out', wfDir])).rejects.toMatchObject({ code: 'OUTPUT_IN_USE', message: expect.stringContaining(`--out ${wfDir} holds a walk-forward with 1 journaled result(s)`) });
    expect(existsSync(join(wfDir, 'sweep.json'))).toBe(false);
  }, 120_000);

  it('Ctrl-C (SIGINT) stops with the journal intact, exits 130 and says how to resume', async () => {
    const cut = join(dir, 'sigint');
    let sent = false;
    const r = await mmbot(['sweep', '--config', CONFIG, '--grid', GRID, '--windows', '2', '--workers', '1', '--out', cut], () => {
      if (!sent && journalLines(cut) >= 2) {
        sent = true;
        process.kill(pidOf(cut), 'SIGINT');
      }
    });
    const k = journalLines(cut);
    expect(r.code, r.out).toBe(130);
    expect(r.out).toContain(`sweep: SIGINT: stopped with ${k} of 12 results in ${join(cut, 'results.jsonl')}`);
    expect(r.out).toContain(`continue with: mmbot sweep --resume ${cut}`);
    expect(r.out).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    const resumed = await mmbot(['sweep', '--resume', cut, '--workers', '1']);
    expect(resumed.code, resumed.out).toBe(0);
    expect(resumed.out).toContain(`${k} done already (journal)`);
    expect(journalLines(cut)).toBe(12);
  }, 120_000);

  it('checks every flag and window before planning: nothing is written or run for a bad one', async () => {
    const base = ['--config', CONFIG, '--grid', GRID];
    const cases: [string[], RegExp][] = [
      [['--top', '0'], /--top must be an integer/],
      [['--workers', '0'], /--workers must be an integer/],
      [['--drawdown-floor', '0'], /--drawdown-floor: expected a drawdown floor in USD above 0/],
      [['--results-ttl', 'soon'], /--results-ttl \(or never\): expected a duration/],
      [['--heatmap', 'nope,levels'], /--heatmap: "nope" is not a grid axis/],
      [['--window', 'early=1/2'], /--window early=1\/2: outside the data, which spans 2026-11-18T15:56:02\.686Z to 2026-11-18T16:04:01\.526Z/],
      [['--window', '2026-11-18T16:10:00Z/'], /--window 2026-11-18T16:10:00Z\/: outside the data/],
    ];
    for (const [flags, re] of cases) {
      const out = join(dir, `early-${flags.join('')}`.replace(/[^A-Za-z0-9-]/g, '_'));
      await expect(sweep.run([...base, ...flags, '--out', out]), flags.join(' ')).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(re) });
      expect(existsSync(out), flags.join(' ')).toBe(false);
    }
  }, 30_000);

  it('names the grid point whose value the config rejects, and only then', async () => {
    const bad = join(dir, 'bad-value.yaml');
    writeFileSync(bad, 'grid:\n  bot.strategies.0.params.levels: [1, 0]\n');
    await expect(sweep.run(['--config', CONFIG, '--grid', bad, '--out', join(dir, 'bad-value')])).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/^grid point 2 \(bot\.strategies\.0\.params\.levels=0\): .*backtest\.yaml: bot\.strategies\[0\]\.params\.levels: Too small/),
    });
    // A config that cannot be read is the config's problem whatever the point.
    await expect(sweep.run(['--config', join(dir, 'missing.yaml'), '--grid', GRID])).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: `cannot read config ${join(dir, 'missing.yaml')}: ENOENT` });
  }, 30_000);

  it('names a bad or unreachable --backend', async () => {
    const base = ['--config', CONFIG, '--grid', GRID, '--out', join(dir, 'bad')];
    await expect(sweep.run([...base, '--backend', 'redis://127.0.0.1:1'])).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE', message: expect.stringMatching(/cannot reach the backend redis:\/\/127\.0\.0\.1:1: ECONNREFUSED/) });
    await expect(sweep.run([...base, '--backend', 'http://127.0.0.1:6379'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--backend http:\/\/127\.0\.0\.1:6379: unsupported scheme/) });
    await expect(sweep.run([...base, '--backend', 'redis://:pw@'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/not a URL|no host/) });
    await expect(sweep.run([...base, '--backend', 'redis://'])).rejects.toMatchObject({ code: 'USAGE', message: '--backend redis://: no host (expected redis://host:port)' });
    await expect(worker.run(['--backend', 'redis://user:secret@127.0.0.1:1'])).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE', message: expect.stringMatching(/redis:\/\/user:\*\*\*@127\.0\.0\.1:1/) });
    await expect(worker.run(['--backend', 'embedded'])).rejects.toMatchObject({ code: 'USAGE' });
    await expect(worker.run([])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--backend redis:\/\/host:port is required/) });
    await expect(sweep.run(['--resume', join(dir, 'nowhere')])).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.stringMatching(/cannot resume/) });
  }, 30_000);
});

describe('backend error log', () => {
  it('reports a repeated connection error once per 30 s with a count, a new error at once', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const log = backendErrorLog((l) => lines.push(l));
      const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');
      for (let k = 0; k < 50; k++) {
        log(refused);
        vi.advanceTimersByTime(200);
      }
      log(new Error('WRONGPASS'));
      vi.advanceTimersByTime(30_000);
      log(refused);
      expect(lines).toEqual([
        'connect ECONNREFUSED 127.0.0.1:6379 (reconnecting)',
        'connect ECONNREFUSED 127.0.0.1:6379 (49 more time(s))',
        'WRONGPASS (reconnecting)',
        'connect ECONNREFUSED 127.0.0.1:6379 (reconnecting)',
      ]);
      lines.length = 0;
      for (let k = 0; k < 5; k++) {
        log(refused);
        vi.advanceTimersByTime(15_000);
      }
      expect(lines).toEqual([
        'connect ECONNREFUSED 127.0.0.1:6379 (reconnecting; 2 more since the last report)',
        'connect ECONNREFUSED 127.0.0.1:6379 (reconnecting; 1 more since the last report)',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the printed ranking', () => {
  it('shows the objective once: a figure that is the objective gets no second column', () => {
    const point: GridPoint = [['bot.strategies.0.params.levels', 2]];
    const metrics = { net: 5, netWithRewards: 5.5, sharpe: 1.5, maxDrawdown: 0.5, fills: 40, markout60sBps: 1, error: null };
    const head = (objective: Objective): string => printTable(buildLeaderboard([point], [{ point, windowId: 'w1', metrics }], objective), 10).split('\n')[1]!.trim();
    expect(head('net').split(/\s+/)).toEqual(['#', 'levels', 'net', 'maxDD', 'fills', 'sharpe', 'windows']);
    expect(head('fills').split(/\s+/)).toEqual(['#', 'levels', 'fills', 'net', 'maxDD', 'sharpe', 'windows']);
    expect(head('pnl_over_drawdown').split(/\s+/)).toEqual(['#', 'levels', 'pnl_over_drawdown', 'net', 'maxDD', 'fills', 'sharpe', 'windows']);
    const lb = buildLeaderboard([point], [{ point, windowId: 'rung1', metrics }], 'net');
    expect(printTable(lb, 10).split('\n')[0]).toBe('ranked by net over 1 window(s):');
    expect(printTable(lb, 10, true).split('\n')[0]).toBe("ranked by net: points that reached a later rung first, then by their last rung's net (figures of that rung; compare values only within a rung):");
    expect(printTable(lb, 10, true).split('\n')[1]!.trim().split(/\s+/)).toEqual(['#', 'levels', 'rung', 'net', 'maxDD', 'fills', 'sharpe', 'windows']);
  });
});
