import { describe, expect, it } from 'vitest';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import { exchangeHarness } from './harness.ts';

const SYM = asSymbol('TEST-PERP');

describe('replay exchange: what the bot can know and what the venue checks', () => {
  it('positions() counts only the fills delivered to the bot by now (no look-ahead)', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 1, response: 10 });
    h.book([[999, 50]], [[1001, 50]], true);
    void h.place('buy', 1001, 5, { postOnly: false, tif: 'IOC' });
    h.run(5); // matched at 1 ms, the fill reaches the bot at 11 ms
    expect(h.filledQty()).toBe(5);
    expect((await h.ex.positions()).get(SYM)).toBe(0);
    h.run(11);
    expect((await h.ex.positions()).get(SYM)).toBe(5);
  });

  it('selfTrade CancelIncoming: a buy that would reach our own resting ask is canceled, not filled behind it', async () => {
    const h = exchangeHarness();
    h.book([[999, 50]], [[1003, 50]], true);
    void h.place('sell', 1002, 3);
    void h.place('buy', 1003, 10, { postOnly: false, selfTrade: 'CancelIncoming' });
    expect(h.filledQty()).toBe(0);
    const canceled = h.events.filter((e) => e.type === 'canceled');
    expect(canceled.map((e) => e.type === 'canceled' && [e.order.side, e.text])).toEqual([['buy', 'self-trade prevention: incoming order canceled']]);
    expect(h.ex.open[0]!.map((o) => [o.side, o.priceTicks])).toEqual([['sell', 1002]]);
  });

  it('selfTrade CancelResting: our resting ask is canceled and the buy takes the market at 1003', () => {
    const h = exchangeHarness();
    h.book([[999, 50]], [[1003, 50]], true);
    void h.place('sell', 1002, 3);
    void h.place('buy', 1003, 10, { postOnly: false, selfTrade: 'CancelResting' });
    expect(h.ex.fillLog.map((f) => [f.side, f.priceTicks, f.qty])).toEqual([['buy', 1003, 10]]);
    expect(h.ex.open[0]).toEqual([]);
  });

  it('selfTrade: market liquidity better than our own order is taken first', () => {
    const h = exchangeHarness();
    h.book([[999, 50]], [[1001, 4], [1003, 50]], true);
    void h.place('sell', 1002, 3);
    void h.place('buy', 1003, 10, { postOnly: false, selfTrade: 'CancelIncoming' });
    expect(h.ex.fillLog.map((f) => [f.side, f.priceTicks, f.qty])).toEqual([['buy', 1001, 4]]);
  });

  it('replace is checked like a new order: instrument state and price band', async () => {
    const h = exchangeHarness();
    h.book([[999, 50]], [[1003, 50]], true);
    const { orderId } = await (async () => {
      const p = h.place('buy', 998, 3);
      h.run(1);
      return p;
    })();
    const replace = (priceTicks: number) => {
      const p = h.ex.replace({ kind: 'replace', symbol: SYM, orderId, clientOrderId: asClientOrderId(99), priceTicks, qty: 3 });
      h.run(h.clock.nowMs() + 1);
      return p.then(() => 'accepted', (e: Error) => e.message);
    };
    h.ex.applyTicker(0, 'OPEN', 990, 1010);
    expect(await replace(980)).toBe(`replace of ${orderId}: PRICE_OUT_OF_BOUNDS`);
    h.ex.applyTicker(0, 'CLOSED', null, null);
    expect(await replace(997)).toBe(`replace of ${orderId}: EXCHANGE_CLOSED`);
    // Refused replaces leave the original resting.
    expect(h.ex.open[0]!.map((o) => [o.id, o.priceTicks, o.state])).toEqual([[orderId, 998, 'ACCEPTED']]);
    h.ex.applyTicker(0, 'OPEN', 990, 1010);
    expect(await replace(997)).toBe('accepted');
  });
});
