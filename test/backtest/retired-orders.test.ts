import { describe, expect, it } from 'vitest';
import { asClientOrderId, asSymbol, type VenueOrderId } from '../../src/core/ids.ts';
import { RetiredOrder } from '../../src/backtest/exchange-order.ts';
import { exchangeHarness } from './harness.ts';

const SYM = asSymbol('TEST-PERP');

/** The exchange's order index (protected): what it holds per venue id. */
const held = (ex: object): Map<string, unknown> => (ex as { _byId: Map<string, unknown> })._byId;

describe('replay exchange: done orders are kept as small records, answered as before', () => {
  it('replaced, canceled, filled and rejected orders become RetiredOrder; status, replace and cancel of them answer as the venue does', async () => {
    const h = exchangeHarness();
    h.book([[999, 50]], [[1003, 50]], true);
    const settle = async <T>(p: Promise<T>): Promise<T> => {
      h.run(h.clock.nowMs() + 1);
      return p;
    };
    const status = (ref: { orderId?: VenueOrderId; clientOrderId?: ReturnType<typeof asClientOrderId> }) => settle(h.ex.status(ref));
    const { orderId: first } = await settle(h.place('buy', 998, 3, { clientOrderId: asClientOrderId(7) }));
    const { orderId: second } = await settle(h.ex.replace({ kind: 'replace', symbol: SYM, orderId: first, clientOrderId: asClientOrderId(7), priceTicks: 997, qty: 4 }));
    expect(held(h.ex).get(first)).toBeInstanceOf(RetiredOrder);
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
    expect(held(h.ex).get(second)).toBeInstanceOf(RetiredOrder);
    expect(await status({ clientOrderId: asClientOrderId(7) })).toEqual({ symbol: SYM, orderId: second, clientOrderId: asClientOrderId(7), state: 'CANCELED', filledQty: 0, remainingQty: 0, rejectReason: null, rejectMessage: null });
    // Filled (a taker buy through the ask) and rejected (a post-only buy that would cross).
    const { orderId: taker } = await settle(h.place('buy', 1003, 5, { postOnly: false, clientOrderId: asClientOrderId(8) }));
    expect(await status({ orderId: taker })).toEqual({ symbol: SYM, orderId: taker, clientOrderId: asClientOrderId(8), state: 'FILLED', filledQty: 5, remainingQty: 0, rejectReason: null, rejectMessage: null });
    const { orderId: crossing } = await settle(h.place('buy', 1003, 5, { clientOrderId: asClientOrderId(9) }));
    expect((await status({ orderId: crossing }))?.state).toBe('REJECTED');
    expect([...held(h.ex).values()].map((x) => x instanceof RetiredOrder)).toEqual([true, true, true, true]);
  });
});
