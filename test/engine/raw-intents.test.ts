import { describe, expect, it } from 'vitest';
import { asClientOrderId } from '../../src/core/index.ts';
import type { OrderIntent } from '../../src/domain/index.ts';
import type { Strategy, StrategyContext, StrategyOutput } from '../../src/strategy/contract.ts';
import { EURUSD, bookEv, harness } from './harness.ts';

/** A strategy that emits whatever raw intents the test queues, once. */
class RawStrategy implements Strategy {
  queue: ((ctx: StrategyContext) => OrderIntent[]) | null = null;
  quote(ctx: StrategyContext): StrategyOutput {
    const q = this.queue;
    this.queue = null;
    return q ? { intents: q(ctx) } : null;
  }
}

const place = (priceTicks: number, qty: number, side: 'buy' | 'sell' = 'buy'): OrderIntent => ({
  kind: 'place',
  symbol: EURUSD,
  side,
  priceTicks,
  qty,
  tif: 'GTC',
  postOnly: true,
  reprice: 'bo',
  selfTrade: 'CancelIncoming',
  clientOrderId: asClientOrderId(1), // ignored: the engine assigns its own
  tag: null,
});

describe('raw intents', () => {
  it('places with engine cids, replaces and cancels tracked orders, and risk-checks each', async () => {
    const s = new RawStrategy();
    const h = await harness([{ id: 'raw', symbol: EURUSD, strategy: s }]);
    s.queue = () => [place(11000, 2), place(11010, 3, 'sell'), place(10990, 500)];
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open().map((o) => [o.side, o.priceTicks, o.qty]).sort()).toEqual([['buy', 11000, 2], ['sell', 11010, 3]]);
    expect(h.gw.open().every((o) => o.clientOrderId !== '1')).toBe(true);
    expect(h.of('reject')).toEqual([expect.objectContaining({ source: 'risk', reason: 'max-order-qty' })]);
    // Raw orders persist (no ladder diff) until the strategy changes them.
    h.market$.next(bookEv(EURUSD, 11003, 11005, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open()).toHaveLength(2);
    s.queue = (ctx) => {
      const bid = ctx.workingOrders.find((o) => o.side === 'buy')!;
      const ask = ctx.workingOrders.find((o) => o.side === 'sell')!;
      return [
        { kind: 'replace', symbol: EURUSD, orderId: bid.orderId!, clientOrderId: bid.clientOrderId, priceTicks: 10999, qty: 2 },
        { kind: 'cancel', symbol: EURUSD, orderId: ask.orderId, clientOrderId: ask.clientOrderId },
      ];
    };
    h.market$.next(bookEv(EURUSD, 11003, 11005, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open().map((o) => [o.side, o.priceTicks])).toEqual([['buy', 10999]]);
    s.queue = () => [{ kind: 'cancel-all', symbol: EURUSD }];
    h.market$.next(bookEv(EURUSD, 11003, 11005, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open()).toEqual([]);
  });
});
