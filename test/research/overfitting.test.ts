import { describe, expect, it } from 'vitest';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import { buildLeaderboard, leaderboardJson } from '../../src/research/leaderboard.ts';
import { overfittingLine, selectionOverfitting } from '../../src/research/selection-overfitting.ts';
import { deflatedSharpe, expectedMaxSharpe, normalCdf, normalQuantile, probabilisticSharpe, probabilityOfOverfitting, sharpeStats } from '../../src/research/overfitting.ts';

/** A seeded normal stream (mulberry32 + Box–Muller), so the matrices are the same on every run. */
function normals(seed: number): () => number {
  let s = seed >>> 0;
  const u = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u() + 1e-12)) * Math.cos(2 * Math.PI * u());
}

describe('deflated Sharpe ratio (Bailey & López de Prado, 2014)', () => {
  it('the normal CDF and quantile invert each other', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalQuantile(0.99)).toBeCloseTo(2.326348, 5);
    for (const p of [0.001, 0.02, 0.3, 0.5, 0.9, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
  });

  it("the paper's example: annual Sharpe 2.5 over 1,250 days, skew −3, kurtosis 10, 100 trials with annual Sharpe variance 0.5 → SR₀ 0.1132 a day, DSR 0.9004", () => {
    const sr0 = expectedMaxSharpe(100, 0.5 / 250);
    expect(sr0).toBeCloseTo(0.1132, 4);
    const dsr = probabilisticSharpe({ sharpe: 2.5 / Math.sqrt(250), n: 1250, skew: -3, kurtosis: 10 }, sr0);
    expect(dsr).toBeCloseTo(0.9004, 3);
  });

  it('PSR by hand: Sharpe 0.1 over 101 normal returns against 0 is Φ(0.1·10/√1.005) = 0.8408; one trial deflates nothing', () => {
    expect(probabilisticSharpe({ sharpe: 0.1, n: 101, skew: 0, kurtosis: 3 }, 0)).toBeCloseTo(0.8407, 4);
    expect(expectedMaxSharpe(1, 0.3)).toBe(0);
    const s = sharpeStats([1, 2, 3, 4]);
    expect(s.sharpe).toBeCloseTo(2.5 / Math.sqrt(1.25), 12);
    expect(s.skew).toBeCloseTo(0, 12);
    expect(s.kurtosis).toBeCloseTo(1.64, 12); // population kurtosis of 1..4
    expect(deflatedSharpe(s, [s.sharpe]).dsr).toBe(probabilisticSharpe(s, 0));
  });

  it('more trials raise the bar: the same winner deflates further', () => {
    const chosen = { sharpe: 0.3, n: 60, skew: 0, kurtosis: 3 };
    const few = deflatedSharpe(chosen, [0.3, 0.1, 0, -0.1]);
    const many = deflatedSharpe(chosen, [0.3, ...Array.from({ length: 99 }, (_, i) => -0.2 + (0.4 * i) / 98)]);
    expect(many.expectedMaxSharpe).toBeGreaterThan(few.expectedMaxSharpe);
    expect(many.dsr).toBeLessThan(few.dsr);
  });
});

describe('probability of backtest overfitting (CSCV; Bailey, Borwein, López de Prado & Zhu, 2015)', () => {
  it('a candidate best in every window is never overfit: PBO 0', () => {
    const r = probabilityOfOverfitting([
      [5, 6, 5, 7, 6, 5],
      [1, 2, 1, 0, 1, 2],
      [3, 1, 2, 2, 1, 0],
    ])!;
    expect(r.groups).toBe(6);
    expect(r.splits).toBe(20); // C(6, 3)
    expect(r.pbo).toBe(0);
  });

  it('whoever wins in sample loses out of sample: PBO 1', () => {
    const r = probabilityOfOverfitting([
      [1, 0],
      [0, 1],
    ])!;
    expect(r.splits).toBe(2);
    expect(r.pbo).toBe(1);
    expect(r.logits.every((l) => l < 0)).toBe(true);
  });

  it('pure noise: about half the splits overfit (the splits of one matrix share its data, so averaged over 40 matrices of 50 × 8)', () => {
    const z = normals(7);
    let sum = 0;
    for (let k = 0; k < 40; k++) sum += probabilityOfOverfitting(Array.from({ length: 50 }, () => Array.from({ length: 8 }, z)))!.pbo;
    expect(sum / 40).toBeGreaterThan(0.4);
    expect(sum / 40).toBeLessThan(0.6);
    expect(probabilityOfOverfitting(Array.from({ length: 3 }, () => Array.from({ length: 16 }, z)))!.splits).toBe(12_870); // C(16, 8)
  });

  it('a real edge in noise: one candidate 3σ better per window keeps PBO low', () => {
    const z = normals(11);
    const m = Array.from({ length: 50 }, (_, c) => Array.from({ length: 12 }, () => z() + (c === 0 ? 3 : 0)));
    expect(probabilityOfOverfitting(m)!.pbo).toBeLessThan(0.1);
  });

  it('needs two candidates and two windows; odd window counts use an even number of groups; a failed window counts as the worst', () => {
    expect(probabilityOfOverfitting([[1, 2, 3]])).toBeNull();
    expect(probabilityOfOverfitting([[1], [2]])).toBeNull();
    expect(probabilityOfOverfitting([[1, 2, 3], [3, 2, 1]])!.groups).toBe(2);
    expect(probabilityOfOverfitting([[9, null], [0, 0]])!.pbo).toBe(1);
  });
});

describe('a leaderboard owns up to its trials', () => {
  const metrics = (net: number) => ({ net, netWithRewards: net, sharpe: NaN, maxDrawdown: 1, fills: 1, markout60sBps: NaN, error: null });
  it('leaderboard.json and the printed line carry the PBO and the winner’s deflated Sharpe of the ranking', () => {
    // Two points that swap places from window to window: whichever wins the first half loses the second.
    const a: GridPoint = [['bot.strategies.0.params.size', 1]];
    const b: GridPoint = [['bot.strategies.0.params.size', 2]];
    const obs = [
      { point: a, windowId: 'w1', metrics: metrics(10) },
      { point: a, windowId: 'w2', metrics: metrics(-5) },
      { point: b, windowId: 'w1', metrics: metrics(-4) },
      { point: b, windowId: 'w2', metrics: metrics(8) },
    ];
    const lb = buildLeaderboard([a, b], obs, 'net');
    const o = selectionOverfitting(lb)!;
    expect(o).toMatchObject({ pbo: 1, splits: 2, groups: 2, trials: 2, windows: 2 });
    expect(o.winner_sharpe).toBeCloseTo(sharpeStats([10, -5]).sharpe, 12); // a: 5 net in total beats b's 4
    expect(JSON.parse(leaderboardJson(lb)).overfitting.pbo).toBe(1);
    expect(overfittingLine(lb)).toMatch(/^overfitting: PBO 1\.00 \(2 in\/out-of-sample splits of 2 windows/);
    expect(overfittingLine(buildLeaderboard([a, b], obs.filter((x) => x.windowId === 'w1'), 'net'))).toMatch(/needs at least 2 windows/);
  });
});
