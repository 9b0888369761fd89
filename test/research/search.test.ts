import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import { formatDurationMs, parseDurationMs } from '../../src/research/duration.ts';
import { halvingLeaderboard, halvingPlan, runHalving } from '../../src/research/halving.ts';
import type { DataWindow } from '../../src/research/windows.ts';
import { halvingJson, halvingTable } from '../../src/research/halving-report.ts';
import { leaderboardCsv, type Observation } from '../../src/research/leaderboard.ts';
import { sampleRandom, seededUniform, type AxisSpec } from '../../src/research/random-search.ts';
import { candidatePoints, loadSearchFile } from '../../src/research/search-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('durations', () => {
  it('parses units and combinations, rejects the rest naming where', () => {
    expect(parseDurationMs('90s', 'x')).toBe(90_000);
    expect(parseDurationMs('2m', 'x')).toBe(120_000);
    expect(parseDurationMs('1h30m', 'x')).toBe(5_400_000);
    expect(parseDurationMs('250ms', 'x')).toBe(250);
    expect(parseDurationMs('1.5m', 'x')).toBe(90_000);
    for (const bad of ['2', '2 min', '-1m', '0s', 'm', 120]) expect(() => parseDurationMs(bad, '--train')).toThrow(/--train: expected a duration like 90s/);
    expect(formatDurationMs(90_000)).toBe('1m30s');
    expect(formatDurationMs(3_600_000)).toBe('1h');
    expect(formatDurationMs(1500)).toBe('1.5s');
    expect(formatDurationMs(478_840)).toBe('7m58.84s');
    expect(formatDurationMs(250)).toBe('250ms');
    expect(parseDurationMs(formatDurationMs(478_840), 'x')).toBe(478_840);
  });
});

describe('random search', () => {
  const axes: AxisSpec[] = [
    { path: 'a', kind: 'uniform', low: 1, high: 2 },
    { path: 'b', kind: 'log_uniform', low: 0.001, high: 1 },
    { path: 'c', kind: 'int', low: 1, high: 3 },
    { path: 'd', kind: 'list', values: ['x', 'y'] },
  ];
  it('is deterministic for a seed and differs across seeds', () => {
    expect(sampleRandom(axes, 20, 7)).toEqual(sampleRandom(axes, 20, 7));
    expect(sampleRandom(axes, 20, 7)).not.toEqual(sampleRandom(axes, 20, 8));
    const u = seededUniform(42);
    const first = [u(), u(), u()];
    const v = seededUniform(42);
    expect([v(), v(), v()]).toEqual(first);
  });

  it('draws within each distribution: uniform spread, log-uniform even in log space, ints inclusive', () => {
    const pts = sampleRandom(axes, 2000, 3);
    const col = (k: number): number[] => pts.map((p) => p[k]![1] as number);
    const a = col(0);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...a)).toBeLessThan(2);
    expect(a.filter((x) => x < 1.5).length / a.length).toBeGreaterThan(0.45);
    expect(a.filter((x) => x < 1.5).length / a.length).toBeLessThan(0.55);
    const b = col(1);
    // log-uniform on [0.001, 1]: a third of the draws below 0.01, a third above 0.1.
    expect(b.filter((x) => x < 0.01).length / b.length).toBeGreaterThan(0.28);
    expect(b.filter((x) => x < 0.01).length / b.length).toBeLessThan(0.39);
    expect(b.filter((x) => x > 0.1).length / b.length).toBeGreaterThan(0.28);
    expect(new Set(col(2))).toEqual(new Set([1, 2, 3]));
    expect(new Set(pts.map((p) => p[3]![1]))).toEqual(new Set(['x', 'y']));
  });

  it('dedupes points and stops at the size of a small discrete space', () => {
    const small: AxisSpec[] = [{ path: 'c', kind: 'int', low: 1, high: 3 }, { path: 'd', kind: 'list', values: ['x', 'y'] }];
    const pts = sampleRandom(small, 50, 1);
    expect(pts).toHaveLength(6);
    expect(new Set(pts.map((p) => JSON.stringify(p))).size).toBe(6);
    expect(sampleRandom(small, 4, 1)).toEqual(pts.slice(0, 4));
  });
});

