/** Order gateway REST (`/orders/...`): bodies, queries and responses. */
import type { DecimalString, EpochNsString, WireCid, WireEnum, WireReprice, WireSide, WireSortTs, WireStp, WireTif } from './common.ts';
import type { WireFill, WireOrder, WireOrderStatus } from './order.ts';

/** `POST /orders/place-order` (and `/orders/initial-margin-requirement`) body. */
export interface WirePlaceOrderRequest {
  readonly s: string;
  readonly d: WireEnum<WireSide>;
  readonly q: number;
  readonly p: DecimalString;
  readonly tif: WireEnum<WireTif>;
  readonly po: boolean;
  readonly rb?: WireEnum<WireReprice> | undefined;
  readonly st?: WireEnum<WireStp> | undefined;
  readonly tag?: string | undefined;
  readonly cid?: WireCid | undefined;
  readonly aid?: string | undefined;
}
/** Place and replace responses: the (new) order id. */
export interface WireOrderIdResponse {
  readonly oid: string;
}
/** `POST /orders/cancel-order` body: `oid` or `cid`, exactly one. */
export interface WireCancelOrderRequest {
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
  readonly aid?: string | undefined;
}
/** `POST /orders/cancel-order` response: the cancel was accepted for processing. */
export interface WireCancelOrderResponse {
  readonly cxl_rx: boolean;
}
/** `POST /orders/replace-order` body: `oid` or `cid`; omitted fields inherit from the original. */
export interface WireReplaceOrderRequest {
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
  readonly aid?: string | undefined;
  readonly p?: DecimalString | undefined;
  readonly q?: number | undefined;
  readonly tif?: WireEnum<WireTif> | undefined;
  readonly po?: boolean | undefined;
  readonly rb?: WireEnum<WireReprice> | undefined;
}
/** `POST /orders/cancel-all-orders` body (both optional per the SDK). */
export interface WireCancelAllOrdersRequest {
  readonly account_id?: string | undefined;
  readonly symbol?: string | undefined;
}
/** `GET /orders/order-status` query: `oid` or `cid`. */
export interface WireOrderStatusQuery {
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
  readonly account_id?: string | undefined;
}
/** `GET /orders/order-status` response. */
export interface WireOrderStatusResponse {
  readonly status: WireOrderStatus;
}
/** `GET /orders/open-orders` query. */
export interface WireOpenOrdersQuery {
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  readonly sort_ts?: WireEnum<WireSortTs> | undefined;
  readonly account_id?: string | undefined;
}
/** `GET /orders/open-orders` response (newest first). */
export interface WireOpenOrdersResponse {
  readonly orders: readonly WireOrder[];
  readonly total_count: number;
  readonly limit: number;
  readonly offset: number;
}
/** `GET /orders/orders` (history) query; ≤ 7 days unless an id filter; ≤ 100 ids. */
export interface WireOrderHistoryQuery {
  readonly start_timestamp_ns?: EpochNsString | undefined;
  readonly end_timestamp_ns?: EpochNsString | undefined;
  readonly order_id?: string | undefined;
  /** Comma-separated order ids. */
  readonly order_ids?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly account_id?: string | undefined;
}
/** `GET /orders/orders` response; cursor-paged, `next_cursor` omitted on the last page. */
export interface WireOrderHistoryResponse {
  readonly orders: readonly WireOrder[];
  readonly next_cursor?: string | null | undefined;
  readonly limit?: number | undefined;
  readonly total_count?: number | undefined;
}
/** `GET /orders/order-fills` query (param name unconfirmed: accept `oid` or `order_id`). */
export interface WireOrderFillsQuery {
  readonly oid?: string | undefined;
  readonly order_id?: string | undefined;
  readonly account_id?: string | undefined;
  readonly aid?: string | undefined;
}
/** `GET /orders/order-fills` response. */
export interface WireOrderFillsResponse {
  readonly fills: readonly WireFill[];
}
/** `POST /orders/initial-margin-requirement` response: `im_pct` in percent, `pos` signed position. */
export interface WireInitialMarginResponse {
  readonly im: DecimalString;
  readonly im_pct: DecimalString;
  readonly mult: DecimalString;
  readonly pos: number;
}
