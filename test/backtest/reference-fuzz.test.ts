import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceMatch } from '../../src/backtest/reference/reference-matcher.ts';
import type { RefEvent, RefLevel, RefOptions } from '../../src/backtest/reference/types.ts';
import { caseArb, KNOWN_OPEN_PATHS, type KnownOpenPath } from './reference/fuzz-case.ts';
import { describeCase, fuzz, runCase } from './reference/fuzz-run.ts';
import { productionFills } from './reference/replay-driver.ts';

const RA: RefOptions = { rule: { kind: 'risk-averse' }, entryMs: 0, minOrderSize: 1 };
const POWER: RefOptions = { rule: { kind: 'probabilistic', shape: 'power', n: 2 }, entryMs: 0, minOrderSize: 1 };
const FIFO: RefOptions = { rule: { kind: 'fifo-by-id' }, entryMs: 0, minOrderSize: 1 };

const bid = (priceTicks: number, qty: number): RefLevel => ({ side: 'bid', priceTicks, qty });
const ask = (priceTicks: number, qty: number): RefLevel => ({ side: 'ask', priceTicks, qty });
const snap = (tMs: number, ...levels: RefLevel[]): RefEvent => ({ kind: 'book', tMs, snapshot: true, levels });
const frame = (tMs: number, ...levels: RefLevel[]): RefEvent => ({ kind: 'book', tMs, snapshot: false, levels });
const sellPrint = (tMs: number, priceTicks: number, qty: number): RefEvent => ({ kind: 'print', tMs, priceTicks, qty, takerBuy: false });
const buy = (tMs: number, ref: number, priceTicks: number, qty: number, postOnly = true): RefEvent => ({ kind: 'place', tMs, ref, side: 'buy', priceTicks, qty, postOnly, tif: 'GTC' });
const sell = (tMs: number, ref: number, priceTicks: number, qty: number, postOnly = true): RefEvent => ({ kind: 'place', tMs, ref, side: 'sell', priceTicks, qty, postOnly, tif: 'GTC' });
const filled = (events: readonly RefEvent[], o: RefOptions) => referenceMatch(events, o).map((f) => [f.tMs, f.ref, f.qty, f.priceTicks, f.source]);

