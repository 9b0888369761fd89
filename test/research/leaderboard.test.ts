import { describe, expect, it } from 'vitest';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import { heatAxes, heatMap } from '../../src/research/heatmap.ts';
import { leaderboardHtml } from '../../src/research/leaderboard-html.ts';
import { aggregateMetrics, buildLeaderboard, leaderboardCsv, leaderboardJson, type Observation } from '../../src/research/leaderboard.ts';
import { compareObjective, objectiveValue, parseDrawdownFloor, parseObjective, type RunMetrics } from '../../src/research/objective.ts';

const m = (net: number, maxDrawdown: number, extra: Partial<RunMetrics> = {}): RunMetrics => ({ net, netWithRewards: net + 1, sharpe: net, maxDrawdown, fills: 10, markout60sBps: 1, error: null, ...extra });
const pt = (a: number, b: string): GridPoint => [['bot.strategies.0.params.halfSpreadTicks', a], ['backtest.queue_model.kind', b]];
const points = [pt(1, 'x'), pt(1, 'y'), pt(2, 'x'), pt(2, 'y')];
const obs = (p: GridPoint, windowId: string, metrics: RunMetrics): Observation => ({ point: p, windowId, metrics });

describe('objectives', () => {
  it('pnl_over_drawdown divides by the worst drawdown, floored at one cent', () => {
    expect(objectiveValue(m(10, 2), 'pnl_over_drawdown')).toBe(5);
    expect(objectiveValue(m(0.5, 0), 'pnl_over_drawdown')).toBeCloseTo(50);
    expect(objectiveValue(m(0, 0), 'pnl_over_drawdown')).toBe(0);
    expect(objectiveValue(m(10, 2, { error: 'boom' }), 'net')).toBeNaN();
    // The floor is an option: a flat run scores net / floor.
    expect(objectiveValue(m(0.5, 0), 'pnl_over_drawdown', 0.25)).toBe(2);
    expect(objectiveValue(m(10, 2), 'pnl_over_drawdown', 0.25)).toBe(5);
    expect(parseDrawdownFloor('0.05', '--drawdown-floor', 'USAGE')).toBe(0.05);
    for (const bad of ['0', '-1', 'x', '']) expect(() => parseDrawdownFloor(bad, '--drawdown-floor', 'USAGE')).toThrow(/--drawdown-floor: expected a drawdown floor in USD above 0/);
    const lb = buildLeaderboard(points.slice(0, 2), [obs(points[0]!, 'w1', m(0.5, 0)), obs(points[1]!, 'w1', m(3, 1))], 'pnl_over_drawdown', 0.25);
    expect(lb.entries.map((e) => [e.pointIndex, e.objective])).toEqual([[1, 3], [0, 2]]);
    expect(JSON.parse(leaderboardJson(lb)).objective_definition).toMatch(/drawdown floored at 0\.25 USD/);
    expect(leaderboardHtml(lb, { heatmap: null })).toMatch(/drawdown floored at 0\.25 USD/);
  });
  it('orders best first, lower drawdown first, NaN last', () => {
    expect([3, NaN, 5, 1].sort((a, b) => compareObjective(a, b, 'net'))).toEqual([5, 3, 1, NaN]);
    expect([3, NaN, 5, 1].sort((a, b) => compareObjective(a, b, 'max_drawdown'))).toEqual([1, 3, 5, NaN]);
    expect(() => parseObjective('pnl', 'g.yaml: objective')).toThrow(/g\.yaml: objective: expected one of pnl_over_drawdown, net/);
  });
});

