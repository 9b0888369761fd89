import type { AccountId, ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { RepriceBehavior, SelfTradePrevention, Side, TimeInForce } from '../domain/enums.ts';
import type { Order, OrderStatus } from '../domain/order.ts';
import { isOpenState, type OrderState } from '../domain/order-state.ts';
import type { QueueState } from './queue-model.ts';

/** The replay exchange's mutable record of one of our orders. */
export interface XOrder {
  readonly id: VenueOrderId;
  readonly cid: ClientOrderId | null;
  readonly sym: number;
  readonly symbol: Symbol;
  /** 0 bid, 1 ask. */
  readonly sideIdx: number;
  readonly side: Side;
  priceTicks: number;
  qty: number;
  filled: number;
  state: OrderState;
  readonly tif: TimeInForce;
  readonly postOnly: boolean;
  readonly reprice: RepriceBehavior;
  /** What the venue does when this order, incoming, would trade with one of our resting orders. */
  readonly stp: SelfTradePrevention;
  readonly tag: string | null;
  /** Exchange time the order was received (venue `ts`). */
  readonly createdMs: number;
  /** Exchange time the order started resting at its price (reward minimum rest time). */
  restingSinceMs: number;
  /** Time priority among our own orders at one price: set when the order starts resting (higher = later). */
  seq: number;
  readonly queue: QueueState;
  rejectReason: string | null;
  text: string | null;
}

/** The account id the replay exchange books our orders under. */
export const BACKTEST_ACCOUNT = 'backtest' as AccountId;

/**
 * Fill priority of resting bids for a sell aggressor (and of asks for a buy): the best price first
 * (highest bid, lowest ask), then time priority among ours.
 */
export const byBidPriority = (a: XOrder, b: XOrder): number => b.priceTicks - a.priceTicks || a.seq - b.seq;
/** See byBidPriority. */
export const byAskPriority = (a: XOrder, b: XOrder): number => a.priceTicks - b.priceTicks || a.seq - b.seq;

/** Remaining (open) quantity. */
export const leaves = (o: XOrder): number => o.qty - o.filled;

/** A domain Order snapshot of an exchange order (immutable copy for events). */
export function toOrder(o: XOrder): Order {
  const open = o.state === 'ACCEPTED' || o.state === 'PARTIALLY_FILLED' || o.state === 'PENDING';
  return {
    orderId: o.id,
    clientOrderId: o.cid,
    accountId: BACKTEST_ACCOUNT,
    userId: null,
    symbol: o.symbol,
    side: o.side,
    priceTicks: o.priceTicks,
    qty: o.qty,
    filledQty: o.filled,
    remainingQty: open ? o.qty - o.filled : 0,
    state: o.state,
    tif: o.tif,
    postOnly: o.postOnly,
    reprice: o.reprice,
    tag: o.tag,
    rejectReason: o.rejectReason,
    text: o.text,
    createdMs: o.createdMs,
  };
}

/**
 * What the venue still answers about an order once it is done (filled, canceled, replaced,
 * rejected, expired): its status, and that it exists (a cancel or replace of it is refused as
 * terminated, not as unknown). Built on demand from `RetiredOrders`' columns.
 */
export class RetiredOrder {
  constructor(
    readonly id: VenueOrderId,
    readonly cid: ClientOrderId | null,
    readonly symbol: Symbol,
    readonly state: OrderState,
    readonly qty: number,
    readonly filled: number,
    readonly rejectReason: string | null,
    readonly text: string | null,
  ) {}
}

/** The status-query view of an exchange order, working or retired. */
export function toStatus(o: XOrder | RetiredOrder): OrderStatus {
  return {
    symbol: o.symbol,
    orderId: o.id,
    clientOrderId: o.cid,
    state: o.state,
    filledQty: o.filled,
    remainingQty: isOpenState(o.state) ? o.qty - o.filled : 0,
    rejectReason: o.rejectReason,
    rejectMessage: o.text,
  };
}
