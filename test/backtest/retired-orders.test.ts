import { describe, expect, it } from 'vitest';
import { asClientOrderId, asSymbol, type VenueOrderId } from '../../src/core/ids.ts';
import type { XOrder } from '../../src/backtest/exchange-order.ts';
import { RetiredOrders } from '../../src/backtest/retired-orders.ts';
import { ReplayIds } from '../../src/backtest/replay-ids.ts';
import { exchangeHarness } from './harness.ts';

const SYM = asSymbol('TEST-PERP');

/** The exchange's working orders by id and its done ones (protected). */
const held = (ex: object): { working: string[]; done: number } => {
  const x = ex as { _byId: Map<string, unknown>; _retired: RetiredOrders };
  return { working: [...x._byId.keys()], done: x._retired.size };
};

describe('replay exchange: done orders are kept in columns, answered as before', () => {
  it('replaced, canceled, filled and rejected orders leave the working orders; status, replace and cancel of them answer as the venue does', async () => {
    const h = exchangeHarness();
    h.book([[999, 50]], [[1003, 50]], true);
    const settle = async <T>(p: Promise<T>): Promise<T> => {
      h.run(h.clock.nowMs() + 1);
      return p;
    };
    const status = (ref: { orderId?: VenueOrderId; clientOrderId?: ReturnType<typeof asClientOrderId> }) => settle(h.ex.status(ref));
    const { orderId: first } = await settle(h.place('buy', 998, 3, { clientOrderId: asClientOrderId(7) }));
    const { orderId: second } = await settle(h.ex.replace({ kind: 'replace', symbol: SYM, orderId: first, clientOrderId: asClientOrderId(7), priceTicks: 997, qty: 4 }));
    expect(held(h.ex)).toEqual({ working: [second], done: 1 });
    expect(await status({ orderId: first })).toEqual({ symbol: SYM, orderId: first, clientOrderId: asClientOrderId(7), state: 'REPLACED', filledQty: 0, remainingQty: 0, rejectReason: null, rejectMessage: null });
    // Replacing the replaced order again: terminated, not unknown.
    const again = await settle(h.ex.replace({ kind: 'replace', symbol: SYM, orderId: first, clientOrderId: asClientOrderId(7), priceTicks: 996, qty: 4 }).then(() => 'accepted', (e: Error) => e.message));
    expect(again).toBe(`replace of ${first}: ORIGINAL_ORDER_TERMINATED`);
    // Canceling it by its own id is refused, even though its replacement carries the same client id.
    expect(await settle(h.ex.cancel({ kind: 'cancel', symbol: SYM, orderId: first, clientOrderId: asClientOrderId(7) }))).toEqual({ accepted: false });
    expect(h.ex.open[0]!.map((o) => [o.id, o.priceTicks, o.state])).toEqual([[second, 997, 'ACCEPTED']]);
    expect((await status({ clientOrderId: asClientOrderId(7) }))?.orderId).toBe(second);
    // Canceled: the last order given that client id answers for it.
    expect(await settle(h.ex.cancel({ kind: 'cancel', symbol: SYM, orderId: second, clientOrderId: asClientOrderId(7) }))).toEqual({ accepted: true });
    expect(held(h.ex)).toEqual({ working: [], done: 2 });
    expect(await status({ clientOrderId: asClientOrderId(7) })).toEqual({ symbol: SYM, orderId: second, clientOrderId: asClientOrderId(7), state: 'CANCELED', filledQty: 0, remainingQty: 0, rejectReason: null, rejectMessage: null });
    // Filled (a taker buy through the ask) and rejected (a post-only buy that would cross).
    const { orderId: taker } = await settle(h.place('buy', 1003, 5, { postOnly: false, clientOrderId: asClientOrderId(8) }));
    expect(await status({ orderId: taker })).toEqual({ symbol: SYM, orderId: taker, clientOrderId: asClientOrderId(8), state: 'FILLED', filledQty: 5, remainingQty: 0, rejectReason: null, rejectMessage: null });
    const { orderId: crossing } = await settle(h.place('buy', 1003, 5, { clientOrderId: asClientOrderId(9) }));
    expect((await status({ orderId: crossing }))?.state).toBe('REJECTED');
    expect(held(h.ex)).toEqual({ working: [], done: 4 });
  });
});

describe('RetiredOrders', () => {
  const ids = new ReplayIds(3);
  const order = (id: string, over: Partial<XOrder> = {}): XOrder =>
    ({ id, cid: asClientOrderId(5), sym: 0, symbol: SYM, sideIdx: 0, side: 'buy', priceTicks: 100, qty: 10, filled: 4, state: 'CANCELED', tif: 'GTC', postOnly: true, reprice: 'rej', stp: 'CancelIncoming', tag: null, createdMs: 0, restingSinceMs: 0, seq: 0, queue: { front: 0, cumTrades: 0 }, rejectReason: null, text: null, ...over }) as XOrder;

  it('finds a done order by its id only (a foreign or altered id is unknown), and the last one created with a client id', () => {
    const r = new RetiredOrders(ids.start, [SYM]);
    const a = ids.next('O', 1_700_000_000_123.7);
    ids.next('E', 1_700_000_000_124);
    const b = ids.next('O', 1_700_000_000_125);
    const c = ids.next('O', 1_700_000_000_126);
    r.add(order(c, { state: 'REJECTED', rejectReason: 'PRICE_OUT_OF_BOUNDS', text: 'above the maximum', sym: -1, symbol: asSymbol('OTHER') }));
    r.add(order(a, { state: 'FILLED', filled: 10 }));
    expect(r.size).toBe(2);
    expect(r.get(a)).toEqual({ id: a, cid: asClientOrderId(5), symbol: SYM, state: 'FILLED', qty: 10, filled: 10, rejectReason: null, text: null });
    expect(r.get(c)).toEqual({ id: c, cid: asClientOrderId(5), symbol: asSymbol('OTHER'), state: 'REJECTED', qty: 10, filled: 4, rejectReason: 'PRICE_OUT_OF_BOUNDS', text: 'above the maximum' });
    expect(r.get(b)).toBeUndefined();
    expect(r.get(`O-${a.slice(2, 11)}Z${a.slice(12)}`)).toBeUndefined();
    expect(r.get('O-nonsense')).toBeUndefined();
    expect(r.lastWithCid(asClientOrderId(5))?.id).toBe(c);
    expect(r.lastWithCid(asClientOrderId(6))).toBeUndefined();
  });

  it('grows past its first columns (3,000 orders, ids far apart)', () => {
    const r = new RetiredOrders(ids.start, [SYM]);
    const made: string[] = [];
    for (let k = 0; k < 3000; k++) {
      made.push(ids.next('O', 1_700_000_100_000 + k));
      for (let e = 0; e < 3; e++) ids.next('E', 1_700_000_100_000 + k);
    }
    made.forEach((id, k) => r.add(order(id, { filled: k % 11 })));
    expect(made.map((id) => r.get(id)?.filled)).toEqual(made.map((_, k) => k % 11));
  });
});