describe('leaderboard aggregation and ranking', () => {
  it('sums nets and fills, keeps the worst drawdown, averages Sharpe, fill-weights the markout', () => {
    const a = aggregateMetrics([m(3, 1, { fills: 10, markout60sBps: 2 }), m(-1, 4, { fills: 30, markout60sBps: -2 }), m(100, 0, { error: 'x' })]);
    expect(a).toMatchObject({ net: 2, netWithRewards: 4, maxDrawdown: 4, fills: 40, sharpe: 1, error: null });
    expect(a.markout60sBps).toBeCloseTo(-1);
  });

  it('leaves windows without a Sharpe out of the mean Sharpe (not averaged in as 0) and counts the ones with one', () => {
    const runs = [m(1, 1, { sharpe: 4 }), m(1, 1, { sharpe: NaN }), m(1, 1, { sharpe: 2 })];
    expect(aggregateMetrics(runs).sharpe).toBe(3); // (4 + 2) / 2, not (4 + 0 + 2) / 3
    expect(aggregateMetrics([m(1, 1, { sharpe: NaN })]).sharpe).toBeNaN();
    const lb = buildLeaderboard(points.slice(0, 2), [obs(points[0]!, 'w1', runs[0]!), obs(points[0]!, 'w2', runs[1]!), obs(points[0]!, 'w3', runs[2]!), obs(points[1]!, 'w1', m(1, 1, { sharpe: NaN }))], 'sharpe');
    expect(lb.entries.map((e) => [e.pointIndex, e.objective, e.sharpeWindows])).toEqual([[0, 3, 2], [1, NaN, 0]]);
    expect(lb.entries[0]!.perWindow).toEqual([4, NaN, 2]);
    const csv = leaderboardCsv(lb).trim().split('\n');
    expect(csv[0]).toMatch(/,sharpe_mean,sharpe_windows,fills,/);
    expect(csv[1]).toMatch(/,3\.0000,2,30,/);
    const json = JSON.parse(leaderboardJson(lb)) as { entries: { sharpe_mean: number | null; sharpe_windows: number }[] };
    expect(json.entries.map((e) => [e.sharpe_mean, e.sharpe_windows])).toEqual([[3, 2], [null, 0]]);
    expect(leaderboardHtml(lb, { heatmap: null })).toContain('<td>3.00 (2/3)</td>');
  });

  it('ranks by the objective on the aggregate, ties in point order, failures after complete points', () => {
    const o = [
      obs(points[0]!, 'w1', m(4, 2)), obs(points[0]!, 'w2', m(2, 1)), // 6 / 2 = 3
      obs(points[1]!, 'w1', m(10, 1)), obs(points[1]!, 'w2', m(-4, 5)), // 6 / 5 = 1.2
      obs(points[2]!, 'w1', m(3, 1)), obs(points[2]!, 'w2', m(3, 2)), // 6 / 2 = 3 (tie with point 0)
      obs(points[3]!, 'w1', m(50, 1)), obs(points[3]!, 'w2', m(0, 0, { error: 'boom' })),
    ];
    const lb = buildLeaderboard(points, o, 'pnl_over_drawdown');
    expect(lb.entries.map((e) => e.pointIndex)).toEqual([0, 2, 1, 3]);
    expect(lb.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4]);
    expect(lb.entries[0]!.perWindow).toEqual([2, 2]);
    expect(lb.entries[3]).toMatchObject({ windows: 2, failed: 1, error: 'boom' });
    // Same inputs in another order: the same ranking.
    expect(buildLeaderboard(points, [...o].reverse(), 'pnl_over_drawdown').entries.map((e) => e.pointIndex)).toEqual([0, 2, 1, 3]);
    expect(buildLeaderboard(points, o, 'max_drawdown').entries.map((e) => e.pointIndex)).toEqual([0, 2, 1, 3]);
    expect(buildLeaderboard(points, o, 'net').entries.map((e) => e.pointIndex)).toEqual([0, 1, 2, 3]);
  });

  it('writes CSV with one column per axis and per window, and JSON with nulls for missing figures', () => {
    const lb = buildLeaderboard(points.slice(0, 2), [obs(points[0]!, 'w1', m(1, 0.5, { markout60sBps: NaN })), obs(points[1]!, 'w1', m(-1, 2))], 'net');
    const csv = leaderboardCsv(lb).trim().split('\n');
    expect(csv[0]).toBe('rank,bot.strategies.0.params.halfSpreadTicks,backtest.queue_model.kind,net,net_usd,net_with_rewards_usd,max_drawdown_usd,sharpe_mean,sharpe_windows,fills,markout_60s_bps,windows,failed,net@w1,error');
    expect(csv[1]).toBe('1,1,x,1.000000,1.000000,2.000000,0.500000,1.0000,1,10,,1,0,1.000000,');
    const json = JSON.parse(leaderboardJson(lb)) as { entries: { params: Record<string, unknown>; markout_60s_bps: unknown; per_window: Record<string, number> }[] };
    expect(json.entries[0]!.params).toEqual({ 'bot.strategies.0.params.halfSpreadTicks': 1, 'backtest.queue_model.kind': 'x' });
    expect(json.entries[0]!.markout_60s_bps).toBeNull();
    expect(json.entries[1]!.per_window).toEqual({ w1: -1 });
  });
});

describe('heat map', () => {
  it('defaults to the first two axes, resolves short names, rejects unknown ones', () => {
    const axes = points[0]!.map(([p]) => p);
    expect(heatAxes(axes, undefined)).toEqual([axes[0], axes[1]]);
    expect(heatAxes(axes, 'kind,halfSpreadTicks')).toEqual([axes[1], axes[0]]);
    expect(() => heatAxes(axes, 'kind,size')).toThrow(/"size" is not a grid axis/);
    expect(() => heatAxes(axes, 'kind')).toThrow(/expected two parameters/);
  });

  it('keeps the best point over the other axes in each cell and bins many numeric values', () => {
    const three: GridPoint[] = [];
    for (const a of [2, 1]) for (const b of ['x', 'y']) for (const c of [10, 20]) three.push([['a', a], ['b', b], ['c', c]]);
    const o = three.map((p, k) => obs(p, 'w', m(k, 1)));
    const lb = buildLeaderboard(three, o, 'net');
    const h = heatMap(lb, 'a', 'b');
    expect(h.x.labels).toEqual(['1', '2']); // numeric values sorted
    expect(h.others).toEqual(['c']);
    expect(h.cells[0]![1]).toMatchObject({ value: 1, count: 2 }); // a=2, b=x: best of c=10 (0) and c=20 (1)
    expect(h.cells[1]![0]).toMatchObject({ value: 7, count: 2 });
    const html = leaderboardHtml(lb, { heatmap: ['a', 'b'] });
    expect(html).toContain('best net over them');
    expect(html).not.toMatch(/<script|https?:/);
    const many: GridPoint[] = Array.from({ length: 40 }, (_, k) => [['lr', 0.001 * 1.2 ** k], ['b', k % 2 ? 'p' : 'q']]);
    const hm = heatMap(buildLeaderboard(many, many.map((p, k) => obs(p, 'w', m(k, 1))), 'net'), 'lr', 'b');
    expect(hm.x.binned).toBe(true);
    expect(hm.x.labels).toHaveLength(8);
    expect(hm.cells.flat().filter((c) => c !== null).reduce((s, c) => s + c!.count, 0)).toBe(40);
  });
});
