/**
 * Order-entry WebSocket (`/orders/ws`): client requests, replies and server events. Requests that
 * look like the REST order bodies (types/rest-orders.ts) are spelled out again on purpose: the two
 * gateways are separate venue contracts (no `aid` here, `rid`/`t` added) and may drift apart.
 */
import type { DecimalString, WireCid, WireEnum, WireRejectReason, WireReprice, WireSide, WireStp, WireTif } from './common.ts';
import type { WireEstimatedFunding } from './funding.ts';
import type { WireFillDetail, WireOrder, WireOrderStatus } from './order.ts';

// ---------------------------------------------------------------------------- requests

/** `t:"p"` place an order. `s d q p tif po` are required. */
export interface WireWsPlaceOrder {
  readonly rid: number;
  readonly t: 'p';
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
}

/** `t:"x"` cancel one order, by `oid` or `cid` (exactly one). */
export interface WireWsCancelOrder {
  readonly rid: number;
  readonly t: 'x';
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
}

/** `t:"X"` cancel all orders (optionally one symbol). */
export interface WireWsCancelAll {
  readonly rid: number;
  readonly t: 'X';
  readonly symbol?: string | undefined;
}

/** `t:"r"` replace (cancel-replace) an order by `oid` or `cid`; omitted fields inherit. */
export interface WireWsReplaceOrder {
  readonly rid: number;
  readonly t: 'r';
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
  readonly p?: DecimalString | undefined;
  readonly q?: number | undefined;
  readonly tif?: WireEnum<WireTif> | undefined;
  readonly po?: boolean | undefined;
  readonly rb?: WireEnum<WireReprice> | undefined;
}

/** `t:"s"` order status by `oid` or `cid`. */
export interface WireWsOrderStatus {
  readonly rid: number;
  readonly t: 's';
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
}

/** `t:"o"` list open orders. */
export interface WireWsOpenOrders {
  readonly rid: number;
  readonly t: 'o';
}

/** `t:"ef"` estimated funding rate for a symbol. */
export interface WireWsEstimatedFunding {
  readonly rid: number;
  readonly t: 'ef';
  readonly symbol: string;
}

/** `t:"h"` client heartbeat (no reply). */
export interface WireWsHeartbeat {
  readonly rid: number;
  readonly t: 'h';
}

/** Any order-WS client request. */
export type WireOrderWsRequest =
  | WireWsPlaceOrder
  | WireWsCancelOrder
  | WireWsCancelAll
  | WireWsReplaceOrder
  | WireWsOrderStatus
  | WireWsOpenOrders
  | WireWsEstimatedFunding
  | WireWsHeartbeat;

/** The request type letters. */
export type WireOrderWsRequestType = WireOrderWsRequest['t'];

// ---------------------------------------------------------------------------- replies

/** Login result (reply `rid 0`): `o` is null when there are no open orders. */
export interface WireLoginResult {
  readonly li: string;
  readonly o: readonly WireOrder[] | null;
  readonly cod: boolean;
}
/** Place and replace result: the (new) order id. */
export interface WireOrderIdResult {
  readonly oid: string;
}
/** Cancel result: whether the cancel request was accepted (not a confirmation). */
export interface WireCancelResult {
  readonly cxl_rx: boolean;
}
/** Order-status result. */
export interface WireStatusResult {
  readonly status: WireOrderStatus;
}
/** Open-orders result. */
export interface WireOpenOrdersResult {
  readonly orders: readonly WireOrder[];
}
/** Cancel-all (and any result with no recognised key): an empty object. */
export type WireEmptyResult = Readonly<Record<string, never>>;

/** A reply's `res`, recognised by shape (`li`, `oid`, `cxl_rx`, `status`, `orders`, `ef` object, `{}`). */
export type WireOrderWsResult =
  | WireLoginResult
  | WireOrderIdResult
  | WireCancelResult
  | WireStatusResult
  | WireOpenOrdersResult
  | WireEstimatedFunding
  | WireEmptyResult;

/** A reply's `err`: HTTP-like `code` and a message; `data` optional. */
export interface WireOrderWsError {
  readonly code: number;
  readonly msg: string;
  readonly data?: string | undefined;
}

/** A reply: `res` on success, `err` on failure (the other is absent or null). */
export interface WireOrderWsReply {
  readonly rid: number;
  readonly res?: WireOrderWsResult | null | undefined;
  readonly err?: WireOrderWsError | null | undefined;
}

/** The login reply, sent first on connect with `rid 0`; `err` may be absent. */
export interface WireLoginReply {
  readonly rid: number;
  readonly res: WireLoginResult;
  readonly err?: null | undefined;
}

// ---------------------------------------------------------------------------- events

interface EventTime {
  readonly ts: number;
  readonly tn: number;
}

/** `h` server heartbeat. */
export interface WireOrderHeartbeatEvent extends EventTime {
  readonly t: 'h';
}
/** `n` acknowledged, `x` expired, `d` done for day: an execution id and the order. */
export interface WireOrderStateEvent extends EventTime {
  readonly t: 'n' | 'x' | 'd';
  readonly eid: string;
  readonly o: WireOrder;
}
/** `p` partial fill, `f` final fill. */
export interface WireOrderFillEvent extends EventTime {
  readonly t: 'p' | 'f';
  readonly eid: string;
  readonly o: WireOrder;
  readonly xs: WireFillDetail;
}
/** `c` canceled; `xr`/`txt` may be empty strings. */
export interface WireOrderCanceledEvent extends EventTime {
  readonly t: 'c';
  readonly eid: string;
  readonly o: WireOrder;
  readonly xr?: string | undefined;
  readonly txt?: string | undefined;
}
/** `j` rejected; `r` is null on post-only crosses. */
export interface WireOrderRejectedEvent extends EventTime {
  readonly t: 'j';
  readonly eid: string;
  readonly o: WireOrder;
  readonly r?: WireEnum<WireRejectReason> | null | undefined;
  readonly txt?: string | undefined;
}
/** `r` replaced: `ro` original (REPLACED), `noid`/`no` the replacement. No top-level `o`. */
export interface WireOrderReplacedEvent extends EventTime {
  readonly t: 'r';
  readonly eid: string;
  readonly ro: WireOrder;
  readonly noid?: string | undefined;
  readonly no?: WireOrder | undefined;
}
/** `e` cancel rejected (e.g. `ORDER_NOT_FOUND`); reason kept as a plain string (open-ended). */
export interface WireCancelRejectedEvent extends EventTime {
  readonly t: 'e';
  readonly oid?: string | undefined;
  readonly cid?: WireCid | undefined;
  readonly r: string;
  readonly txt?: string | undefined;
  readonly o?: WireOrder | null | undefined;
}

/** Any order-WS server event (`t` is always the first key on the wire). */
export type WireOrderWsEvent =
  | WireOrderHeartbeatEvent
  | WireOrderStateEvent
  | WireOrderFillEvent
  | WireOrderCanceledEvent
  | WireOrderRejectedEvent
  | WireOrderReplacedEvent
  | WireCancelRejectedEvent;

/** Anything the server sends on the order WS. Events have `t`; replies have `rid`. */
export type WireOrderWsFrame = WireOrderWsEvent | WireOrderWsReply;
