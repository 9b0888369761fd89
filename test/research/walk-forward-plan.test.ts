import { describe, expect, it } from 'vitest';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import type { Observation } from '../../src/research/leaderboard.ts';
import { efficiencyRatio, planFolds, runWalkForward, spearman, summarise, trainPlans, unscoredTailMs, type PointWindow } from '../../src/research/walk-forward.ts';
import { walkForwardCsv, walkForwardHtml, walkForwardJson, walkForwardTable } from '../../src/research/walk-forward-report.ts';
import { buildLeaderboard } from '../../src/research/leaderboard.ts';

const S = 1_000_000;
const span = { startMs: S, endMs: S + 480_000 }; // 8 minutes

describe('walk-forward fold planning', () => {
  it('rolls train then the next unseen test window forward by the step (default: test)', () => {
    const f = planFolds(span, { trainMs: 120_000, testMs: 60_000, stepMs: 60_000, anchored: false });
    expect(f).toHaveLength(6); // tests at 2–3, 3–4, … 7–8 min
    expect(f[0]).toMatchObject({ trainStartMs: S, testStartMs: S + 120_000, testEndMs: S + 180_000 });
    expect(f[0]!.train).toEqual({ id: 'f1-train', startMs: null, endMs: S + 120_000 });
    expect(f[1]!.train).toEqual({ id: 'f2-train', startMs: S + 60_000, endMs: S + 180_000 });
    expect(f[5]!.test).toEqual({ id: 'f6-test', startMs: S + 420_000, endMs: null }); // ends with the data
    for (const x of f) expect(x.testStartMs).toBe(x.train.endMs); // test follows train, no overlap
    // Test windows never overlap when step = test; a larger step leaves gaps, a smaller one overlaps.
    expect(planFolds(span, { trainMs: 120_000, testMs: 60_000, stepMs: 150_000, anchored: false }).map((x) => x.testStartMs - S)).toEqual([120_000, 270_000, 420_000]);
  });

  it('anchored folds train from the data start on growing windows', () => {
    const f = planFolds(span, { trainMs: 120_000, testMs: 120_000, stepMs: 120_000, anchored: true });
    expect(f.map((x) => [x.trainStartMs - S, x.testStartMs - S, x.testEndMs - S])).toEqual([[0, 120_000, 240_000], [0, 240_000, 360_000], [0, 360_000, 480_000]]);
  });

  it('leaves the data after the last whole test window unscored, or scores it as a flagged partial fold', () => {
    const spec = { trainMs: 120_000, testMs: 100_000, stepMs: 100_000, anchored: false };
    const whole = planFolds(span, spec); // tests at 2–3:40, 3:40–5:20, 5:20–7:00; 60 s left
    expect(whole.map((f) => f.testEndMs - S)).toEqual([220_000, 320_000, 420_000]);
    expect(unscoredTailMs(span, whole)).toBe(60_000);
    const withPartial = planFolds(span, { ...spec, partialLast: true });
    expect(withPartial).toHaveLength(4);
    expect(withPartial[3]).toMatchObject({ partial: true, trainStartMs: S + 300_000, testStartMs: S + 420_000, testEndMs: S + 480_000 });
    expect(withPartial[3]!.test).toEqual({ id: 'f4-test', startMs: S + 420_000, endMs: null });
    expect(withPartial.slice(0, 3).every((f) => f.partial === undefined)).toBe(true);
    expect(unscoredTailMs(span, withPartial)).toBe(0);
    // Under a second left: not worth a fold; data that the folds cover to the end: no tail either way.
    const tiny = { startMs: S, endMs: S + 420_500 };
    expect(planFolds(tiny, { ...spec, partialLast: true })).toHaveLength(3);
    expect(unscoredTailMs(tiny, planFolds(tiny, spec))).toBe(500);
    expect(planFolds(span, { trainMs: 120_000, testMs: 60_000, stepMs: 60_000, anchored: false, partialLast: true })).toHaveLength(6);
    // Data shorter than train + test: with partialLast the one fold tests on what is left after train.
    expect(planFolds(span, { trainMs: 420_000, testMs: 120_000, stepMs: 120_000, anchored: false, partialLast: true })).toMatchObject([{ partial: true, testStartMs: S + 420_000, testEndMs: S + 480_000 }]);
  });

  it('says when train + test do not fit in the data', () => {
    expect(() => planFolds(span, { trainMs: 420_000, testMs: 120_000, stepMs: 120_000, anchored: false })).toThrow(/--train 7m \+ --test 2m is longer than the data \(8m\)/);
    expect(() => planFolds(span, { trainMs: 60_000, testMs: 1000, stepMs: 10, anchored: false })).toThrow(/--step 10ms gives more than 10000 folds/);
  });
});

