/**
 * Hot-path decoders for the order object and fill detail: hand-written field checks, one output
 * object, no paths built unless something fails.
 */
import type { WireFillDetail, WireOrder, WireOrderStatus } from '../types/order.ts';
import { orderState, rejectReason, reprice, side, tif } from './enums.ts';
import { fail, isRec, obj, optNull, pathOf, type PathKey } from './kit.ts';
import { bool, cid, dec, str, uint } from './scalars.ts';

/** Decodes an order object at `parent`/`key`. */
export function readOrder(v: unknown, parent: string, key: PathKey): WireOrder {
  if (!isRec(v)) return fail(v, parent, key, 'order object');
  const p = key === null ? parent : pathOf(parent, key);
  const r = v.r;
  return {
    oid: str(v.oid, p, 'oid'),
    u: v.u === undefined ? undefined : str(v.u, p, 'u'),
    aid: str(v.aid, p, 'aid'),
    s: str(v.s, p, 's'),
    p: dec(v.p, p, 'p'),
    q: uint(v.q, p, 'q'),
    xq: uint(v.xq, p, 'xq'),
    rq: uint(v.rq, p, 'rq'),
    o: orderState(v.o, p, 'o'),
    d: side(v.d, p, 'd'),
    tif: tif(v.tif, p, 'tif'),
    po: bool(v.po, p, 'po'),
    rb: v.rb === undefined ? undefined : reprice(v.rb, p, 'rb'),
    cid: v.cid === undefined ? undefined : cid(v.cid, p, 'cid'),
    tag: v.tag === undefined ? undefined : str(v.tag, p, 'tag'),
    r: r === undefined || r === null ? r : rejectReason(r, p, 'r'),
    txt: v.txt === undefined ? undefined : str(v.txt, p, 'txt'),
    ts: uint(v.ts, p, 'ts'),
    tn: uint(v.tn, p, 'tn'),
  };
}

/** Decodes a fill detail (`xs`). */
export function readFillDetail(v: unknown, parent: string, key: PathKey): WireFillDetail {
  if (!isRec(v)) return fail(v, parent, key, 'fill detail object');
  const p = key === null ? parent : pathOf(parent, key);
  return {
    tid: str(v.tid, p, 'tid'),
    aid: str(v.aid, p, 'aid'),
    s: str(v.s, p, 's'),
    q: uint(v.q, p, 'q'),
    p: dec(v.p, p, 'p'),
    d: side(v.d, p, 'd'),
    agg: bool(v.agg, p, 'agg'),
  };
}

/** Decodes an order-status record. */
export const readOrderStatus = obj<WireOrderStatus>(
  {
    symbol: str,
    order_id: str,
    clord_id: optNull(cid),
    state: orderState,
    filled_quantity: uint,
    remaining_quantity: uint,
    reject_reason: optNull(rejectReason),
    reject_message: optNull(str),
  },
  'order status object',
);

/** Optional order (`o` on cancel-reject events). */
export const optOrder = optNull(readOrder);
