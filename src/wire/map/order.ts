/** Order mapping: wire order / status / REST fill ⇄ domain Order / OrderStatus / Fill. */
import { asAccountId, asSymbol, asUserId, asVenueOrderId } from '../../core/ids.ts';
import type { Result } from '../../core/result.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { Fill, Order, OrderStatus } from '../../domain/order.ts';
import type { TickGrid } from '../../domain/tick-grid.ts';
import type { DecodeError } from '../decode/kit.ts';
import { WIRE_REJECT_REASONS, type WireEnum, type WireRejectReason } from '../types/common.ts';
import type { WireFill, WireOrder, WireOrderStatus } from '../types/order.ts';
import { cidOrNull, dateTimeToMs, mapFail, mapping, msToTsTn, rawOrNull, repriceOf, sideOf, stateOf, ticks, tifOf, tsTnToMs, wireSide } from './kit.ts';

/** The instrument grid for `symbol`, or a mapping failure naming `path`. */
export function gridFor(catalog: InstrumentCatalog, symbol: string, path: string): TickGrid {
  const inst = catalog.get(symbol);
  return inst ? inst.grid : mapFail(path, 'a symbol in the instrument catalog', symbol);
}

/** Maps an order object found at `path` (throws MapFailure; used inside `mapping`). */
export function orderAt(w: WireOrder, catalog: InstrumentCatalog, path: string): Order {
  const grid = gridFor(catalog, w.s, `${path}.s`);
  return {
    orderId: asVenueOrderId(w.oid),
    clientOrderId: cidOrNull(w.cid),
    accountId: asAccountId(w.aid),
    userId: w.u === undefined ? null : asUserId(w.u),
    symbol: asSymbol(w.s),
    side: sideOf(w.d, `${path}.d`),
    priceTicks: ticks(grid, w.p, `${path}.p`),
    qty: w.q,
    filledQty: w.xq,
    remainingQty: w.rq,
    state: stateOf(w.o),
    tif: tifOf(w.tif, `${path}.tif`),
    postOnly: w.po,
    reprice: repriceOf(w.rb, `${path}.rb`),
    tag: w.tag ?? null,
    rejectReason: rawOrNull(w.r),
    text: w.txt ?? null,
    createdMs: tsTnToMs(w.ts, w.tn),
  };
}

/** Maps a wire order to the domain Order (price in ticks via the catalog's grid). Never throws. */
export const toDomainOrder = (w: WireOrder, catalog: InstrumentCatalog): Result<Order, DecodeError> => mapping(() => orderAt(w, catalog, '$'));

const REASONS: ReadonlySet<string> = new Set(WIRE_REJECT_REASONS);
/** A domain reject reason as a wire enum value. */
export const wireReason = (r: string): WireEnum<WireRejectReason> => (REASONS.has(r) ? (r as WireRejectReason) : { unknown: r });

/**
 * Maps a domain Order to the wire order object (local venue). `cid`, `tag`, `txt` only when set;
 * `r` when a reason is set, or `null` for a REJECTED order without one (post-only cross).
 */
export function toWireOrder(o: Order, grid: TickGrid): WireOrder {
  const { ts, tn } = msToTsTn(o.createdMs);
  const out: { -readonly [K in keyof WireOrder]: WireOrder[K] } = {
    oid: o.orderId,
    u: o.userId ?? undefined,
    aid: o.accountId,
    s: o.symbol,
    p: grid.toPrice(o.priceTicks),
    q: o.qty,
    xq: o.filledQty,
    rq: o.remainingQty,
    o: o.state,
    d: wireSide(o.side),
    tif: o.tif,
    po: o.postOnly,
    rb: o.reprice,
    ts,
    tn,
  };
  if (o.userId === null) delete out.u;
  if (o.clientOrderId !== null) out.cid = o.clientOrderId;
  if (o.tag !== null) out.tag = o.tag;
  if (o.rejectReason !== null) out.r = wireReason(o.rejectReason);
  else if (o.state === 'REJECTED') out.r = null;
  if (o.text !== null) out.txt = o.text;
  return out;
}

/** Maps an order-status record. Never throws. */
export function toDomainOrderStatus(w: WireOrderStatus): OrderStatus {
  return {
    symbol: asSymbol(w.symbol),
    orderId: asVenueOrderId(w.order_id),
    clientOrderId: cidOrNull(w.clord_id),
    state: stateOf(w.state),
    filledQty: w.filled_quantity,
    remainingQty: w.remaining_quantity,
    rejectReason: rawOrNull(w.reject_reason),
    rejectMessage: w.reject_message ?? null,
  };
}

/** Maps a domain OrderStatus to the wire record (reject fields only when set). */
export function toWireOrderStatus(s: OrderStatus): WireOrderStatus {
  const out: { -readonly [K in keyof WireOrderStatus]: WireOrderStatus[K] } = {
    symbol: s.symbol,
    order_id: s.orderId,
    state: s.state,
    filled_quantity: s.filledQty,
    remaining_quantity: s.remainingQty,
  };
  if (s.clientOrderId !== null) out.clord_id = s.clientOrderId;
  if (s.rejectReason !== null) out.reject_reason = wireReason(s.rejectReason);
  if (s.rejectMessage !== null) out.reject_message = s.rejectMessage;
  return out;
}

/** Maps a REST fill record to the domain Fill (fee and realized PnL stay on the wire record). Never throws. */
export const toDomainFill = (w: WireFill, catalog: InstrumentCatalog): Result<Fill, DecodeError> =>
  mapping(() => ({
    tradeId: w.trade_id,
    orderId: asVenueOrderId(w.order_id),
    accountId: asAccountId(w.account_id),
    symbol: asSymbol(w.symbol),
    side: sideOf(w.side, '$.side'),
    priceTicks: ticks(gridFor(catalog, w.symbol, '$.symbol'), w.price, '$.price'),
    qty: w.quantity,
    aggressor: w.is_taker,
    tsEvent: dateTimeToMs(w.timestamp, '$.timestamp'),
  }));
