/** REST decoders: order gateway bodies, queries and responses. */
import type { WireFill } from '../types/order.ts';
import type {
  WireCancelAllOrdersRequest,
  WireCancelOrderRequest,
  WireCancelOrderResponse,
  WireInitialMarginResponse,
  WireOpenOrdersQuery,
  WireOpenOrdersResponse,
  WireOrderFillsQuery,
  WireOrderFillsResponse,
  WireOrderHistoryQuery,
  WireOrderHistoryResponse,
  WireOrderIdResponse,
  WireOrderStatusQuery,
  WireOrderStatusResponse,
  WirePlaceOrderRequest,
  WireReplaceOrderRequest,
} from '../types/rest-orders.ts';
import { reprice, side, sortTs, stp, tif } from './enums.ts';
import { arrayOf, bool, cid, dateTime, dec, exactlyOne, int, intLike, nsLike, nullable, obj, optional, optNull, str, uint, type Rec } from './kit.ts';
import { readOrder, readOrderStatus } from './order.ts';

const optStr = optional(str);
const optCid = optional(cid);
const oidOrCid = <T>(out: T, raw: Rec, path: string): T => {
  exactlyOne(raw, path, 'oid', 'cid');
  return out;
};

export const readPlaceOrderRequest = obj<WirePlaceOrderRequest>(
  { s: str, d: side, q: uint, p: dec, tif, po: bool, rb: optional(reprice), st: optional(stp), tag: optStr, cid: optCid, aid: optStr },
  'place order request',
);
export const readOrderIdResponse = obj<WireOrderIdResponse>({ oid: str }, 'order id response {oid}');
export const readCancelOrderRequest = obj<WireCancelOrderRequest>({ oid: optStr, cid: optCid, aid: optStr }, 'cancel order request', oidOrCid);
export const readCancelOrderResponse = obj<WireCancelOrderResponse>({ cxl_rx: bool }, 'cancel order response {cxl_rx}');
export const readReplaceOrderRequest = obj<WireReplaceOrderRequest>(
  { oid: optStr, cid: optCid, aid: optStr, p: optional(dec), q: optional(uint), tif: optional(tif), po: optional(bool), rb: optional(reprice) },
  'replace order request',
  oidOrCid,
);
export const readCancelAllOrdersRequest = obj<WireCancelAllOrdersRequest>({ account_id: optStr, symbol: optStr }, 'cancel-all request');
export const readOrderStatusQuery = obj<WireOrderStatusQuery>({ oid: optStr, cid: optCid, account_id: optStr }, 'order status query', oidOrCid);
export const readOrderStatusResponse = obj<WireOrderStatusResponse>({ status: readOrderStatus }, 'order status response {status}');
export const readOpenOrdersQuery = obj<WireOpenOrdersQuery>(
  { limit: optional(intLike), offset: optional(intLike), sort_ts: optional(sortTs), account_id: optStr },
  'open orders query',
);
const orders = arrayOf(readOrder, 'array of orders');
export const readOpenOrdersResponse = obj<WireOpenOrdersResponse>(
  { orders, total_count: uint, limit: uint, offset: uint },
  'open orders response',
);
export const readOrderHistoryQuery = obj<WireOrderHistoryQuery>(
  {
    start_timestamp_ns: optional(nsLike),
    end_timestamp_ns: optional(nsLike),
    order_id: optStr,
    order_ids: optStr,
    limit: optional(intLike),
    cursor: optStr,
    account_id: optStr,
  },
  'order history query',
);
export const readOrderHistoryResponse = obj<WireOrderHistoryResponse>(
  { orders, next_cursor: optNull(str), limit: optional(uint), total_count: optional(uint) },
  'order history response',
);
export const readOrderFillsQuery = obj<WireOrderFillsQuery>({ oid: optStr, order_id: optStr, account_id: optStr, aid: optStr }, 'order fills query');

/** A REST fill record. */
export const readFill = obj<WireFill>(
  {
    trade_id: str,
    order_id: str,
    account_id: str,
    timestamp: dateTime,
    symbol: str,
    price: dec,
    quantity: uint,
    is_taker: bool,
    fee: dec,
    side,
    realized_pnl: nullable(dec),
    is_block_trade: optional(bool),
    is_final_settlement: optional(bool),
  },
  'fill object',
);
export const readFills = arrayOf(readFill, 'array of fills');
export const readOrderFillsResponse = obj<WireOrderFillsResponse>({ fills: readFills }, 'order fills response {fills}');
export const readInitialMarginResponse = obj<WireInitialMarginResponse>(
  { im: dec, im_pct: dec, mult: dec, pos: int },
  'initial margin response',
);
