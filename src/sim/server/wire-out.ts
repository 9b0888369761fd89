import type { Decimal } from '../../core/decimal.ts';
import type { ClientOrderId } from '../../core/ids.ts';
import { wireSide, type WireFill, type WireOrder, type WireOrderStatus, type WireOrderWsEvent } from '../../wire/index.ts';
import type { FillRecord } from '../accounts/account.ts';
import type { OrderSnapshot, SimOrder, VenueOrderEvent } from '../types.ts';
import type { Venue } from '../venue.ts';

/** Epoch ns → `{ ts, tn }` (seconds and the nanosecond part). */
export function tsTn(ns: bigint): { ts: number; tn: number } {
  return { ts: Number(ns / 1_000_000_000n), tn: Number(ns % 1_000_000_000n) };
}

/** Epoch ns → RFC 3339 with nanoseconds (`2026-09-24T05:20:35.984549483Z`). */
export function rfc3339Ns(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const iso = new Date(ms).toISOString(); // ...T05:20:35.984Z
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${frac}Z`;
}

/** Money as the venue prints it in portfolio data (12 fractional digits). */
export const money = (d: Decimal): string => d.toFixed(12);

/** Price of an order as the wire shows it: on-grid with the tick's decimals, else as sent. */
function priceOf(venue: Venue, o: OrderSnapshot | SimOrder): string {
  const m = venue.markets.get(o.symbol);
  if (!m || o.rejectReason === 'INVALID_PRICE_INCREMENT' || o.rejectReason === 'UNKNOWN_SYMBOL' || o.state === 'PENDING') return o.priceText;
  if (o.state === 'REJECTED' && o.priceTicks === 0) return o.priceText;
  return m.instrument.grid.toPrice(o.priceTicks);
}

/** The venue's order object (`cid`, `tag`, `r`, `txt` only when set; `rb` always). */
export function toWireOrder(venue: Venue, o: OrderSnapshot | SimOrder): WireOrder {
  const t = tsTn(o.createdNs);
  const out: { -readonly [K in keyof WireOrder]: WireOrder[K] } = {
    oid: o.oid,
    u: o.userId,
    aid: o.accountId,
    s: o.symbol,
    p: priceOf(venue, o),
    q: o.qty,
    xq: o.filledQty,
    rq: o.remainingQty,
    o: o.state,
    d: wireSide(o.side),
    tif: o.tif,
    po: o.postOnly,
    rb: o.reprice,
    ts: t.ts,
    tn: t.tn,
  };
  if (o.cid !== null) out.cid = o.cid as ClientOrderId;
  if (o.tag !== null) out.tag = o.tag;
  if (o.rejectReason !== null) out.r = o.rejectReason;
  if (o.text !== null) out.txt = o.text;
  return out;
}

/** Maps a venue order event to its wire event. */
export function toWireEvent(venue: Venue, e: VenueOrderEvent): WireOrderWsEvent {
  const t = tsTn(e.tsNs);
  switch (e.t) {
    case 'n':
    case 'x':
    case 'd':
      return { t: e.t, ...t, eid: e.eid, o: toWireOrder(venue, e.order) };
    case 'p':
    case 'f': {
      const m = venue.markets.get(e.fill.symbol)!;
      return {
        t: e.t,
        ...t,
        eid: e.eid,
        o: toWireOrder(venue, e.order),
        xs: { tid: e.fill.tradeId, aid: e.fill.accountId, s: e.fill.symbol, q: e.fill.qty, p: m.instrument.grid.toPrice(e.fill.priceTicks), d: wireSide(e.fill.side), agg: e.fill.aggressor },
      };
    }
    case 'c':
      return { t: 'c', ...t, eid: e.eid, o: toWireOrder(venue, e.order), xr: e.reason, txt: e.text };
    case 'j':
      return { t: 'j', ...t, eid: e.eid, o: toWireOrder(venue, e.order), r: e.reason, txt: e.text };
    case 'r':
      return { t: 'r', ...t, eid: e.eid, ro: toWireOrder(venue, e.original), noid: e.replacement.oid, no: toWireOrder(venue, e.replacement) };
    case 'e': {
      const out: { -readonly [K in keyof Extract<WireOrderWsEvent, { t: 'e' }>]: Extract<WireOrderWsEvent, { t: 'e' }>[K] } = { t: 'e', ...t, r: e.reason, txt: e.text };
      if (e.oid !== null) out.oid = e.oid;
      if (e.cid !== null) out.cid = e.cid as ClientOrderId;
      out.o = e.order ? toWireOrder(venue, e.order) : null;
      return out;
    }
  }
}

/** The order-status record (REST `/orders/order-status`, WS `s`). */
export function toWireStatus(o: SimOrder): WireOrderStatus {
  const out: { -readonly [K in keyof WireOrderStatus]: WireOrderStatus[K] } = {
    symbol: o.symbol,
    order_id: o.oid,
    state: o.state,
    filled_quantity: o.filledQty,
    remaining_quantity: o.remainingQty,
  };
  if (o.cid !== null) out.clord_id = o.cid as ClientOrderId;
  if (o.state === 'REJECTED') {
    out.reject_reason = o.rejectReason;
    out.reject_message = o.text;
  }
  return out;
}

/** A REST fill record. */
export function toWireFill(f: FillRecord): WireFill {
  return {
    trade_id: f.tradeId,
    order_id: f.orderId,
    account_id: f.accountId,
    timestamp: rfc3339Ns(f.tsNs),
    symbol: f.symbol,
    price: f.price.toFixed(),
    quantity: f.qty,
    is_taker: f.isTaker,
    fee: f.fee.toFixed(),
    side: wireSide(f.side),
    realized_pnl: f.realizedPnl === null ? null : f.realizedPnl.toFixed(),
    is_block_trade: false,
    is_final_settlement: f.isFinalSettlement,
  };
}