describe('grid files', () => {
  it('reads random and halving files with distributions, defaults and the old rank_by', () => {
    const r = loadSearchFile(file('r.yaml', 'search: random\nsamples: 5\nseed: 9\ngrid:\n  p.size: { int: [100, 300] }\n  p.k: { log_uniform: [0.01, 1] }\n  p.m: [a, b]\nobjective: net\n'));
    expect(r).toMatchObject({ search: 'random', samples: 5, seed: 9, objective: 'net' });
    expect(candidatePoints(r)).toHaveLength(5);
    expect(candidatePoints(r)).toEqual(candidatePoints(r));
    const h = loadSearchFile(file('h.yaml', 'search: halving\neta: 2\nrungs: [1m, 2m, all]\ngrid:\n  p.a: [1, 2, 3, 4]\n'));
    expect(h).toMatchObject({ search: 'halving', eta: 2, rungsMs: [60_000, 120_000, null], objective: 'pnl_over_drawdown' });
    expect(candidatePoints(h)).toHaveLength(4);
    expect(loadSearchFile(file('g.yaml', 'grid: { a: [1] }\nrank_by: sharpe\n')).objective).toBe('sharpe');
  });

  it('rejects bad files naming the file and key', () => {
    const cases: [string, RegExp][] = [
      ['grid: { a: [1] }\nsearch: bayes\n', /b1\.yaml: search: expected one of grid, random, halving/],
      ['grid: { a: { uniform: [0, 1] } }\n', /b1\.yaml: grid\.a: a uniform distribution needs search: random or halving/],
      ['search: random\ngrid: { a: [1] }\n', /b1\.yaml: samples: search: random needs samples/],
      ['search: random\nsamples: 3\ngrid: { a: { uniform: [2, 1] } }\n', /b1\.yaml: grid\.a\.uniform: expected high > low/],
      ['search: random\nsamples: 3\ngrid: { a: { log_uniform: [0, 1] } }\n', /grid\.a\.log_uniform: expected low > 0/],
      ['search: random\nsamples: 3\ngrid: { a: { int: [0.5, 3] } }\n', /grid\.a\.int: expected two integers/],
      ['search: random\nsamples: 3\ngrid: { a: { normal: [0, 1] } }\n', /grid\.a: expected a list of values or one of/],
      ['search: random\nsamples: 0\ngrid: { a: [1] }\n', /b1\.yaml: samples: expected an integer >= 1/],
      ['grid: { a: [1] }\nsamples: 4\n', /b1\.yaml: samples: only for search: random or halving/],
      ['grid: { a: [1] }\neta: 3\n', /b1\.yaml: eta: only for search: halving/],
      ['search: halving\neta: 1\ngrid: { a: [1] }\n', /b1\.yaml: eta: expected an integer >= 2/],
      ['search: halving\nmin_window: 30\ngrid: { a: [1] }\n', /b1\.yaml: min_window: expected a duration like 90s/],
      ['search: halving\nrungs: [2m, 1m]\ngrid: { a: [1] }\n', /b1\.yaml: rungs\.1: each rung must be longer/],
      ['search: halving\nrungs: [1m, 2m]\nmin_window: 1m\ngrid: { a: [1] }\n', /give min_window or rungs, not both/],
      ['grid: { a: [1] }\nobjective: pnl\n', /b1\.yaml: objective: expected one of pnl_over_drawdown/],
      ['grid: { a: [1] }\nobjective: net\nrank_by: net\n', /give objective or rank_by/],
      ['grid: { a: [] }\n', /b1\.yaml: grid\.a: expected a non-empty list/],
      ['grids: {}\n', /b1\.yaml: unknown key "grids"/],
      ['- 1\n', /b1\.yaml: expected a mapping/],
      ['grid: { a: [1, 2, 1] }\n', /b1\.yaml: grid\.a: value 1 appears more than once/],
      ['grid: { a: [{ x: 1, y: 2 }, { y: 2, x: 1 }] }\n', /grid\.a: value \{"x":1,"y":2\} appears more than once/],
      ['grid: [\n', /b1\.yaml: not YAML: .*line 2/],
    ];
    for (const [text, re] of cases) expect(() => loadSearchFile(file('b1.yaml', text)), text).toThrow(re);
    expect(() => loadSearchFile(join(dir, 'missing.yaml'))).toThrow(/cannot read grid .*missing\.yaml: ENOENT/);
  });
});

