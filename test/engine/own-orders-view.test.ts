import { describe, expect, it } from 'vitest';
import type { Book } from '../../src/domain/index.ts';
import { othersBook } from '../../src/domain/index.ts';
import type { StrategyContext } from '../../src/strategy/contract.ts';
import { EURUSD, ScriptedStrategy, harness, l2Book as book, quotes } from './harness.ts';

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

describe('the venue book and our order stream arrive on separate sockets: our orders are never taken for others', () => {
  // We quote the touch inside a wide market (others 10990 / 11020): taken for someone else's, our
  // own bid would move the mid the strategy quotes around, and it would chase its own quotes.
  const wide = (t: number, ourBid: [number, number] | null, ourAsk: [number, number] | null) =>
    book(t, [...(ourBid ? [ourBid] : []), [10_990, 5]], [...(ourAsk ? [ourAsk] : []), [11_020, 5]]);

  async function quoting(): Promise<{ s: SeeingStrategy; h: Awaited<ReturnType<typeof harness>>; t: number }> {
    const s = new SeeingStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    const t = h.clock.nowMs();
    s.next = quotes(EURUSD, 11_003, 11_008, 4);
    h.market$.next(wide(t, null, null));
    await h.settle();
    h.market$.next(wide(t, [11_003, 4], [11_008, 4]));
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[10_990, 5]], asks: [[11_020, 5]] });
    return { s, h, t };
  }

  it('a fill reported before the book shows it: the filled part is still ours until the next book update', async () => {
    const { s, h, t } = await quoting();
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    s.next = quotes(EURUSD, 11_003, 11_008, 3); // content with what the fill leaves: no top-up
    h.gw.fill({ orderId: bid.orderId }, 1); // the order stream first: 3 left; the book still shows 4
    await h.settle();
    expect(h.gw.calls('replace').filter((c) => c.priceTicks === 11_003)).toEqual([]); // the bid is left as it is
    expect(s.seen.at(-1)).toEqual({ bids: [[10_990, 5]], asks: [[11_020, 5]] });
    h.market$.next(wide(t, [11_003, 3], [11_008, 3])); // the book catches up (the ask was cut to 3 meanwhile)
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[10_990, 5]], asks: [[11_020, 5]] });
    h.market$.next(wide(t, [11_003, 3 + 2], [11_008, 3])); // someone joins our price: theirs
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[11_003, 2], [10_990, 5]], asks: [[11_020, 5]] });
  });

  it('an order filled away before the book shows it gone is never someone else\'s in between', async () => {
    const { s, h, t } = await quoting();
    const ask = h.gw.open().find((o) => o.side === 'sell')!;
    s.next = quotes(EURUSD, 11_003, null, 4); // stop asking: the ask is cancelled
    h.gw.fill({ orderId: ask.orderId }, 4); // …and filled away first, in full
    await h.settle();
    expect(s.seen.at(-1)!.asks).toEqual([[11_020, 5]]);
    h.market$.next(wide(t, [11_003, 4], null));
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[10_990, 5]], asks: [[11_020, 5]] });
  });

  it('a replace answered before the book moves: its old price is still ours until the book moves; a pending target only once the book shows the venue acted', async () => {
    const { s, h, t } = await quoting();
    // The venue moved our bid 11003 → 11004 and answered; the book still shows it at 11003.
    s.next = quotes(EURUSD, 11_004, 11_008, 4);
    h.market$.next(wide(t, [11_003, 4], [11_008, 4]));
    await h.settle();
    expect(h.gw.open().find((o) => o.side === 'buy')!.priceTicks).toBe(11_004);
    expect(s.seen.at(-1)).toEqual({ bids: [[10_990, 5]], asks: [[11_020, 5]] });
    // A replace the venue holds pending (no answer yet): the book shows the order where it was, and
    // someone resting at the target price stays someone's (joining the touch must not hide it).
    h.gw.hold = true;
    s.next = quotes(EURUSD, 11_006, 11_008, 4);
    h.market$.next(book(t, [[11_006, 3], [11_004, 4], [10_990, 5]], [[11_008, 4], [11_020, 5]]));
    await h.settle();
    expect(h.gw.calls('replace').at(-1)!.priceTicks).toBe(11_006); // sent, its answer held
    h.market$.next(book(t, [[11_006, 3], [11_004, 4], [10_990, 6]], [[11_008, 4], [11_020, 5]]));
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[11_006, 3], [10_990, 6]], asks: [[11_020, 5]] });
    // The venue acts and the book shows it before the answer arrives: ours at 11006, gone from 11004.
    h.market$.next(book(t, [[11_006, 3 + 4], [10_990, 6]], [[11_008, 4], [11_020, 5]]));
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[11_006, 3], [10_990, 6]], asks: [[11_020, 5]] });
  });

  it('a backtest engine keeps no ghosts (its feed never shows its own orders)', async () => {
    const s = new SeeingStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { marketDataShowsOwnOrders: false });
    s.next = quotes(EURUSD, 11_003, 11_008, 4);
    h.market$.next(wide(h.clock.nowMs(), null, null));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open().find((o) => o.side === 'buy')!.orderId }, 1);
    await h.settle();
    expect(s.seen.at(-1)).toEqual({ bids: [[10_990, 5]], asks: [[11_020, 5]] });
    h.market$.next(wide(h.clock.nowMs(), [11_003, 1], null)); // a replayed book: every level is someone else's
    await h.settle();
    expect(s.seen.at(-1)!.bids).toEqual([[11_003, 1], [10_990, 5]]);
  });
});