describe('the reference matcher states each rule', () => {
  it('risk-averse: behind 100, a 30 print, the level shown at 70, a 50 print: 0 filled (cancels are behind us); a further 30 print fills 10', () => {
    const s = [snap(0, bid(999, 100), ask(1001, 10)), buy(1, 1, 999, 16), sellPrint(2, 999, 30), frame(3, bid(999, 70)), sellPrint(4, 999, 50), sellPrint(5, 999, 30)];
    expect(filled(s, RA)).toEqual([[5, 1, 10, 999, 'print']]);
  });

  it('probabilistic (power 2): the 30 drop is the 30 printed, not a cancel, so the same stream fills the same 10', () => {
    const s = [snap(0, bid(999, 100), ask(1001, 10)), buy(1, 1, 999, 16), sellPrint(2, 999, 30), frame(3, ask(1003, 5)), frame(4, bid(999, 70)), sellPrint(5, 999, 50), sellPrint(6, 999, 30)];
    expect(filled(s, POWER)).toEqual([[6, 1, 10, 999, 'print']]);
  });

  it('exact FIFO by id: orders ahead that leave move us up, orders joining behind never do', () => {
    const lvl = (orders: [number, number][]): RefLevel => ({ side: 'bid', priceTicks: 999, qty: orders.reduce((a, [, q]) => a + q, 0), orders: orders.map(([id, qty]) => ({ id, qty })) });
    const s = [snap(0, lvl([[1, 40], [2, 60]]), ask(1001, 10)), buy(1, 1, 999, 16), frame(2, lvl([[2, 60], [3, 500]])), sellPrint(3, 999, 70)];
    expect(filled(s, FIFO)).toEqual([[3, 1, 10, 999, 'print']]); // 60 ahead (id 2), the 500 behind us
  });

  it('exact FIFO by id: orders a print traded are gone; listed again behind the last one ahead of us, they are behind us', () => {
    const lvl = (orders: [number, number][]): RefLevel => ({ side: 'ask', priceTicks: 1001, qty: orders.reduce((a, [, q]) => a + q, 0), orders: orders.map(([id, qty]) => ({ id, qty })) });
    const buyPrint = (tMs: number, qty: number): RefEvent => ({ kind: 'print', tMs, priceTicks: 1001, qty, takerBuy: true });
    // Behind 8 (10) and 9 (25); prints of 30 and 9 trade both (4 reach us); the book, which never
    // showed those prints, lists 8 and 9 again: no order ahead of ours is listed, so they are behind.
    const s = [snap(0, bid(999, 5), lvl([[8, 10], [9, 25]])), sell(1, 1, 1001, 26, false), buyPrint(12, 30), buyPrint(27, 9), frame(27, lvl([[8, 1], [9, 25]])), buyPrint(45, 26)];
    expect(filled(s, FIFO)).toEqual([[27, 1, 4, 1001, 'print'], [45, 1, 22, 1001, 'print']]);
    expect(productionFills(s, FIFO).map((f) => f.qty)).toEqual([4, 22]); // the fuzz's first finding after an earlier, narrower statement of the rule
  });

  it('a print fills our better-priced orders first, then the queue at its price; a hidden print only the better-priced ones; an auction cross none', () => {
    const auction: RefEvent = { kind: 'print', tMs: 2, priceTicks: 997, qty: 50, takerBuy: false, auction: true };
    const s = [snap(0, bid(999, 5), ask(1001, 10), ask(1002, 10)), buy(1, 1, 998, 10), buy(1, 2, 999, 10), auction, sellPrint(2, 998, 12), { kind: 'print', tMs: 3, priceTicks: 997, qty: 50, takerBuy: false, hidden: true } as RefEvent];
    expect(filled(s, RA)).toEqual([[2, 2, 10, 999, 'print'], [2, 1, 2, 998, 'print'], [3, 1, 8, 998, 'print']]);
  });

  it('a frame crossing our resting order fills it at its price against the crossing volume, once; post-only across the book is rejected', () => {
    const s = [snap(0, bid(998, 5), ask(1001, 10)), buy(1, 1, 999, 30), frame(2, ask(999, 12)), frame(3, ask(999, 8)), buy(4, 2, 1001, 5)];
    expect(filled(s, RA)).toEqual([[2, 1, 12, 999, 'cross']]); // 8 later is a part of the 12 taken; the post-only buy at 1001 is refused
  });

  it('requests arrive after the entry latency, in the order sent, after the market events of their instant', () => {
    const s = [snap(0, bid(999, 0), ask(1001, 10)), buy(0, 1, 999, 10), sellPrint(2, 999, 4), sellPrint(3, 999, 4), sellPrint(4, 999, 4)];
    expect(filled(s, { ...RA, entryMs: 3 })).toEqual([[4, 1, 4, 999, 'print']]); // arrives at 3, after the print at 3
  });
});

describe('fuzz: the production replay agrees with the reference fill for fill', () => {
  it('1,000 random streams (books, deltas, prints, cancels; our places, replaces and cancels with latency), the known open paths left out', () => {
    fc.assert(
      fc.property(caseArb(), (c) => {
        const r = runCase(c);
        if (!r.agree) throw new Error(describeCase(c, r));
      }),
      { numRuns: 1000, seed: 20_261_129 },
    );
  });

  it('the generator reaches the open path: with late prints let in, 500 cases disagree somewhere', () => {
    expect(fuzz(500, 7, ['nonpositive-print']).disagreements).toBeGreaterThan(0);
  });
});

/**
 * Minimal streams of the wrong-fill paths of issue 32. Three are fixed (the replay exchange now
 * agrees with the reference, and the fuzz covers them); a non-positive print is refused as a bad
 * recording (the generator keeps away from it, `nonpositive-print`); a late print is ordered by
 * exchange time in the runner (src/backtest/venue-time.ts, test/backtest/venue-time.test.ts), which
 * this test's driver does not reproduce, so the generator keeps away from it too (`late-print`).
 */
