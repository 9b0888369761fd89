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
import { arrayOf, nullable, obj, oidOrCid, optional, optNull } from './kit.ts';
import { bool, cid, dateTime, dec, int, intLike, nsLike, str, uint } from './scalars.ts';
import { readOrder, readOrderStatus } from './order.ts';

const optStr = optional(str);
const optCid = optional(cid);

/** Decodes a WirePlaceOrderRequest. */
export const readPlaceOrderRequest = obj<WirePlaceOrderRequest>(
  { s: str, d: side, q: uint, p: dec, tif, po: bool, rb: optional(reprice), st: optional(stp), tag: optStr, cid: optCid, aid: optStr },
  'place order request',
);
/** Decodes a WireOrderIdResponse. */
export const readOrderIdResponse = obj<WireOrderIdResponse>({ oid: str }, 'order id response {oid}');
/** Decodes a WireCancelOrderRequest. */
export const readCancelOrderRequest = obj<WireCancelOrderRequest>({ oid: optStr, cid: optCid, aid: optStr }, 'cancel order request', oidOrCid);
/** Decodes a WireCancelOrderResponse. */
export const readCancelOrderResponse = obj<WireCancelOrderResponse>({ cxl_rx: bool }, 'cancel order response {cxl_rx}');
/** Decodes a WireReplaceOrderRequest. */
export const readReplaceOrderRequest = obj<WireReplaceOrderRequest>(
  { oid: optStr, cid: optCid, aid: optStr, p: optional(dec), q: optional(uint), tif: optional(tif), po: optional(bool), rb: optional(reprice) },
  'replace order request',
  oidOrCid,
);
/** Decodes a WireCancelAllOrdersRequest. */
export const readCancelAllOrdersRequest = obj<WireCancelAllOrdersRequest>({ account_id: optStr, symbol: optStr }, 'cancel-all request');
/** Decodes a WireOrderStatusQuery. */
export const readOrderStatusQuery = obj<WireOrderStatusQuery>({ oid: optStr, cid: optCid, account_id: optStr }, 'order status query', oidOrCid);
/** Decodes a WireOrderStatusResponse. */
export const readOrderStatusResponse = obj<WireOrderStatusResponse>({ status: readOrderStatus }, 'order status response {status}');
/** Decodes a WireOpenOrdersQuery. */
export const readOpenOrdersQuery = obj<WireOpenOrdersQuery>(
  { limit: optional(intLike), offset: optional(intLike), sort_ts: optional(sortTs), account_id: optStr },
  'open orders query',
);
const orders = arrayOf(readOrder, 'array of orders');
/** Decodes a WireOpenOrdersResponse. */
export const readOpenOrdersResponse = obj<WireOpenOrdersResponse>(
  { orders, total_count: uint, limit: uint, offset: uint },
  'open orders response',
);
/** Decodes a WireOrderHistoryQuery. */
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
/** Decodes a WireOrderHistoryResponse. */
export const readOrderHistoryResponse = obj<WireOrderHistoryResponse>(
  { orders, next_cursor: optNull(str), limit: optional(uint), total_count: optional(uint) },
  'order history response',
);
/** Decodes a WireOrderFillsQuery. */
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
/** Decodes an array of REST fills. */
export const readFills = arrayOf(readFill, 'array of fills');
/** Decodes a WireOrderFillsResponse. */
export const readOrderFillsResponse = obj<WireOrderFillsResponse>({ fills: readFills }, 'order fills response {fills}');
/** Decodes a WireInitialMarginResponse. */
export const readInitialMarginResponse = obj<WireInitialMarginResponse>(
  { im: dec, im_pct: dec, mult: dec, pos: int },
  'initial margin response',
);
