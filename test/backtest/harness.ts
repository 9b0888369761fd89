import { VirtualClock } from '../../src/core/clock.ts';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { PlaceOrder } from '../../src/domain/intents.ts';
import { ActionQueue } from '../../src/backtest/action-queue.ts';
import { LatencyModel, type OrderLatencyConfig } from '../../src/backtest/latency-model.ts';
import { feeSchedule } from '../../src/backtest/ledger.ts';
import { queueModel, type QueueModel, type QueueModelConfig } from '../../src/backtest/queue-model.ts';
import { ReplayExchange } from '../../src/backtest/replay-exchange.ts';
import type { ReactionSettings } from '../../src/backtest/settings.ts';
import { testInstrument } from '../record/fixtures.ts';

/** A replay exchange on one symbol (ticks 900..1100) driven by hand: book levels, trades, actions. */
export function exchangeHarness(queue: QueueModelConfig | QueueModel = { kind: 'risk-averse' }, latency: OrderLatencyConfig = { entry: 0, response: 0 }, opts: { readonly l3?: boolean; readonly reaction?: ReactionSettings } = {}) {
  const clock = new VirtualClock(0);
  // L3: levels and their order lists go into growing pools, as in a columnar recording.
  const pool = { levels: new Float64Array(1 << 14), orderStart: new Float64Array(1 << 13), orderQty: new Float64Array(1 << 14), nl: 0, no: 0 };
  const actions = new ActionQueue();
  const events: OrderEvent[] = [];
  const ex = new ReplayExchange({
    instruments: [testInstrument('TEST-PERP', '0.01', 1)],
    minTick: [900],
    maxTick: [1100],
    clock,
    actions,
    latency: new LatencyModel(latency, 1),
    queue: 'onTrade' in queue ? queue : queueModel(queue),
    fees: feeSchedule('0', '0.0002'),
    seed: 7,
    onOrderEvent: (e) => events.push(e),
    onSettled: () => undefined,
    ...(opts.reaction ? { reaction: opts.reaction } : {}),
    ...(opts.l3 ? { l3: { orderStart: pool.orderStart, orderQty: pool.orderQty } } : {}),
  });
  let cid = 1;
  const run = (t = clock.nowMs()): void => {
    while (actions.peekTime() <= t) {
      const at = actions.peekTime();
      clock.advanceTo(Math.max(clock.nowMs(), at));
      ex.now = Math.max(ex.now, at);
      actions.runNext();
    }
    clock.advanceTo(Math.max(clock.nowMs(), t));
    ex.now = Math.max(ex.now, t);
  };
  const h = {
    clock,
    ex,
    events,
    run,
    /** Sets book levels (delta): bids then asks as [price, qty]. */
    book(bids: [number, number][], asks: [number, number][] = [], snapshot = false): void {
      const flat = new Float64Array([...bids, ...asks].flat());
      ex.applyBook(0, snapshot, flat, 0, bids.length, asks.length);
    },
    /** L3 book levels (delta unless `snapshot`): [price, order sizes in queue order]; [] removes the level. */
    book3(bids: [number, number[]][], asks: [number, number[]][] = [], snapshot = false): void {
      const start = pool.nl;
      for (const [p, orders] of [...bids, ...asks]) {
        pool.levels[2 * pool.nl] = p;
        pool.levels[2 * pool.nl + 1] = orders.reduce((a, b) => a + b, 0);
        pool.orderStart[pool.nl] = pool.no;
        for (const q of orders) pool.orderQty[pool.no++] = q;
        pool.orderStart[++pool.nl] = pool.no;
      }
      ex.applyBook(0, snapshot, pool.levels, start, bids.length, asks.length);
    },
    trade(price: number, qty: number, takerBuy: boolean): void {
      ex.applyTrade(0, price, qty, takerBuy);
    },
    place(side: 'buy' | 'sell', priceTicks: number, qty: number, extra: Partial<PlaceOrder> = {}) {
      const intent: PlaceOrder = {
        kind: 'place', symbol: asSymbol('TEST-PERP'), side, priceTicks, qty, tif: 'GTC', postOnly: true, reprice: 'rej',
        selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(cid++), tag: null, ...extra,
      };
      const p = ex.place(intent);
      run();
      return p;
    },
    filledQty: (): number => ex.fillLog.reduce((a, f) => a + f.qty, 0),
  };
  return h;
}
