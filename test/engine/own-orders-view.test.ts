import { describe, expect, it } from 'vitest';
import type { Book, BookUpdated } from '../../src/domain/index.ts';
import { othersBook } from '../../src/domain/index.ts';
import type { StrategyContext } from '../../src/strategy/contract.ts';
import { EURUSD, ScriptedStrategy, harness, quotes } from './harness.ts';

const book = (t: number, bids: [number, number][], asks: [number, number][]): BookUpdated => ({
  type: 'book',
  symbol: EURUSD,
  level: 2,
  isSnapshot: true,
  bids: bids.map(([priceTicks, qty]) => ({ priceTicks, qty })),
  asks: asks.map(([priceTicks, qty]) => ({ priceTicks, qty })),
  tsEvent: t,
  tsRecv: t,
});

/** Records the touch each call saw. */
class SeeingStrategy extends ScriptedStrategy {
  seen: { bids: [number, number][]; asks: [number, number][] }[] = [];
  override quote(ctx: StrategyContext) {
    const b = ctx.book;
    if (b) this.seen.push({ bids: b.bids.map((l) => [l.priceTicks, l.qty]), asks: b.asks.map((l) => [l.priceTicks, l.qty]) });
    return super.quote(ctx);
  }
}

describe('the market a strategy sees live is the market without our own orders (as in a replay)', () => {
  it('othersBook subtracts our remaining size per price, drops emptied levels, and keeps the book when none is ours', () => {
    const b: Book = book(0, [[11_003, 2], [11_002, 5], [11_001, 4]], [[11_004, 3], [11_006, 7]]);
    const out = othersBook(b, [
      { side: 'buy', priceTicks: 11_003, qty: 2 },
      { side: 'buy', priceTicks: 11_001, qty: 1 },
      { side: 'sell', priceTicks: 11_006, qty: 9 },
      { side: 'sell', priceTicks: 11_002, qty: 5 }, // a sell at a bid price is not on the bid side
    ]);
    expect(out.bids).toEqual([{ priceTicks: 11_002, qty: 5 }, { priceTicks: 11_001, qty: 3 }]);
    expect(out.asks).toEqual([{ priceTicks: 11_004, qty: 3 }]);
    expect(othersBook(b, [{ side: 'buy', priceTicks: 11_000, qty: 1 }])).toBe(b);
  });

  it('a venue book that shows our resting bid inside a wide spread reaches the strategy without it', async () => {
    const s = new SeeingStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    const t = h.clock.nowMs();
    s.next = quotes(EURUSD, 11_003, 11_008, 2);
    h.market$.next(book(t, [[11_000, 5]], [[11_010, 5]]));
    await h.settle();
    expect(h.engine.snapshot().symbols[0]!.working.map((o) => o.status)).toEqual(['open', 'open']);
    // The venue now shows our bid 11003 ×2 and ask 11008 ×2 (the latter joined by 1 of someone else's).
    h.market$.next(book(t, [[11_003, 2], [11_000, 5]], [[11_008, 3], [11_010, 5]]));
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[11_000, 5]], asks: [[11_008, 1], [11_010, 5]] });
  });

  it('a backtest engine (marketDataShowsOwnOrders: false) passes the book as it comes', async () => {
    const s = new SeeingStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { marketDataShowsOwnOrders: false });
    const t = h.clock.nowMs();
    s.next = quotes(EURUSD, 11_003, 11_008, 2);
    h.market$.next(book(t, [[11_000, 5]], [[11_010, 5]]));
    await h.settle();
    h.market$.next(book(t, [[11_003, 2], [11_000, 5]], [[11_010, 5]]));
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[11_003, 2], [11_000, 5]], asks: [[11_010, 5]] });
  });
});
