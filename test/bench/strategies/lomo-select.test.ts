import { describe, expect, it } from 'vitest';
import { LOMO_GROUPS } from './lomo-groups.ts';
import { formatDefaultsTable, formatMarketsTable, paramsKey, selectHeldOut, verdictOf, verdictText, type Ensemble, type HeldOut } from './lomo-select.ts';

const MARKETS = ['a', 'b', 'c', 'd'];

describe('paramsKey', () => {
  it('is the same whatever the key order and differs by value', () => {
    expect(paramsKey({ minSpreadShare: 0, flowState: 'off' })).toBe(paramsKey({ flowState: 'off', minSpreadShare: 0 }));
    expect(paramsKey({ minSpreadShare: 0 })).not.toBe(paramsKey({ minSpreadShare: 1 }));
    expect(paramsKey({})).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('LOMO_GROUPS', () => {
  it('has one group per parameter, each the default ({}) first and alternatives that set only that parameter', () => {
    expect(new Set(LOMO_GROUPS.map((g) => g.param)).size).toBe(LOMO_GROUPS.length);
    for (const g of LOMO_GROUPS) {
      expect(g.candidates[0]!.params).toEqual({});
      for (const c of g.candidates.slice(1)) expect(Object.keys(c.params)).toEqual([g.param]);
    }
    expect(LOMO_GROUPS.reduce((n, g) => n + g.candidates.length - 1, 0)).toBe(28);
  });
});

describe('selectHeldOut', () => {
  it('ranks on the other markets: an alternative chosen on every market, better held out on 3 of 4', () => {
    // alt: mean 4/3 on the others whenever a, b or d is held out; held out c, its mean is 2 but it earns 0 there.
    const held = selectHeldOut([[1, 1, 1, 1], [2, 2, 0, 2]], MARKETS);
    expect(held.map((h) => h.chosen)).toEqual([1, 1, 1, 1]);
    expect(held.map((h) => h.chosenEdge)).toEqual([2, 2, 0, 2]);
    expect(held[0]!.score).toBeCloseTo(4 / 3, 12);
    expect(held[2]!.score).toBe(2);
    expect(verdictOf(held)).toEqual({ chosenDefault: 0, altWins: 3, markets: 4, holds: false });
    expect(verdictText(verdictOf(held))).toBe('an alternative wins out of sample on 3/4');
  });

  it('keeps the default on a tie and names the best-ranked alternative and its held-out edge', () => {
    const held = selectHeldOut([[1, 2, 3, 4], [5, 0, 0, 0], [0, 3, 3, 3]], MARKETS);
    // Held out a: default (2+3+4)/3 = 3 ties alt 2's 3: the default stays; alt 2 ranks above alt 1 (0).
    expect(held[0]).toEqual({ market: 'a', chosen: 0, score: 3, defaultEdge: 1, bestAlt: 2, bestAltEdge: 0, chosenEdge: 1 });
    expect(held.map((h) => h.chosen)).toEqual([0, 0, 0, 0]);
    expect(verdictText(verdictOf(held))).toBe('holds');
  });

  it('holds when the held-out choice does no better than the default on most markets, though chosen on one', () => {
    const held = selectHeldOut([[1, 1, 1, 1], [3, 0.5, 0.5, 0.5]], MARKETS);
    expect(held.map((h) => h.chosen)).toEqual([0, 1, 1, 1]);
    expect(verdictOf(held)).toEqual({ chosenDefault: 1, altWins: 0, markets: 4, holds: true });
  });

  it('ranks a candidate without an edge (no fills: NaN) below every finite one', () => {
    const held = selectHeldOut([[1, 1, 1, 1], [Number.NaN, 9, 9, 9]], MARKETS);
    expect(held.map((h) => h.chosen)).toEqual([1, 0, 0, 0]);
    expect(verdictOf(held).altWins).toBe(0);
  });

  it('names a row of the wrong length', () => {
    expect(() => selectHeldOut([[1, 1, 1, 1], [1, 1]], MARKETS)).toThrow('candidate 1 has 2 edges for 4 markets');
  });
});

describe('verdictOf', () => {
  const h = (chosen: number, chosenEdge: number, defaultEdge: number): HeldOut => ({ market: 'x', chosen, score: 0, defaultEdge, bestAlt: 1, bestAltEdge: chosenEdge, chosenEdge });
  it('an even split is not "most": the default chosen on 2 of 4 and beaten held out on the other 2 does not hold', () => {
    const v = verdictOf([h(0, 1, 1), h(0, 1, 1), h(1, 2, 1), h(1, 3, 1)]);
    expect(v).toEqual({ chosenDefault: 2, altWins: 2, markets: 4, holds: false });
    expect(verdictText(v)).toBe('an alternative wins out of sample on 2/4');
  });
  it('names a held-out win even when the default holds', () => {
    expect(verdictText(verdictOf([h(0, 1, 1), h(0, 1, 1), h(0, 1, 1), h(1, 2, 1)]))).toBe('holds (an alternative wins out of sample on 1/4)');
  });
});

describe('tables', () => {
  const group = LOMO_GROUPS.find((g) => g.param === 'minSpreadShare')!;
  it('one evidence row per default; a skipped group says why', () => {
    const held = selectHeldOut([[1, 1, 1, 1], [2, 2, 0, 2], [0.5, 0.5, 0.5, 0.5]], MARKETS);
    const table = formatDefaultsTable([{ group, held, pbo: 0.5 }, { group: LOMO_GROUPS.find((g) => g.param === 'edgeGuard')!, skipped: 'edgeGuard: unrecognized key' }], MARKETS);
    expect(table.split('\n')).toEqual([
      '| parameter | default | alternatives | a: default / best alternative (bps) | b: default / best alternative (bps) | c: default / best alternative (bps) | d: default / best alternative (bps) | default chosen held out | PBO | verdict |',
      '|---|---|---|---:|---:|---:|---:|---:|---:|---|',
      '| minSpreadShare | 0.5 | 0, 1 | 1.00 / 2.00 (0) | 1.00 / 2.00 (0) | 1.00 / 0.00 (0) | 1.00 / 2.00 (0) | 0/4 | 0.50 | an alternative wins out of sample on 3/4 |',
      '| edgeGuard | off | widen, pull | – | – | – | – | – | – | not run: edgeGuard: unrecognized key |',
    ]);
  });

  it('the default against the baseline on every market, median [p5, p95]', () => {
    const d = (p50: number) => ({ mean: p50, sd: 0, p5: p50 - 1, p50, p95: p50 + 1 });
    const s = (net: number, edge: number) => ({ runs: 16, net_usd: d(net), edge_bps: d(edge), fills: d(120), uptime_two_sided: d(1), p_net_positive: 0.8125 });
    const e: Ensemble = { summary: s(162.42, 1.43), vs: { summary: s(-5524.3, -1.5) }, paired: { p_better: 1 } };
    expect(formatMarketsTable([{ market: 'amzn', ensemble: e }]).split('\n').slice(2)).toEqual([
      '| amzn | glft defaults | 162.42 [161.42, 163.42] | 1.43 [0.43, 2.43] | 81 % | 100 % | 100 % | 120 |',
      '| amzn | baseline: fixed-spread priceSkew=1 | -5524.30 [-5525.30, -5523.30] | -1.50 [-2.50, -0.50] | 81 % | – | 100 % | 120 |',
    ]);
  });
});
