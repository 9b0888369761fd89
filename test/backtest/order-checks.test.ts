import { describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/errors.ts';
import { exchangeHarness } from './harness.ts';

/** Venue checks of the replay exchange that must hold against our own resting orders and bad input (issue 32 items 3, 7, 8). */
describe('our own resting orders count as the opposite side (as on the venue, whose book holds them)', () => {
  // Our ask rests at 1000 with the market at 998 / 1003 (held by its minimum lifetime while the
  // new quote moves past it). Before: both buys below were checked against the market's 1003 only;
  // the post-only buy was accepted, the limit buy rested, and prints at 998 and 1003 filled all
  // three orders (10 bought at 1001 and 1002 against our own 10 sold at 1000).
  it('a post-only buy at 1001 is rejected and a limit buy at 1002 (CancelIncoming) is canceled: prints then fill only the ask', async () => {
    const h = exchangeHarness();
    h.book([[998, 100]], [[1003, 100]]);
    await h.place('sell', 1000, 10);
    expect(h.events.at(-1)).toMatchObject({ type: 'accepted', order: { priceTicks: 1000 } });
    await h.place('buy', 1001, 5);
    expect(h.events.at(-1)).toMatchObject({ type: 'rejected', text: 'post-only order would cross the book' });
    await h.place('buy', 1002, 5, { postOnly: false });
    expect(h.events.at(-1)).toMatchObject({ type: 'canceled', text: 'self-trade prevention: incoming order canceled' });
    expect(h.ex.open[0]!.map((x) => [x.side, x.priceTicks])).toEqual([['sell', 1000]]);
    h.run(1);
    h.trade(998, 50, false);
    h.trade(1003, 50, true);
    expect(h.ex.fillLog.map((f) => [f.side, f.priceTicks, f.qty])).toEqual([['sell', 1000, 10]]);
  });

  it('a post-only buy with bo reprices one tick below our own ask (999), not below the market\'s (1002)', async () => {
    const h = exchangeHarness();
    h.book([[998, 100]], [[1003, 100]]);
    await h.place('sell', 1000, 10);
    await h.place('buy', 1001, 5, { reprice: 'bo' });
    expect(h.events.at(-1)).toMatchObject({ type: 'accepted', order: { priceTicks: 999 } });
  });

  it('a replace of a post-only bid to 1001 is refused while our ask rests at 1000', async () => {
    const h = exchangeHarness();
    h.book([[998, 100]], [[1003, 100]]);
    await h.place('sell', 1000, 10);
    const { orderId } = await h.place('buy', 997, 5);
    const p = h.ex.replace({ kind: 'replace', symbol: 'TEST-PERP' as never, orderId, clientOrderId: '2' as never, priceTicks: 1001, qty: 5 });
    h.run();
    await expect(p).rejects.toThrow(/post-only order would cross the book/);
    expect(h.ex.open[0]!.map((x) => x.priceTicks).sort()).toEqual([1000, 997]);
  });
});

describe('replace checks the price grid as place does (item 7)', () => {
  for (const price of [1000.5, 0, -3]) {
    it(`a replace to ${price} ticks is refused with INVALID_PRICE_INCREMENT and the order keeps resting`, async () => {
      const h = exchangeHarness();
      h.book([[998, 100]], [[1003, 100]]);
      const { orderId } = await h.place('buy', 999, 10);
      const p = h.ex.replace({ kind: 'replace', symbol: 'TEST-PERP' as never, orderId, clientOrderId: '1' as never, priceTicks: price, qty: 10 });
      h.run();
      await expect(p).rejects.toMatchObject({ code: 'ORDER_REJECTED', details: { reason: 'INVALID_PRICE_INCREMENT' } });
      // Before: accepted, and a sell print at 998 filled 10 at 1000.5.
      h.run(1);
      h.trade(998, 50, false);
      expect(h.ex.fillLog.map((f) => [f.priceTicks, f.qty])).toEqual([[999, 10]]);
    });
  }
});

describe('a trade print must have a positive finite size and a positive integer price (item 8, exchange half)', () => {
  for (const [price, qty, what] of [[998, 0, 'size 0'], [998, -20, 'size -20'], [998, NaN, 'size NaN'], [998, Infinity, 'size Infinity'], [0, 5, 'price 0 ticks'], [998.5, 5, 'price 998.5 ticks']] as const) {
    it(`print of ${qty} at ${price}: RECORDING_INVALID naming ${what}, no fill booked`, async () => {
      const h = exchangeHarness();
      h.book([[999, 100]], [[1003, 100]]);
      await h.place('buy', 999, 10);
      h.run(7);
      let err: unknown;
      try {
        h.trade(price, qty, false);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MmError);
      expect((err as MmError).code).toBe('RECORDING_INVALID');
      expect((err as MmError).message).toBe(`trade print on TEST-PERP at exchange time 7 ms has ${what} (expected ${what.startsWith('size') ? 'a positive finite number of contracts' : 'a positive integer'})`);
      // Before: the sell print below our bid booked a fill of its size: 0, −20, NaN, 10 (Infinity capped by the order).
      expect(h.ex.fillLog).toEqual([]);
    });
  }
});