describe('wrong-fill paths of issue 32 on their minimal streams', () => {
  const cases: Record<KnownOpenPath, { readonly o: RefOptions; readonly s: readonly RefEvent[]; readonly reference: unknown[]; readonly replay: unknown[] }> = {
    // A print recorded after a frame with a later exchange time: the reference fills at the print's instant (1), the replay clamps it to 2.
    'late-print': { o: RA, s: [snap(0, bid(997, 6), bid(995, 14), ask(1001, 90)), buy(0, 1, 997, 27), frame(2, bid(995, 0)), sellPrint(1, 995, 14)], reference: [[1, 1, 14, 997, 'print']], replay: [[2, 1, 14, 997, 'print']] },
    // Our sell at 1000 meets our own resting buy at 1000: self-trade prevention cancels it in the reference; the replay lets it rest across our buy.
    'own-cross': { o: RA, s: [snap(0, bid(999, 60), ask(1001, 57)), buy(0, 1, 1000, 9), sell(1, 2, 1000, 13, false), { kind: 'print', tMs: 2, priceTicks: 1001, qty: 12, takerBuy: true }], reference: [], replay: [[2, 2, 12, 1000, 'print']] },
    // Print, a frame not listing the level, then the frame showing the print's drop: read as a cancel too (front 44.6, was 70).
    'prob-reset-unlisted': { o: POWER, s: [snap(0, bid(999, 100), ask(1001, 9)), buy(1, 1, 999, 16), sellPrint(2, 999, 30), frame(3, ask(1003, 5)), frame(4, bid(999, 70)), sellPrint(5, 999, 50)], reference: [], replay: [[5, 1, 5, 999, 'print']] },
    // A replace to price 0 is refused by the reference; the replay accepts it and the sell takes the bid.
    'replace-bad-price': { o: RA, s: [snap(0, bid(998, 15), ask(1002, 42)), sell(2, 1, 1002, 19, false), { kind: 'replace', tMs: 4, ref: 1, priceTicks: 0, qty: 1 }], reference: [], replay: [[4, 1, 1, 998, 'taker']] },
    // A print of −2 trades nothing in the reference; the replay books a fill of −2.
    'nonpositive-print': { o: RA, s: [snap(0, bid(999, 0), ask(1002, 55)), buy(0, 1, 999, 25), sellPrint(1, 998, -2)], reference: [], replay: [[1, 1, -2, 999, 'print']] },
  };
  it('prob-reset-unlisted, by way of the recorded depth: an out-of-depth level (queue unknown) back in depth as empty, unlisted, is read as nothing ahead', () => {
    const o: RefOptions = { rule: { kind: 'probabilistic', shape: 'power3', n: 3 }, entryMs: 1, minOrderSize: 1 };
    // Three bid levels better than 995 with a depth of 3: our buy there joins an unknown queue; the
    // frame adding 994 makes the depth 4, and the replay's reset of the 139 printed reads 995 as empty.
    const s = [snap(0, bid(999, 5), bid(997, 36), bid(996, 41), ask(1001, 38), ask(1004, 32), ask(1005, 15)), buy(2, 1, 995, 30), sellPrint(5, 995, 139), frame(20, bid(994, 36)), sellPrint(20, 995, 109)];
    expect(filled(s, o)).toEqual([]);
    expect(productionFills(s, o).map((f) => [f.tMs, f.ref, f.qty, f.priceTicks, f.source])).toEqual([]); // was [[20, 1, 30, 995, 'print']]
  });

  it.each(['own-cross', 'prob-reset-unlisted', 'replace-bad-price'] as const)('%s: fixed, the replay agrees with the reference (it used to fill as `replay` says)', (path) => {
    const { o, s, reference, replay } = cases[path];
    expect(filled(s, o)).toEqual(reference);
    expect(replay).not.toEqual(reference);
    expect(productionFills(s, o).map((f) => [f.tMs, f.ref, f.qty, f.priceTicks, f.source])).toEqual(reference);
  });

  it('nonpositive-print: the replay refuses the print as a bad recording instead of booking a fill of −2', () => {
    const { o, s } = cases['nonpositive-print'];
    expect(() => productionFills(s, o)).toThrow(/size -2/);
  });

  it('late-print: the reference fills at the print instant; this driver, which does not order rows by venue time as the runner does, still clamps', () => {
    const { o, s, reference, replay } = cases['late-print'];
    expect(filled(s, o)).toEqual(reference);
    expect(productionFills(s, o).map((f) => [f.tMs, f.ref, f.qty, f.priceTicks, f.source])).toEqual(replay);
  });
});