describe('successive halving', () => {
  const span = { startMs: 1_000_000, endMs: 1_000_000 + 480_000 }; // 8 minutes

  it('plans rungs growing by eta up to the whole data', () => {
    const p = halvingPlan(span, 9, 3, null, null, 'g.yaml');
    expect(p.map((r) => r.lengthMs)).toEqual([53_333, 160_000, 480_000]);
    expect(p.map((r) => r.candidates)).toEqual([9, 3, 1]);
    expect(p[0]!.window).toEqual({ id: 'rung1', startMs: null, endMs: 1_053_333 });
    expect(p[2]!.window).toEqual({ id: 'rung3', startMs: null, endMs: null });
    expect(halvingPlan(span, 9, 2, 60_000, null, 'g').map((r) => r.lengthMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(halvingPlan(span, 9, 2, null, [30_000, 90_000, null], 'g').map((r) => r.lengthMs)).toEqual([30_000, 90_000, 480_000]);
    expect(() => halvingPlan(span, 9, 2, null, [30_000, 600_000], 'g.yaml')).toThrow(/g\.yaml: rungs\.1: 10m is longer than the data \(8m\)/);
    expect(() => halvingPlan(span, 9, 2, 600_000, null, 'g.yaml')).toThrow(/g\.yaml: min_window/);
    // A thousand candidates on 8 minutes: the first rung stays at least 1 s long.
    expect(halvingPlan(span, 1000, 3, null, null, 'g')[0]!.lengthMs).toBeGreaterThanOrEqual(1000);
  });

  it('keeps the best 1/eta on each rung, skips failures, and ranks later rungs first', async () => {
    const pts: GridPoint[] = Array.from({ length: 9 }, (_, k) => [['a', k]]);
    const calls: { window: DataWindow; n: number }[] = [];
    // Fake backtests: score = a, except a=8 which fails and a=6 which does best on the second rung's longer window.
    const run = async (points: readonly GridPoint[], window: DataWindow): Promise<Observation[]> => {
      calls.push({ window, n: points.length });
      return points.map((p) => {
        const a = p[0]![1] as number;
        const net = window.id === 'rung2' && a === 6 ? 100 : a;
        return { point: p, windowId: window.id, metrics: { net, netWithRewards: net, sharpe: 0, maxDrawdown: 1, fills: 1, markout60sBps: 0, error: a === 8 ? 'boom' : null } };
      });
    };
    const plan = halvingPlan(span, pts.length, 3, null, null, 'g');
    const rungs = await runHalving(pts, plan, 'net', 3, run);
    expect(calls.map((c) => c.n)).toEqual([9, 3, 1]);
    expect(rungs[0]!.survivors.map((p) => p[0]![1])).toEqual([7, 6, 5]); // 8 failed
    expect(rungs[1]!.survivors.map((p) => p[0]![1])).toEqual([6]);
    expect(calls[2]!.window.endMs).toBeNull(); // the last rung replays the whole data
    const lb = halvingLeaderboard(rungs, pts, 'net');
    expect(lb.entries.map((e) => e.point[0]![1])).toEqual([6, 7, 5, 4, 3, 2, 1, 0, 8]);
    expect(lb.entries[0]!.perWindow).toEqual([6, 100, 6]);
    expect(lb.entries[3]!.perWindow).toEqual([4, null, null]);
    expect(halvingTable(rungs).split('\n')).toHaveLength(4);
    expect(lb.staged).toBe(true);
    expect(lb.entries.map((e) => e.rung)).toEqual([3, 2, 2, 1, 1, 1, 1, 1, 1]);
    // Figures are the last rung's: one window, whose Sharpe (0 in these fakes) is defined.
    expect(lb.entries.slice(0, 3).map((e) => [e.windows, e.metricWindows, e.sharpeWindows])).toEqual([[3, 1, 1], [2, 1, 1], [2, 1, 1]]);
    const { sharpeCell } = await import('../../src/research/leaderboard-html.ts');
    expect(sharpeCell(lb.entries[0]!)).toBe('0.00'); // not "0.00 (1/3)": the rungs are not its Sharpe's windows
    expect(leaderboardCsv(lb).split('\n')[0]).toMatch(/^rank,a,rung,net,/);
    expect(leaderboardCsv(lb).split('\n')[1]).toMatch(/^1,6,3,6\.000000,/);
    // Heat maps: one per rung, the last first, each holding only that rung's points and scores
    // (a=6 scored 100 on rung 2 and 6 on rung 3: the two never share a map or a colour scale).
    const { leaderboardHtml } = await import('../../src/research/leaderboard-html.ts');
    const html = leaderboardHtml(lb, { heatmap: ['a', null] });
    const maps = html.split('<table class="heat"').slice(1).map((t) => [...t.split('</table>')[0]!.matchAll(/<td[^>]*>([^<]*)/g)].map((m) => m[1]));
    expect(maps).toEqual([
      ['—', '—', '—', '—', '—', '—', '6.000', '—', '—'],
      ['—', '—', '—', '—', '—', '5.000', '100.000', '7.000', '—'],
      ['0.000', '1.000', '2.000', '3.000', '4.000', '5.000', '6.000', '7.000', '—'],
    ]);
    expect(html).toMatch(/<h3>rung 3 \(first 8m\): 1 point\(s\)<\/h3>[^]*<h3>rung 2 \(first 2m40s\): 3 point\(s\)<\/h3>[^]*<h3>rung 1 \(first 53\.333s\): 9 point\(s\)<\/h3>/);
    expect(html).not.toMatch(/last rung its point reached/);
    expect(JSON.parse(halvingJson(rungs))[1].survivors).toEqual([{ a: 6 }]);
  });
});

describe('example grid files', () => {
  it('every config/grid*.yaml parses, and every candidate is a valid backtest config', async () => {
    const { readdirSync } = await import('node:fs');
    const { loadBacktestSetup } = await import('../../src/cli/commands/backtest.ts');
    const root = join(import.meta.dirname, '../..');
    const files = readdirSync(join(root, 'config')).filter((f) => /^grid.*\.yaml$/.test(f));
    expect(files).toEqual(expect.arrayContaining(['grid.yaml', 'grid-random.yaml', 'grid-halving.yaml', 'grid-walk-forward.yaml']));
    for (const f of files) {
      const s = loadSearchFile(join(root, 'config', f));
      const pts = candidatePoints(s);
      expect(pts.length, f).toBeGreaterThan(1);
      for (const p of pts) await loadBacktestSetup(join(root, 'config/backtest.yaml'), p);
    }
  }, 60_000);
});

describe('runSearch', () => {
  const span = { startMs: 0, endMs: 480_000 };
  const fake = (calls: string[]) => async (pairs: readonly { point: GridPoint; window: DataWindow }[], phase: string): Promise<Observation[]> => {
    calls.push(`${phase}:${pairs.length}`);
    return pairs.map(({ point, window }) => ({ point, windowId: window.id, metrics: { net: point[0]![1] as number, netWithRewards: 0, sharpe: 0, maxDrawdown: 1, fills: 1, markout60sBps: 0, error: null } }));
  };
  it('runs a grid or random sample on every window in one batch', async () => {
    const { runSearch } = await import('../../src/research/search-run.ts');
    const s = loadSearchFile(file('rs.yaml', 'search: random\nsamples: 5\nseed: 3\ngrid:\n  a: { int: [1, 100] }\nobjective: net\n'));
    const calls: string[] = [];
    const windows = [{ id: 'w1', startMs: null, endMs: 240_000 }, { id: 'w2', startMs: 240_000, endMs: null }];
    const out = await runSearch({ search: s, points: candidatePoints(s), windows, span }, fake(calls));
    expect(calls).toEqual(['all:10']);
    expect(out.rungs).toBeNull();
    expect(out.leaderboard.windows).toEqual(['w1', 'w2']);
    const nets = out.leaderboard.entries.map((e) => e.metrics.net);
    expect(nets).toEqual([...nets].sort((x, y) => y - x));
  });
  it('runs successive halving one batch per rung', async () => {
    const { runSearch } = await import('../../src/research/search-run.ts');
    const s = loadSearchFile(file('hs.yaml', 'search: halving\neta: 2\nrungs: [1m, 2m, all]\ngrid:\n  a: [1, 2, 3, 4, 5, 6, 7, 8]\nobjective: net\n'));
    const calls: string[] = [];
    const out = await runSearch({ search: s, points: candidatePoints(s), windows: [], span }, fake(calls));
    expect(calls).toEqual(['rung1:8', 'rung2:4', 'rung3:2']);
    expect(out.rungs!.map((r) => r.survivors.length)).toEqual([4, 2, 0]);
    expect(out.leaderboard.entries[0]!.point).toEqual([['a', 8]]);
  });
  it('ranks pnl_over_drawdown with the grid file\'s drawdown_floor_usd (or the caller\'s), on every rung', async () => {
    const { runSearch } = await import('../../src/research/search-run.ts');
    // a=1 never draws down (net 1), a=2 nets 3 over a 1 USD drawdown: the floor decides which is better.
    const run = async (pairs: readonly { point: GridPoint; window: DataWindow }[]): Promise<Observation[]> =>
      pairs.map(({ point, window }) => {
        const a = point[0]![1] as number;
        return { point, windowId: window.id, metrics: { net: a === 1 ? 1 : 3, netWithRewards: 0, sharpe: 0, maxDrawdown: a === 1 ? 0 : 1, fills: 1, markout60sBps: 0, error: null } };
      });
    const best = async (yaml: string, floor?: number): Promise<unknown[]> => {
      const s = loadSearchFile(file('floor.yaml', yaml));
      const out = await runSearch({ search: s, points: candidatePoints(s), windows: [{ id: 'all', startMs: null, endMs: null }], span, ...(floor === undefined ? {} : { drawdownFloorUsd: floor }) }, run);
      return [out.leaderboard.entries[0]!.point[0]![1], out.leaderboard.entries[0]!.objective, out.leaderboard.drawdownFloorUsd];
    };
    expect(await best('grid:\n  a: [1, 2]\n')).toEqual([1, 100, undefined]); // 1 / 0.01
    expect(await best('grid:\n  a: [1, 2]\ndrawdown_floor_usd: 0.5\n')).toEqual([2, 3, 0.5]); // 1 / 0.5 = 2 < 3
    expect(await best('grid:\n  a: [1, 2]\ndrawdown_floor_usd: 0.5\n', 0.25)).toEqual([1, 4, 0.25]); // the caller's (--drawdown-floor) wins
    expect(await best('search: halving\neta: 2\nrungs: [1m, all]\ngrid:\n  a: [1, 2]\ndrawdown_floor_usd: 0.5\n')).toEqual([2, 3, 0.5]);
    expect(() => loadSearchFile(file('bad-floor.yaml', 'grid:\n  a: [1]\ndrawdown_floor_usd: 0\n'))).toThrow(/bad-floor\.yaml: drawdown_floor_usd: expected a drawdown floor in USD above 0 \(e\.g\. 0\.01\), got 0/);
  });
});
