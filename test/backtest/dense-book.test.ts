import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASK, BID, DenseBook } from '../../src/backtest/dense-book.ts';

describe('DenseBook', () => {
  it('tracks the best prices and levels like a map-based book (property)', () => {
    const op = fc.record({ side: fc.constantFrom(BID, ASK), price: fc.integer({ min: 100, max: 160 }), qty: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 0, max: 199 }), (ops, clearAt) => {
        const book = new DenseBook(100, 160, 4);
        const ref = [new Map<number, number>(), new Map<number, number>()];
        ops.forEach((o, k) => {
          if (k === clearAt) {
            book.clear();
            ref[0]!.clear();
            ref[1]!.clear();
          }
          const prev = book.set(o.side, o.price, o.qty);
          expect(prev).toBe(ref[o.side]!.get(o.price) ?? 0);
          if (o.qty === 0) ref[o.side]!.delete(o.price);
          else ref[o.side]!.set(o.price, o.qty);
        });
        const bids = [...ref[0]!].sort((a, b) => b[0] - a[0]);
        const asks = [...ref[1]!].sort((a, b) => a[0] - b[0]);
        expect(Number.isNaN(book.bestBid()) ? undefined : book.bestBid()).toBe(bids[0]?.[0]);
        expect(Number.isNaN(book.bestAsk()) ? undefined : book.bestAsk()).toBe(asks[0]?.[0]);
        expect(book.levels(BID, 5)).toEqual(bids.slice(0, 5).map(([p, q]) => ({ priceTicks: p, qty: q })));
        expect(book.levels(ASK, 5)).toEqual(asks.slice(0, 5).map(([p, q]) => ({ priceTicks: p, qty: q })));
        expect([book.nBids, book.nAsks]).toEqual([bids.length, asks.length]);
        if (bids[2]) expect(book.levelsBetter(BID, bids[2][0], 10)).toBe(2);
        if (asks[1]) expect(book.levelsBetter(ASK, asks[1][0] + 1, 1)).toBe(1); // capped
      }),
      { numRuns: 200 },
    );
  });

  it('remembers the last size a removed level showed, through deltas and snapshots', () => {
    const book = new DenseBook(100, 110);
    book.set(BID, 105, 40);
    book.set(BID, 104, 25);
    book.set(BID, 105, 0);
    expect([book.lastQty(BID, 105), book.lastQty(BID, 104), book.nBids]).toEqual([40, 0, 1]);
    book.load(new Float64Array([103, 7]), 0, 1, 0);
    expect([book.lastQty(BID, 104), book.nBids, book.levelsBetter(BID, 101, 5)]).toEqual([25, 1, 1]);
  });

  it('ignores prices outside its range and refuses absurd ranges', () => {
    const book = new DenseBook(100, 110);
    expect(book.set(BID, 50, 10)).toBe(0);
    expect(book.qty(BID, 50)).toBe(0);
    expect(Number.isNaN(book.bestBid())).toBe(true);
    expect(() => new DenseBook(0, 50_000_000)).toThrow(/too wide/);
  });
});
