import { MmError } from '../core/errors.ts';
import type { ClientOrderId, VenueOrderId } from '../core/ids.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { WireCancelOrderRequest, WirePlaceOrderRequest, WireReplaceOrderRequest } from '../wire/index.ts';
import { wireSide } from './wire-port.ts';

/**
 * Ticks → the venue's decimal price string for `symbol`.
 * @throws MmError BAD_REQUEST when the symbol is not in the catalog (nothing is sent).
 */
export function priceString(catalog: InstrumentCatalog, symbol: string, ticks: number): string {
  const inst = catalog.get(symbol);
  if (!inst) throw new MmError('BAD_REQUEST', `unknown symbol ${symbol}: not in the instrument catalog`, { symbol });
  return inst.grid.toPrice(ticks);
}

/** A PlaceOrder intent as the place body shared by REST and the WS `p` message (without rid/t). */
export function placeBody(intent: PlaceOrder, catalog: InstrumentCatalog, accountId?: string): WirePlaceOrderRequest {
  return {
    s: intent.symbol,
    d: wireSide(intent.side),
    q: intent.qty,
    p: priceString(catalog, intent.symbol, intent.priceTicks),
    tif: intent.tif,
    po: intent.postOnly,
    rb: intent.reprice,
    st: intent.selfTrade,
    ...(intent.tag !== null ? { tag: intent.tag } : {}),
    cid: intent.clientOrderId,
    ...(accountId !== undefined ? { aid: accountId } : {}),
  };
}

/** A ReplaceOrder intent as the replace body (by venue id; omitted fields inherit). */
export function replaceBody(intent: ReplaceOrder, catalog: InstrumentCatalog, accountId?: string): WireReplaceOrderRequest {
  return {
    oid: intent.orderId,
    p: priceString(catalog, intent.symbol, intent.priceTicks),
    q: intent.qty,
    ...(accountId !== undefined ? { aid: accountId } : {}),
  };
}

/**
 * A CancelOrder intent as the cancel body: by venue id when known, else by client id.
 * @throws MmError BAD_REQUEST when neither id is given.
 */
export function cancelBody(intent: Pick<CancelOrder, 'orderId' | 'clientOrderId'>, accountId?: string): WireCancelOrderRequest {
  const ref = orderRef(intent.orderId, intent.clientOrderId);
  return { ...ref, ...(accountId !== undefined ? { aid: accountId } : {}) };
}

/**
 * `{oid}` or `{cid}` (exactly one, as the venue requires), preferring the venue id.
 * @throws MmError BAD_REQUEST when neither is given.
 */
export function orderRef(
  orderId: VenueOrderId | null | undefined,
  clientOrderId: ClientOrderId | null | undefined,
): { oid: string } | { cid: ClientOrderId } {
  if (orderId) return { oid: orderId };
  if (clientOrderId) return { cid: clientOrderId };
  throw new MmError('BAD_REQUEST', 'an order reference needs a venue order id or a client order id');
}
