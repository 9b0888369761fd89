import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLadder, ladder } from '../../src/strategy/helpers.ts';
import { buildQuotes } from '../../src/strategy/quote-builder.ts';
import { buildContext } from '../../src/strategy/index.ts';
import { book, INSTRUMENT, SYM } from './synthetic-market.ts';

describe('isLadder: ladder() compared without building it', () => {
  it('agrees with building the ladder and comparing, for any arguments', () => {
    const args = fc.record({
      start: fc.integer({ min: 1, max: 1000 }),
      spacing: fc.double({ min: 0.2, max: 4, noNaN: true }),
      sizes: fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { maxLength: 6 }),
      isBid: fc.boolean(),
      minSize: fc.integer({ min: 0, max: 5 }),
      cap: fc.oneof(fc.constant(Infinity), fc.double({ min: 0, max: 60, noNaN: true })),
    });
    fc.assert(
      fc.property(args, args, (a, b) => {
        const built = ladder(a.start, a.spacing, a.sizes, a.isBid, a.minSize, a.cap);
        expect(isLadder(built, a.start, a.spacing, a.sizes, a.isBid, a.minSize, a.cap)).toBe(true);
        const other = ladder(b.start, b.spacing, b.sizes, b.isBid, b.minSize, b.cap);
        expect(isLadder(other, a.start, a.spacing, a.sizes, a.isBid, a.minSize, a.cap)).toBe(JSON.stringify(other) === JSON.stringify(built));
      }),
      { seed: 22, numRuns: 500 },
    );
  });
});

describe('buildQuotes with the last ladder', () => {
  const raw = { bidTicks: 9_998.4, askTicks: 10_004.2, bidSizes: [10, 10], askSizes: [10, 10], spacingTicks: 1 };
  const ctx = buildContext({ symbol: SYM, instrument: INSTRUMENT, book: book(10_000, 10_002), nowMs: 0 });

  it('gives back the last ladder itself when nothing moved a level, a new one otherwise', () => {
    const first = buildQuotes(ctx, raw, 100);
    expect(first).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_998, qty: 10 }, { priceTicks: 9_997, qty: 10 }], asks: [{ priceTicks: 10_005, qty: 10 }, { priceTicks: 10_006, qty: 10 }] });
    expect(buildQuotes(ctx, { ...raw, bidTicks: 9_998.9 }, 100, first)).toBe(first);
    const capped = buildQuotes(ctx, raw, 15, first);
    expect(capped).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_998, qty: 10 }, { priceTicks: 9_997, qty: 5 }], asks: [{ priceTicks: 10_005, qty: 10 }, { priceTicks: 10_006, qty: 5 }] });
    const noBid = buildQuotes(ctx, { ...raw, bidTicks: Number.NaN }, 100, first);
    expect(noBid.bids).toEqual([]);
    expect(buildQuotes(ctx, { ...raw, bidTicks: Number.NaN }, 100, noBid)).toBe(noBid);
  });
});