describe('walk-forward over fake results', () => {
  it('chooses on train, scores on test, and reports OOS rank, best OOS point and efficiency', async () => {
    const points: GridPoint[] = [0, 1, 2, 3].map((a) => [['p.a', a]]);
    const folds = planFolds(span, { trainMs: 120_000, testMs: 120_000, stepMs: 120_000, anchored: false });
    const batches: { phase: string; n: number }[] = [];
    // In sample a=3 always wins; out of sample the order reverses in fold 1 and holds in the others.
    const run = async (pairs: readonly PointWindow[], phase: string): Promise<Observation[]> => {
      batches.push({ phase, n: pairs.length });
      return pairs.map(({ point, window }) => {
        const a = point[0]![1] as number;
        const net = phase === 'train' ? a * 2 : window.id === 'f1-test' ? 3 - a : a;
        return { point, windowId: window.id, metrics: { net, netWithRewards: net, sharpe: 0, maxDrawdown: 1, fills: 5, markout60sBps: 0, error: null } };
      });
    };
    const res = await runWalkForward(points, folds, 'net', run);
    expect(batches).toEqual([{ phase: 'train', n: 12 }, { phase: 'test', n: 12 }]);
    expect(res.map((r) => r.chosen!.point[0]![1])).toEqual([3, 3, 3]);
    expect(res.map((r) => r.chosenTest!.rank)).toEqual([4, 1, 1]);
    expect(res[0]!.test.entries[0]!.point).toEqual([['p.a', 0]]);
    expect(res.map((r) => r.rankCorrelation)).toEqual([-1, 1, 1]);
    const s = summarise(res, 1);
    expect(s).toMatchObject({ folds: 3, scored: 3, meanInSample: 6, meanOutOfSample: 2, totalOutOfSampleNet: 6, stayedBest: 2 });
    expect(s.efficiency).toBeCloseTo(1 / 3);
    expect(s.topKShare).toBeCloseTo(2 / 3);
    expect(s.meanRankCorrelation).toBeCloseTo(1 / 3);
    expect(s.meanOutOfSampleAllPoints).toBeCloseTo(1.5); // test nets 0..3 average 1.5 in every fold
    expect(s.meanOutOfSampleNetAllPoints).toBeCloseTo(1.5);
    const meta = { objective: 'net' as const, dataStartMs: S, trainMs: 120_000, testMs: 120_000, stepMs: 120_000, anchored: false, points: 4 };
    const table = walkForwardTable(res, s, meta);
    expect(table).toMatch(/fold +train +test +chosen in-sample +IS score +OOS score/);
    expect(table).toMatch(/walk-forward efficiency \(mean OOS \/ mean IS score\) +0\.333/);
    expect(walkForwardCsv(res, meta).trim().split('\n')).toHaveLength(4);
    expect(table).not.toMatch(/overlap/);
    // Ranked by net (meta.objective): the net lines once, not an objective line repeating them.
    expect(table).not.toMatch(/mean net: in-sample/);
    expect(table).toMatch(/mean net PnL \(USD\): in-sample \/ out-of-sample +6\.00 \/ 2\.00/);
    expect(table).toMatch(/out-of-sample net PnL \(USD\), chosen vs every point's mean +2\.00 vs 1\.50/);
    expect(walkForwardTable(res, s, { ...meta, stepMs: 60_000 })).toMatch(/test windows overlap: step < test/);
    const json = JSON.parse(walkForwardJson(res, s, meta)) as { folds: { in_sample: { objective: number }; out_of_sample: { objective: number; rank: number } }[]; summary: Record<string, number> };
    expect(json.folds[0]).toMatchObject({ in_sample: { objective: 6 }, out_of_sample: { objective: 0, rank: 4 } });
    expect(json.summary['mean_out_of_sample']).toBe(2);
    expect(walkForwardHtml(res, s, meta)).not.toMatch(/<script|https?:/);
  });

  it('leaves a fold whose test window has no Sharpe out of the objective means (not a 0), and says so', async () => {
    const points: GridPoint[] = [1, 2, 3].map((a) => [['p.a', a]]);
    const folds = planFolds(span, { trainMs: 120_000, testMs: 120_000, stepMs: 120_000, anchored: false });
    // Train Sharpe a; test Sharpe a + 1, except fold 2's test window, which is too short for one.
    const res = await runWalkForward(points, folds, 'sharpe', async (pairs) =>
      pairs.map(({ point, window }) => {
        const a = point[0]![1] as number;
        const sharpe = window.id.endsWith('train') ? a : window.id === 'f2-test' ? NaN : a + 1;
        return { point, windowId: window.id, metrics: { net: 1, netWithRewards: 1, sharpe, maxDrawdown: 1, fills: 1, markout60sBps: 0, error: null } };
      }),
    );
    const s = summarise(res, 3);
    expect(s).toMatchObject({ folds: 3, scored: 3, objectiveFolds: 2, meanInSample: 3, meanOutOfSample: 4 }); // not (4 + 0 + 4) / 3
    expect(s.efficiency).toBeCloseTo(4 / 3);
    expect(s.meanOutOfSampleAllPoints).toBeCloseTo(3); // folds 1 and 3: mean of 2, 3, 4
    const meta = { objective: 'sharpe' as const, dataStartMs: S, trainMs: 120_000, testMs: 120_000, stepMs: 120_000, anchored: false, points: 3 };
    expect(walkForwardTable(res, s, meta)).toMatch(/mean sharpe: in-sample \/ out-of-sample +3\.000 \/ 4\.000 \(over the 2 of 3 scored folds whose test window has a sharpe; a Sharpe needs 30 minutes of varying PnL\)/);
  });

  it('chooses by pnl_over_drawdown with the given drawdown floor, in and out of sample', async () => {
    const points: GridPoint[] = [1, 2].map((a) => [['p.a', a]]);
    const folds = planFolds(span, { trainMs: 240_000, testMs: 120_000, stepMs: 120_000, anchored: false });
    // a=1 never draws down (net 1), a=2 nets 3 over 1 USD: the 1-cent floor picks a=1, a 0.5 USD floor a=2.
    const run = async (pairs: readonly PointWindow[]): Promise<Observation[]> =>
      pairs.map(({ point, window }) => ({ point, windowId: window.id, metrics: { net: point[0]![1] === 1 ? 1 : 3, netWithRewards: 0, sharpe: 0, maxDrawdown: point[0]![1] === 1 ? 0 : 1, fills: 1, markout60sBps: 0, error: null } }));
    expect((await runWalkForward(points, folds, 'pnl_over_drawdown', run)).map((r) => r.chosen!.point[0]![1])).toEqual([1, 1]);
    const floored = await runWalkForward(points, folds, 'pnl_over_drawdown', run, null, 0.5);
    expect(floored.map((r) => [r.chosen!.point[0]![1], r.chosen!.objective, r.chosenTest!.objective])).toEqual([[2, 3, 3], [2, 3, 3]]);
    const meta = { objective: 'pnl_over_drawdown' as const, dataStartMs: S, trainMs: 240_000, testMs: 120_000, stepMs: 120_000, anchored: false, points: 2, drawdownFloorUsd: 0.5 };
    expect(walkForwardTable(floored, summarise(floored, 3), meta)).toMatch(/^objective: pnl_over_drawdown \(net PnL \/ max drawdown \(USD per USD; drawdown floored at 0\.5 USD\)/);
  });

  it('a fold whose train runs all fail chooses nothing and is left out of the means', async () => {
    const points: GridPoint[] = [[['p.a', 1]]];
    const folds = planFolds(span, { trainMs: 240_000, testMs: 120_000, stepMs: 120_000, anchored: false });
    const res = await runWalkForward(points, folds, 'net', async (pairs) => pairs.map(({ point, window }) => ({ point, windowId: window.id, metrics: { net: 1, netWithRewards: 1, sharpe: 0, maxDrawdown: 0, fills: 1, markout60sBps: 0, error: window.id === 'f1-train' ? 'bad' : null } })));
    expect(res[0]!.chosen).toBeNull();
    expect(summarise(res, 3)).toMatchObject({ folds: 2, scored: 1 });
  });

  it('searches each train window by successive halving, one batch per rung across folds', async () => {
    const points: GridPoint[] = [1, 2, 3, 4, 5, 6, 7, 8].map((a) => [['p.a', a]]);
    const folds = planFolds(span, { trainMs: 120_000, testMs: 60_000, stepMs: 120_000, anchored: false });
    const batches: string[] = [];
    const windows = new Map<string, string>();
    // Short rungs favour large a; the whole train window favours a = 5 (a trap for greedy choice).
    const run = async (pairs: readonly PointWindow[], phase: string): Promise<Observation[]> => {
      batches.push(`${phase}:${pairs.length}`);
      return pairs.map(({ point, window }) => {
        windows.set(window.id, `${window.startMs}-${window.endMs}`);
        const a = point[0]![1] as number;
        const net = window.id.endsWith('rung2') ? (a === 5 ? 100 : a) : window.id.endsWith('rung3') ? -a : a;
        return { point, windowId: window.id, metrics: { net, netWithRewards: net, sharpe: 0, maxDrawdown: 1, fills: 5, markout60sBps: 0, error: null } };
      });
    };
    const res = await runWalkForward(points, folds, 'net', run, { eta: 2, minWindowMs: null, rungsMs: [30_000, 60_000, null], where: 'g.yaml' });
    expect(folds).toHaveLength(3);
    expect(batches).toEqual(['train-rung1:24', 'train-rung2:12', 'train-rung3:6', 'test:24']);
    expect(windows.get('f2-train-rung1')).toBe(`${S + 120_000}-${S + 150_000}`); // rungs start with the train window
    expect(windows.get('f2-train-rung3')).toBe(`${S + 120_000}-${S + 240_000}`); // and the last is all of it
    // rung1 keeps 8,7,6,5; rung2 keeps 5 (100) and 8; on the whole window -a: 5 beats 8.
    expect(res.map((r) => r.rungs!.map((g) => g.survivors.length))).toEqual([[4, 2, 0], [4, 2, 0], [4, 2, 0]]);
    expect(res.map((r) => r.chosen!.point[0]![1])).toEqual([5, 5, 5]);
    expect(res[0]!.chosen!.objective).toBe(-5); // the in-sample score is the last rung's
    expect(res[0]!.train.entries.map((e) => e.point[0]![1])).toEqual([5, 8, 7, 6, 4, 3, 2, 1]);
    expect(res[0]!.rankCorrelation).toBeCloseTo(0.857, 3); // halving order vs test net (a): only 5 is out of place
    await expect(runWalkForward(points, folds, 'net', run, { eta: 2, minWindowMs: null, rungsMs: [30_000, 180_000], where: 'g.yaml' })).rejects.toThrow(/g\.yaml: rungs\.1: 3m is longer than the train window \(2m\)/);
  });

  it('drops a rung that would replay the window before it (rungs: [1m, 2m, all] on 2-minute train windows)', () => {
    const S = 1_000_000;
    const folds = planFolds({ startMs: S, endMs: S + 480_000 }, { trainMs: 120_000, testMs: 60_000, stepMs: 120_000, anchored: true });
    const plans = trainPlans(folds, 8, { eta: 2, minWindowMs: null, rungsMs: [60_000, 120_000, null], where: 'g.yaml' });
    expect(plans[0]!.map((r) => r.lengthMs)).toEqual([60_000, 120_000]); // "all" = 2m = the rung before
    expect(plans[0]!.map((r) => r.candidates)).toEqual([8, 4]);
    expect(plans[1]!.map((r) => r.lengthMs)).toEqual([60_000, 120_000, 240_000]); // anchored: the next train window is 4m
  });

  it('walk-forward efficiency is defined only for a positive in-sample figure (a kept loss is not 100%)', () => {
    expect(efficiencyRatio(4, 1, 'net')).toBe(0.25);
    expect(efficiencyRatio(-0.216, -0.09, 'net')).toBeNaN(); // was 0.415: OOS lost less, yet it read as a decay
    expect(efficiencyRatio(0, 1, 'net')).toBeNaN();
    expect(efficiencyRatio(0.1, 0.4, 'max_drawdown')).toBe(0.25); // lower is better: a drawdown 4× worse OOS
  });

  it('spearman handles ties and needs three points', () => {
    const pts: GridPoint[] = [1, 2, 3, 4].map((a) => [['a', a]]);
    const lb = (v: number[]) => buildLeaderboard(pts, pts.map((p, k) => ({ point: p, windowId: 'w', metrics: { net: v[k]!, netWithRewards: 0, sharpe: 0, maxDrawdown: 0, fills: 0, markout60sBps: 0, error: null } })), 'net');
    expect(spearman(lb([1, 2, 3, 4]), lb([10, 20, 30, 40]))).toBeCloseTo(1);
    expect(spearman(lb([1, 2, 3, 4]), lb([1, 1, 2, 2]))).toBeCloseTo(0.894, 3);
    expect(spearman(buildLeaderboard(pts.slice(0, 2), [], 'net'), lb([1, 2, 3, 4]))).toBeNull();
  });
});
