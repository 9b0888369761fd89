import { describe, expect, it } from 'vitest';
import { REGIMES, RegimeEdge, regimeName, regimeOf } from '../../../src/strategy/estimators/regime-edge.ts';

const H = 10_000;
const edge = (priorLots = 10) => new RegimeEdge({ horizonMs: H, halfLifeMs: 1e12, priorLots });

describe('regimeOf', () => {
  it('files a quote by spread (log2 ticks), flow state folded to three, and time since the mid moved', () => {
    expect(regimeName(regimeOf(1, 0, 50))).toBe('spread 1 ticks, flow against, mid moved <100ms ago');
    expect(regimeName(regimeOf(2, 2, 500))).toBe('spread 2 ticks, flow neutral, mid moved 100ms–1s ago');
    expect(regimeName(regimeOf(4, 3, 5000))).toBe('spread 3–4 ticks, flow for, mid moved 1–10s ago');
    expect(regimeName(regimeOf(12, 4, 60_000))).toBe('spread 9–16 ticks, flow for, mid moved ≥10s ago');
    expect(regimeName(regimeOf(300, 1, Infinity))).toBe('spread 17+ ticks, flow against, mid moved ≥10s ago');
    // Every combination is its own regime.
    const all = new Set<number>();
    for (const s of [1, 2, 3, 5, 9, 17]) for (const f of [0, 2, 4]) for (const a of [0, 100, 1000, 10_000]) all.add(regimeOf(s, f, a));
    expect(all.size).toBe(REGIMES);
    expect(Math.max(...all)).toBe(REGIMES - 1);
  });
});

describe('RegimeEdge', () => {
  it('is causal: a fill counts only once its horizon has passed', () => {
    const e = edge();
    const r = regimeOf(2, 2, 5000);
    e.fill(0, 1, 1000, r, 0, 1);
    e.updateMid(H - 1, 990);
    expect(e.pending).toBe(1);
    expect(e.expectedTicks(1, r, H - 1)).toBe(0);
    e.updateMid(H, 990);
    expect(e.pending).toBe(0);
    // One lot losing 10 ticks against 10 lots of "no edge": the side −10/11; the regime shrunk toward it.
    expect(e.sideTicks(1, H)).toBeCloseTo(-10 / 11, 12);
    expect(e.expectedTicks(1, r, H)).toBeCloseTo((-10 + 10 * (-10 / 11)) / 11, 12);
  });

  it('takes the named costs (fee and the extra depth quoted) off each mark, and marks sells the other way', () => {
    const e = edge(0);
    const r = regimeOf(2, 2, 5000);
    // Sold at 1003 with 2 ticks of extra depth and a 0.5-tick fee; the mid 10 s later 1000: 3 − 2.5.
    e.fill(0, -1, 1003, r, 2.5, 1);
    e.updateMid(H, 1000);
    expect(e.expectedTicks(-1, r, H)).toBeCloseTo(0.5, 12);
    expect(e.sideTicks(1, H)).toBe(0);
  });

  it('needs evidence: a few losing fills barely move a regime, many do; other regimes take the side\'s mean', () => {
    const e = edge();
    const wide = regimeOf(20, 2, 5000);
    const tight = regimeOf(1, 2, 5000);
    const lose = (n: number, t0: number) => {
      for (let i = 0; i < n; i++) e.fill(t0 + i, 1, 1000, wide, 0, 1);
      e.updateMid(t0 + n + H, 996);
    };
    lose(2, 0);
    const afterTwo = e.expectedTicks(1, wide, 2 * H);
    expect(afterTwo).toBeGreaterThan(-1.5);
    lose(98, 3 * H);
    const afterHundred = e.expectedTicks(1, wide, 5 * H);
    expect(afterHundred).toBeLessThan(-3.5);
    // The tight regime never saw a fill: the side's pooled evidence (100 lots at −4 against 10 at 0).
    expect(e.expectedTicks(1, tight, 5 * H)).toBeCloseTo(-400 / 110, 6);
    // The ask side saw nothing.
    expect(e.expectedTicks(-1, wide, 5 * H)).toBe(0);
  });

  it('forgets in time: with no new fills the estimate drifts back to the prior', () => {
    const e = new RegimeEdge({ horizonMs: H, halfLifeMs: 60_000 });
    const r = regimeOf(2, 2, 5000);
    for (let i = 0; i < 50; i++) e.fill(i, 1, 1000, r, 0, 1);
    e.updateMid(H + 50, 995);
    expect(e.expectedTicks(1, r, H + 50)).toBeLessThan(-3);
    // 10 half-lives later: 50 lots weigh 0.05 against the prior's 10.
    expect(e.expectedTicks(1, r, H + 50 + 600_000)).toBeGreaterThan(-0.1);
  });

  it('clips a mark: one jump says little about the next fills', () => {
    const e = edge(0);
    const r = regimeOf(2, 2, 5000);
    e.clipTicks = 6;
    e.fill(0, 1, 1000, r, 0, 1);
    e.updateMid(H, 900);
    expect(e.expectedTicks(1, r, H)).toBe(-6);
  });

  it('refuses nonsense: bad options throw, bad fills are ignored', () => {
    expect(() => new RegimeEdge({ horizonMs: 0, halfLifeMs: 1 })).toThrow(RangeError);
    expect(() => new RegimeEdge({ horizonMs: 1, halfLifeMs: 1, priorLots: -1 })).toThrow(RangeError);
    const e = edge();
    e.fill(0, 1, Number.NaN, 0, 0, 1);
    e.fill(0, 1, 1000, REGIMES, 0, 1);
    e.fill(0, 1, 1000, 0, 0, 0);
    expect(e.pending).toBe(0);
  });

  it('keeps every pending fill past its first ring size', () => {
    const e = edge(0);
    const r = regimeOf(2, 2, 5000);
    for (let i = 0; i < 100; i++) e.fill(i, 1, 1000 + (i % 2), r, 0, 1);
    expect(e.pending).toBe(100);
    e.updateMid(H + 100, 1000);
    // Half bought at 1000 (0), half at 1001 (−1).
    expect(e.expectedTicks(1, r, H + 100)).toBeCloseTo(-0.5, 12);
  });
});
