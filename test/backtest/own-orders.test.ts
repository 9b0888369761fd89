/**
 * The recording bot's own orders (`o` lines) are taken out of the recorded levels: the replayed bot
 * does not queue behind them, trade against them, cross them, or count them as reward competition.
 */
import { describe, expect, it } from 'vitest';
import { FeedDelivery } from '../../src/backtest/feed-delivery.ts';
import { LocalFeed } from '../../src/backtest/local-feed.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import { testInstrument } from '../record/fixtures.ts';
import { exchangeHarness } from './harness.ts';

/** Sets the recording bot's own levels (bids then asks as [price, qty]). */
function own(h: ReturnType<typeof exchangeHarness>, bids: [number, number][], asks: [number, number][] = []): void {
  h.ex.applyOwn(0, new Float64Array([...bids, ...asks].flat()), 0, bids.length, asks.length);
}

describe('own orders of the recording bot', () => {
  it('an order joining a level holding the live bot\'s own 100 queues behind the others only', async () => {
    const h = exchangeHarness();
    h.book([[1000, 400]], [[1003, 200]]);
    own(h, [[1000, 100]]); // 300 others + 100 of the live bot
    await h.place('buy', 1000, 50);
    expect(h.ex.open[0]![0]!.queue.front).toBe(300);
    h.trade(1000, 320, false); // 300 others ahead, 20 reach us
    expect(h.filledQty()).toBe(20);
  });

  it('a level that is only the live bot\'s order is empty for us: the next print there fills us', async () => {
    const h = exchangeHarness();
    h.book([[1001, 100], [1000, 300]], [[1003, 200]]);
    own(h, [[1001, 100]]);
    await h.place('buy', 1001, 100);
    expect(h.ex.open[0]![0]!.queue.front).toBe(0);
    h.trade(1001, 100, false);
    expect(h.filledQty()).toBe(100);

    const kept = exchangeHarness(); // the same without own-order lines: queued behind the ghost
    kept.book([[1001, 100], [1000, 300]], [[1003, 200]]);
    await kept.place('buy', 1001, 100);
    kept.trade(1001, 100, false);
    expect(kept.filledQty()).toBe(0);
  });

  it('depth changes the live bot explains do not move the queue; others\' cancellations still do', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1003, 200]]);
    await h.place('buy', 1000, 50); // front 300
    own(h, [[1000, 100]]); // the live bot joins behind...
    h.book([[1000, 400]]); // ...and the book shows it
    expect(h.ex.open[0]![0]!.queue.front).toBe(300);
    own(h, []); // it cancels...
    h.book([[1000, 300]]); // ...the level drops by its 100: no one ahead of us left
    expect(h.ex.open[0]![0]!.queue.front).toBe(300);
    h.book([[1000, 250]]); // someone else cancels: front capped at the others' 250
    expect(h.ex.open[0]![0]!.queue.front).toBe(250);
  });

  it('a post-only order does not cross the live bot\'s own quote, and a taker never trades with it', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1001, 100], [1002, 200]]);
    own(h, [], [[1001, 100]]); // the best ask is the live bot's own
    await h.place('buy', 1001, 50); // post-only, reprice rej: crosses only its own ask
    expect(h.events.map((e) => e.type)).toEqual(['accepted']);
    expect(h.ex.open[0]![0]!.priceTicks).toBe(1001);
    await h.place('buy', 1002, 60, { postOnly: false, tif: 'IOC' }); // a taker buy walks the asks
    const taker = h.ex.fillLog.filter((f) => f.aggressor);
    expect(taker.map((f) => [f.priceTicks, f.qty])).toEqual([[1002, 60]]);
  });
});

describe('the replayed bot sees the market without the recording bot\'s own orders (as the engine shows it live)', () => {
  it('a book frame holding the recording bot\'s own bid reaches the bot without it', () => {
    const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
    const S = inst.symbol;
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: 0, source: 't' }), [inst], [
      { type: 'own', symbol: S, bids: [{ priceTicks: 1001, qty: 100 }], asks: [{ priceTicks: 1004, qty: 2 }], tsEvent: 1, tsRecv: 1 },
      { type: 'book', symbol: S, level: 2, isSnapshot: true, bids: [{ priceTicks: 1001, qty: 100 }, { priceTicks: 1000, qty: 300 }], asks: [{ priceTicks: 1004, qty: 5 }], tsEvent: 2, tsRecv: 2 },
    ]);
    const got: unknown[] = [];
    const sinks = (seen: unknown[]) => ({ market$: { next: (e: unknown) => seen.push(e), error: () => {}, complete: () => {} }, connection$: { next: () => {}, error: () => {}, complete: () => {} }, funding$: { next: () => {}, error: () => {}, complete: () => {} }, forwardFunding: () => false });
    const d = new FeedDelivery(col, new LocalFeed(col, 20), 0, sinks(got) as never, true);
    d.step(0, 1);
    d.step(1, 2);
    expect(got).toMatchObject([{ type: 'book', bids: [{ priceTicks: 1000, qty: 300 }], asks: [{ priceTicks: 1004, qty: 3 }] }]);
    const kept: unknown[] = [];
    const k = new FeedDelivery(col, new LocalFeed(col, 20), 0, sinks(kept) as never, false);
    k.step(0, 1);
    k.step(1, 2);
    expect(kept).toMatchObject([{ type: 'book', bids: [{ priceTicks: 1001, qty: 100 }, { priceTicks: 1000, qty: 300 }], asks: [{ priceTicks: 1004, qty: 5 }] }]);
  });
});
