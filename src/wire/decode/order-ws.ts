/**
 * Order-entry WebSocket decoders: server frames (events and replies) on the hot path, plus client
 * requests for the local venue.
 */
import type { Result } from '../../core/result.ts';
import type { WireEstimatedFunding } from '../types/funding.ts';
import type {
  WireLoginReply,
  WireLoginResult,
  WireOrderWsError,
  WireOrderWsEvent,
  WireOrderWsFrame,
  WireOrderWsReply,
  WireOrderWsRequest,
  WireOrderWsResult,
} from '../types/order-ws.ts';
import { rejectReason, reprice, side, stp, tif } from './enums.ts';
import { readEstimatedFunding } from './funding.ts';
import {
  arrayOf,
  fail,
  failed,
  isRec,
  literal,
  obj,
  oidOrCid,
  optional,
  runDecoder,
  type Decoder,
  type DecodeError,
} from './kit.ts';
import { runDecoderOnText } from './json-text.ts';
import { bool, cid, dec, int, str, uint } from './scalars.ts';
import { optOrder, readFillDetail, readOrder, readOrderStatus } from './order.ts';

const ORDER_EVENT_TYPES: ReadonlySet<string> = new Set(['h', 'n', 'p', 'f', 'c', 'j', 'x', 'd', 'r', 'e']);

/** Decodes an order-WS event (`t` one of `h n p f c j x d r e`). */
export const readOrderWsEvent: Decoder<WireOrderWsEvent> = (v, parent, key) => {
  if (!isRec(v)) return fail(v, parent, key, 'event object');
  const t = v.t;
  if (typeof t !== 'string' || !ORDER_EVENT_TYPES.has(t)) return fail(t, '$', 't', 'order event type (h n p f c j x d r e)');
  const ts = uint(v.ts, '$', 'ts');
  const tn = uint(v.tn, '$', 'tn');
  switch (t) {
    case 'h':
      return { t, ts, tn };
    case 'n':
    case 'x':
    case 'd':
      return { t, ts, tn, eid: str(v.eid, '$', 'eid'), o: readOrder(v.o, '$.o', null) };
    case 'p':
    case 'f':
      return { t, ts, tn, eid: str(v.eid, '$', 'eid'), o: readOrder(v.o, '$.o', null), xs: readFillDetail(v.xs, '$.xs', null) };
    case 'c':
      return {
        t,
        ts,
        tn,
        eid: str(v.eid, '$', 'eid'),
        o: readOrder(v.o, '$.o', null),
        xr: v.xr === undefined || v.xr === null ? undefined : str(v.xr, '$', 'xr'),
        txt: v.txt === undefined || v.txt === null ? undefined : str(v.txt, '$', 'txt'),
      };
    case 'j':
      return {
        t,
        ts,
        tn,
        eid: str(v.eid, '$', 'eid'),
        o: readOrder(v.o, '$.o', null),
        r: v.r === undefined || v.r === null ? v.r : rejectReason(v.r, '$', 'r'),
        txt: v.txt === undefined || v.txt === null ? undefined : str(v.txt, '$', 'txt'),
      };
    case 'r':
      return {
        t,
        ts,
        tn,
        eid: str(v.eid, '$', 'eid'),
        ro: readOrder(v.ro, '$.ro', null),
        noid: v.noid === undefined || v.noid === null ? undefined : str(v.noid, '$', 'noid'),
        no: v.no === undefined || v.no === null ? undefined : readOrder(v.no, '$.no', null),
      };
    case 'e':
      return {
        t,
        ts,
        tn,
        oid: v.oid === undefined || v.oid === null ? undefined : str(v.oid, '$', 'oid'),
        cid: v.cid === undefined || v.cid === null ? undefined : cid(v.cid, '$', 'cid'),
        r: str(v.r, '$', 'r'),
        txt: v.txt === undefined || v.txt === null ? undefined : str(v.txt, '$', 'txt'),
        o: optOrder(v.o, '$', 'o'),
      };
    default:
      return fail(t, '$', 't', 'order event type (h n p f c j x d r e)');
  }
};

const readLoginResult: Decoder<WireLoginResult> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'login result object');
  return { li: str(v.li, '$.res', 'li'), o: v.o === null ? null : readOrderList(v.o, '$.res', 'o'), cod: bool(v.cod, '$.res', 'cod') };
};

const readOrderList = arrayOf(readOrder, 'array of orders');

/** Recognises a reply result by shape; objects with no recognised key are the empty result. */
const readResult: Decoder<WireOrderWsResult> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'result object');
  if (v.li !== undefined) return readLoginResult(v, p, k);
  if (v.oid !== undefined) return { oid: str(v.oid, '$.res', 'oid') };
  if (v.cxl_rx !== undefined) return { cxl_rx: bool(v.cxl_rx, '$.res', 'cxl_rx') };
  if (v.orders !== undefined) return { orders: readOrderList(v.orders, '$.res', 'orders') };
  if (isRec(v.status)) return { status: readOrderStatus(v.status, '$.res', 'status') };
  if (typeof v.status === 'string' && v.symbol !== undefined) return readEstimatedFunding(v, p, k) as WireEstimatedFunding;
  return {};
};

const readWsError = obj<WireOrderWsError>({ code: int, msg: str, data: optional(str) }, 'error object');

