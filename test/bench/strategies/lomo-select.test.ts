import { describe, expect, it } from 'vitest';
import { LOMO_GROUPS } from './lomo-groups.ts';
import { formatDefaultsTable, formatMarketsTable, paramsKey, selectHeldOut, targetOf, verdictOf, verdictText, type Ensemble, type HeldOut } from './lomo-select.ts';

const MARKETS = ['a', 'b', 'c', 'd'];

describe('paramsKey', () => {
  it('is the same whatever the key order and differs by value', () => {
    expect(paramsKey({ minSpreadShare: 0, flowState: 'off' })).toBe(paramsKey({ flowState: 'off', minSpreadShare: 0 }));
    expect(paramsKey({ minSpreadShare: 0 })).not.toBe(paramsKey({ minSpreadShare: 1 }));
    expect(paramsKey({})).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('LOMO_GROUPS', () => {
  it('has one group per parameter, each the default ({}) first and alternatives that set only that parameter; the joint group every combination', () => {
    expect(new Set(LOMO_GROUPS.map((g) => g.param)).size).toBe(LOMO_GROUPS.length);
    for (const g of LOMO_GROUPS.filter((x) => x.param !== 'joint')) {
      expect(g.candidates[0]!.params).toEqual({});
      for (const c of g.candidates.slice(1)) expect(Object.keys(c.params)).toEqual([g.param]);
    }
    expect(LOMO_GROUPS.filter((x) => x.param !== 'joint').reduce((n, g) => n + g.candidates.length - 1, 0)).toBe(28);
    const j = LOMO_GROUPS.find((x) => x.param === 'joint')!;
    expect(j.candidates).toHaveLength(8);
    expect(j.candidates[0]).toEqual({ label: 'joint queueAware=false intensityHalfLifeS=1800 flowStateHalfLifeS=5 (default)', params: {} });
    expect(new Set(j.candidates.map((c) => JSON.stringify(c.params))).size).toBe(8);
    expect(j.candidates[7]!.params).toEqual({ queueAware: true, intensityHalfLifeS: 900, flowStateHalfLifeS: 10 });
  });
});

describe('selectHeldOut', () => {
  it('ranks on the other markets: an alternative chosen on every market, better held out on 3 of 4', () => {
    // alt: first on 2 of the other 3 markets whenever a, b or d is held out (mean rank 4/3); held out
    // c, first on all three others (rank 1), but it earns 0 there.
    const held = selectHeldOut([[1, 1, 1, 1], [2, 2, 0, 2]], MARKETS);
    expect(held.map((h) => h.chosen)).toEqual([1, 1, 1, 1]);
    expect(held.map((h) => h.chosenEdge)).toEqual([2, 2, 0, 2]);
    expect(held[0]!.score).toBeCloseTo(4 / 3, 12);
    expect(held[0]!.meanEdge).toBeCloseTo(4 / 3, 12);
    expect(held[2]!.score).toBe(1);
    expect(held[2]!.meanEdge).toBe(2);
    expect(verdictOf(held)).toEqual({ chosenDefault: 0, altWins: 3, winner: 1, markets: 4, holds: false });
    expect(verdictText(verdictOf(held))).toBe('candidate 1 wins out of sample on 3/4: change it');
  });

  it('keeps the default on a tie and names the best-ranked alternative and its held-out edge', () => {
    const held = selectHeldOut([[1, 2, 3, 3], [5, 0, 0, 0], [0, 3, 3, 3]], MARKETS);
    // Held out a: on b the default ranks 2, alt 2 first; on c and d they tie (1.5 each): mean ranks 5/3
    // and 4/3, alt 2 ahead; alt 1 last everywhere.
    expect(held[0]).toEqual({ market: 'a', chosen: 2, score: 4 / 3, meanEdge: 3, defaultEdge: 1, bestAlt: 2, bestAltEdge: 0, chosenEdge: 0 });
    // Held out b: the default and alt 2 tie on rank (1.5 on c and d, a: default 2, alt 2 3; …) — see below.
    const tie = selectHeldOut([[1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 1, 1]], MARKETS);
    expect(tie.map((h) => h.chosen)).toEqual([0, 0, 0, 0]);
    expect(tie[0]).toEqual({ market: 'a', chosen: 0, score: 1.5, meanEdge: 1, defaultEdge: 1, bestAlt: 2, bestAltEdge: 1, chosenEdge: 1 });
    expect(verdictText(verdictOf(tie))).toBe('holds');
  });

  it('ranks, so one market of large edges does not choose for the others', () => {
    // The alternative is a little worse on a, b, c and far better on d: a mean would choose it
    // whenever d is among the others; by rank the default wins 2 of 3 there.
    const held = selectHeldOut([[1, 1, 1, 1], [0.9, 0.9, 0.9, 10]], MARKETS);
    expect(held.map((h) => h.chosen)).toEqual([0, 0, 0, 0]);
    expect(verdictText(verdictOf(held))).toBe('holds');
  });

  it('keeps the default where a mean would let one market choose: ranks are scale-free', () => {
    // Held out b, c or d, the alternative's mean on the others is (3 + 0.5 + 0.5) / 3 = 1.33 > 1,
    // but it ranks first on one market of three: the default stays everywhere.
    const held = selectHeldOut([[1, 1, 1, 1], [3, 0.5, 0.5, 0.5]], MARKETS);
    expect(held.map((h) => h.chosen)).toEqual([0, 0, 0, 0]);
    expect(held[1]!.score).toBeCloseTo(4 / 3, 12);
    expect(verdictOf(held)).toEqual({ chosenDefault: 4, altWins: 0, winner: -1, markets: 4, holds: true });
    expect(verdictText(verdictOf(held), () => { throw new Error('no winner to name'); })).toBe('holds');
  });

  it('ranks a candidate without an edge (no fills: NaN) last on that market', () => {
    const held = selectHeldOut([[1, 1, 1, 1], [Number.NaN, 9, 9, 9]], MARKETS);
    // Held out b: the alternative is last on a, first on c and d (4/3 against the default's 5/3).
    expect(held.map((h) => h.chosen)).toEqual([1, 1, 1, 1]);
    expect(held[1]!.score).toBeCloseTo(4 / 3, 12);
    // Held out a it has no edge: no win there.
    expect(verdictOf(held).altWins).toBe(3);
  });

  it('names a row of the wrong length', () => {
    expect(() => selectHeldOut([[1, 1, 1, 1], [1, 1]], MARKETS)).toThrow('candidate 1 has 2 edges for 4 markets');
  });
});

describe('verdictOf', () => {
  const h = (chosen: number, chosenEdge: number, defaultEdge: number): HeldOut => ({ market: 'x', chosen, score: 0, meanEdge: 0, defaultEdge, bestAlt: 1, bestAltEdge: chosenEdge, chosenEdge });
  it('an even split is not "most": beaten held out on 2 of 4, the default stays', () => {
    const v = verdictOf([h(0, 1, 1), h(0, 1, 1), h(1, 2, 1), h(1, 3, 1)]);
    expect(v).toEqual({ chosenDefault: 2, altWins: 2, winner: 1, markets: 4, holds: true });
    expect(verdictText(v, (c) => `alt ${c}`)).toBe('holds (alt 1 wins out of sample on 2/4: not most)');
    expect(verdictOf([h(1, 2, 1), h(1, 2, 1), h(1, 2, 1), h(0, 1, 1)]).holds).toBe(false);
  });

  it('counts the wins of one and the same alternative: three alternatives each winning one market are no case for any', () => {
    const v = verdictOf([h(1, 2, 1), h(2, 2, 1), h(3, 2, 1), h(0, 1, 1)]);
    expect(v).toEqual({ chosenDefault: 1, altWins: 1, winner: 1, markets: 4, holds: true });
    expect(verdictOf([h(2, 2, 1), h(2, 2, 1), h(1, 2, 1), h(2, 2, 1)])).toMatchObject({ altWins: 3, winner: 2, holds: false });
  });
  it('names a held-out win even when the default holds', () => {
    expect(verdictText(verdictOf([h(0, 1, 1), h(0, 1, 1), h(0, 1, 1), h(1, 2, 1)]))).toBe('holds (candidate 1 wins out of sample on 1/4: not most)');
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
      '| minSpreadShare | 0.5 | 0, 1 | 1.00 / 2.00 (0) | 1.00 / 2.00 (0) | 1.00 / 0.00 (0) | 1.00 / 2.00 (0) | 0/4 | 0.50 | 0 wins out of sample on 3/4: change it |',
      '| edgeGuard | widen | off, shrink, pull | – | – | – | – | – | – | not run: edgeGuard: unrecognized key |',
    ]);
  });

  it('the default against the baseline on every market, median [p5, p95]', () => {
    const d = (p50: number) => ({ mean: p50, sd: 0, p5: p50 - 1, p50, p95: p50 + 1 });
    const s = (net: number, edge: number) => ({ runs: 16, net_usd: d(net), edge_bps: d(edge), fills: d(120), uptime_two_sided: d(1), p_net_positive: 0.8125 });
    const e: Ensemble = { summary: s(162.42, 1.43), vs: { summary: s(-5524.3, -1.5) }, paired: { p_better: 1 } };
    expect(formatMarketsTable([{ market: 'amzn', ensemble: e }]).split('\n').slice(2)).toEqual([
      '| amzn | glft defaults | 162.42 [161.42, 163.42] | 1.43 [0.43, 2.43] | 81 % | 100 % | 100 % | 120 | met |',
      '| amzn | baseline: fixed-spread priceSkew=1 | -5524.30 [-5525.30, -5523.30] | -1.50 [-2.50, -0.50] | 81 % | – | 100 % | 120 | – |',
    ]);
  });

  it('names each part of the target a market misses', () => {
    const d = (p50: number) => ({ mean: p50, sd: 0, p5: p50, p50, p95: p50 });
    const s = { runs: 16, net_usd: d(-3), edge_bps: d(-0.4), fills: d(40), uptime_two_sided: d(0.45), p_net_positive: 0.2 };
    expect(targetOf({ summary: s, paired: { p_better: 0.875 } })).toBe('missed: median edge -0.40 < 0, uptime 45 % < 50 %, beats the baseline on 88 % < 90 %');
    expect(targetOf({ summary: { ...s, edge_bps: d(0), uptime_two_sided: d(0.5) }, paired: { p_better: 0.9 } })).toBe('met');
  });
});
