/** Order-event mapping: wire order-WS events ⇄ domain OrderEvent (tsEvent from ts/tn, tsRecv given). */
import { asExecutionId, asVenueOrderId } from '../../core/ids.ts';
import type { Result } from '../../core/result.ts';
import type { OrderEvent } from '../../domain/events.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { DecodeError } from '../decode/kit.ts';
import type { WireOrderWsEvent } from '../types/order-ws.ts';
import { cidOrNull, mapFail, mapping, msToTsTn, rawOrNull, sideOf, ticks, tsTnToMs, wireSide } from './kit.ts';
import { gridFor, orderAt, toWireOrder, wireReason } from './order.ts';

/**
 * Maps an order-WS event to a domain OrderEvent; heartbeats map to null. Fill prices become ticks
 * on the instrument's grid. Never throws.
 */
export function toOrderEvent(e: WireOrderWsEvent, catalog: InstrumentCatalog, tsRecvMs: number): Result<OrderEvent | null, DecodeError> {
  return mapping((): OrderEvent | null => {
    const tsEvent = tsTnToMs(e.ts, e.tn);
    const tsRecv = tsRecvMs;
    switch (e.t) {
      case 'h':
        return null;
      case 'n':
        return { type: 'accepted', executionId: asExecutionId(e.eid), order: orderAt(e.o, catalog, '$.o'), tsEvent, tsRecv };
      case 'x':
        return { type: 'expired', executionId: asExecutionId(e.eid), order: orderAt(e.o, catalog, '$.o'), tsEvent, tsRecv };
      case 'd':
        return { type: 'done-for-day', executionId: asExecutionId(e.eid), order: orderAt(e.o, catalog, '$.o'), tsEvent, tsRecv };
      case 'p':
      case 'f':
        // A fill naming another account or symbol than its own order contradicts itself: not a
        // fill of ours to book (issue 35), so the frame is refused like any malformed one.
        if (e.xs.aid !== e.o.aid) mapFail('$.xs.aid', `the account of its order ($.o.aid ${JSON.stringify(e.o.aid)})`, e.xs.aid);
        if (e.xs.s !== e.o.s) mapFail('$.xs.s', `the symbol of its order ($.o.s ${JSON.stringify(e.o.s)})`, e.xs.s);
        return {
          type: 'filled',
          executionId: asExecutionId(e.eid),
          order: orderAt(e.o, catalog, '$.o'),
          partial: e.t === 'p',
          tradeId: e.xs.tid,
          fillPriceTicks: ticks(gridFor(catalog, e.xs.s, '$.xs.s'), e.xs.p, '$.xs.p'),
          fillQty: e.xs.q,
          fillSide: sideOf(e.xs.d, '$.xs.d'),
          aggressor: e.xs.agg,
          tsEvent,
          tsRecv,
        };
      case 'c':
        return { type: 'canceled', executionId: asExecutionId(e.eid), order: orderAt(e.o, catalog, '$.o'), reason: e.xr ?? '', text: e.txt ?? '', tsEvent, tsRecv };
      case 'j':
        return { type: 'rejected', executionId: asExecutionId(e.eid), order: orderAt(e.o, catalog, '$.o'), reason: rawOrNull(e.r), text: e.txt ?? '', tsEvent, tsRecv };
      case 'r':
        return {
          type: 'replaced',
          executionId: asExecutionId(e.eid),
          original: orderAt(e.ro, catalog, '$.ro'),
          replacement: e.no === undefined ? null : orderAt(e.no, catalog, '$.no'),
          newOrderId: e.noid !== undefined ? asVenueOrderId(e.noid) : e.no !== undefined ? asVenueOrderId(e.no.oid) : null,
          tsEvent,
          tsRecv,
        };
      case 'e':
        return {
          type: 'cancel-rejected',
          orderId: e.oid === undefined ? null : asVenueOrderId(e.oid),
          clientOrderId: cidOrNull(e.cid),
          reason: e.r,
          text: e.txt ?? '',
          order: e.o === undefined || e.o === null ? null : orderAt(e.o, catalog, '$.o'),
          tsEvent,
          tsRecv,
        };
    }
  });
}

/**
 * Maps a domain OrderEvent to the wire event (local venue). `tsEvent` gives `ts`/`tn`. Returns
 * undefined when an instrument is missing from the catalog.
 */
export function toWireOrderEvent(e: OrderEvent, catalog: InstrumentCatalog): WireOrderWsEvent | undefined {
  const { ts, tn } = msToTsTn(e.tsEvent);
  const grid = (s: string) => catalog.get(s)?.grid;
  if (e.type === 'cancel-rejected') {
    const g = e.order ? grid(e.order.symbol) : undefined;
    if (e.order && !g) return undefined;
    return {
      t: 'e',
      ts,
      tn,
      oid: e.orderId ?? undefined,
      cid: e.clientOrderId ?? undefined,
      r: e.reason,
      txt: e.text,
      o: e.order && g ? toWireOrder(e.order, g) : undefined,
    };
  }
  if (e.type === 'replaced') {
    const g = grid(e.original.symbol);
    if (!g) return undefined;
    return {
      t: 'r',
      ts,
      tn,
      eid: e.executionId,
      ro: toWireOrder(e.original, g),
      noid: e.newOrderId ?? undefined,
      no: e.replacement ? toWireOrder(e.replacement, g) : undefined,
    };
  }
  const g = grid(e.order.symbol);
  if (!g) return undefined;
  const o = toWireOrder(e.order, g);
  const eid = e.executionId;
  switch (e.type) {
    case 'accepted':
      return { t: 'n', ts, tn, eid, o };
    case 'expired':
      return { t: 'x', ts, tn, eid, o };
    case 'done-for-day':
      return { t: 'd', ts, tn, eid, o };
    case 'canceled':
      return { t: 'c', ts, tn, eid, o, xr: e.reason, txt: e.text };
    case 'rejected':
      return { t: 'j', ts, tn, eid, o, r: e.reason === null ? null : wireReason(e.reason), txt: e.text };
    case 'filled':
      return {
        t: e.partial ? 'p' : 'f',
        ts,
        tn,
        eid,
        o,
        xs: { tid: e.tradeId, aid: e.order.accountId, s: e.order.symbol, q: e.fillQty, p: g.toPrice(e.fillPriceTicks), d: wireSide(e.fillSide), agg: e.aggressor },
      };
  }
}