/** Decodes a reply envelope `{rid, res}` / `{rid, err}`. */
export const readOrderWsReply: Decoder<WireOrderWsReply> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'reply object');
  const rid = int(v.rid, '$', 'rid');
  const res = v.res === undefined || v.res === null ? v.res : readResult(v.res, '$', 'res');
  const e = v.err === undefined || v.err === null ? v.err : readWsError(v.err, '$', 'err');
  if (!failed() && (res === undefined || res === null) && (e === undefined || e === null)) {
    return fail(undefined, '$', 'res', 'res or err');
  }
  const out: { rid: number; res?: WireOrderWsResult | null; err?: WireOrderWsError | null } = { rid };
  if (res !== undefined) out.res = res;
  if (e !== undefined) out.err = e;
  return out;
};

/** Decodes the login reply (rid 0, `res.li`, `res.o` null or orders, `res.cod`). */
export const readLoginReply: Decoder<WireLoginReply> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'login reply object');
  const rid = int(v.rid, '$', 'rid');
  if (v.err !== undefined && v.err !== null) return fail(v.err, '$', 'err', 'null or absent err on a login reply');
  const res = readLoginResult(v.res, '$', 'res');
  return v.err === null ? { rid, res, err: null } : { rid, res };
};

/** Decodes any order-WS server frame: events carry `t`, replies carry `rid`. */
export const readOrderWsFrame: Decoder<WireOrderWsFrame> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'object');
  if (v.t !== undefined) return readOrderWsEvent(v, p, k);
  if (v.rid !== undefined) return readOrderWsReply(v, p, k);
  return fail(v, p, k, 'an event (t) or a reply (rid)');
};

// ------------------------------------------------------------------ client requests (local venue side)


const optCid = optional(cid);
const optStr = optional(str);

const placeReq = obj<Extract<WireOrderWsRequest, { t: 'p' }>>(
  { rid: int, t: literal('p'), s: str, d: side, q: uint, p: dec, tif, po: bool, rb: optional(reprice), st: optional(stp), tag: optStr, cid: optCid },
  'place request',
);
const cancelReq = obj<Extract<WireOrderWsRequest, { t: 'x' }>>({ rid: int, t: literal('x'), oid: optStr, cid: optCid }, 'cancel request', oidOrCid);
const cancelAllReq = obj<Extract<WireOrderWsRequest, { t: 'X' }>>({ rid: int, t: literal('X'), symbol: optStr }, 'cancel-all request');
const replaceReq = obj<Extract<WireOrderWsRequest, { t: 'r' }>>(
  { rid: int, t: literal('r'), oid: optStr, cid: optCid, p: optional(dec), q: optional(uint), tif: optional(tif), po: optional(bool), rb: optional(reprice) },
  'replace request',
  oidOrCid,
);
const statusReq = obj<Extract<WireOrderWsRequest, { t: 's' }>>({ rid: int, t: literal('s'), oid: optStr, cid: optCid }, 'status request', oidOrCid);
const openReq = obj<Extract<WireOrderWsRequest, { t: 'o' }>>({ rid: int, t: literal('o') }, 'open-orders request');
const efReq = obj<Extract<WireOrderWsRequest, { t: 'ef' }>>({ rid: int, t: literal('ef'), symbol: str }, 'estimated-funding request');
const hbReq = obj<Extract<WireOrderWsRequest, { t: 'h' }>>({ rid: int, t: literal('h') }, 'heartbeat request');

/** Decodes a client request (`t` one of `p x X r s o ef h`). */
export const readOrderWsRequest: Decoder<WireOrderWsRequest> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'request object');
  switch (v.t) {
    case 'p':
      return placeReq(v, p, k);
    case 'x':
      return cancelReq(v, p, k);
    case 'X':
      return cancelAllReq(v, p, k);
    case 'r':
      return replaceReq(v, p, k);
    case 's':
      return statusReq(v, p, k);
    case 'o':
      return openReq(v, p, k);
    case 'ef':
      return efReq(v, p, k);
    case 'h':
      return hbReq(v, p, k);
    default:
      return fail(v.t, '$', 't', 'request type (p x X r s o ef h)');
  }
};

/** Decodes an order-WS server frame from socket text (event or reply). Never throws. */
export const decodeOrderWsFrame = (text: string): Result<WireOrderWsFrame, DecodeError> => runDecoderOnText(readOrderWsFrame, text);
/** Decodes an order-WS event value. */
export const decodeOrderWsEvent = (v: unknown): Result<WireOrderWsEvent, DecodeError> => runDecoder(readOrderWsEvent, v);
/** Decodes an order-WS reply value. */
export const decodeOrderWsReply = (v: unknown): Result<WireOrderWsReply, DecodeError> => runDecoder(readOrderWsReply, v);
/** Decodes the login reply value. */
export const decodeLoginReply = (v: unknown): Result<WireLoginReply, DecodeError> => runDecoder(readLoginReply, v);
/** Decodes an order-WS client request value (local venue). */
export const decodeOrderWsRequest = (v: unknown): Result<WireOrderWsRequest, DecodeError> => runDecoder(readOrderWsRequest, v);
/** Decodes an order-WS client request from socket text (local venue). */
export const decodeOrderWsRequestText = (text: string): Result<WireOrderWsRequest, DecodeError> => runDecoderOnText(readOrderWsRequest, text);
/** Decodes a standalone order object. */
export const decodeOrder = (v: unknown): Result<ReturnType<typeof readOrder>, DecodeError> => runDecoder(readOrder, v);
