import type { AccountId, ClientOrderId, Symbol, UserId, VenueOrderId } from '../core/ids.ts';
import type { RejectReason, RepriceBehavior, Side, TimeInForce } from './enums.ts';
import type { OrderState } from './order-state.ts';

/** An order as the venue last described it, in domain units (ticks, contracts, epoch ms). */
export interface Order {
  readonly orderId: VenueOrderId;
  readonly clientOrderId: ClientOrderId | null;
  readonly accountId: AccountId;
  readonly userId: UserId | null;
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  readonly filledQty: number;
  readonly remainingQty: number;
  readonly state: OrderState;
  readonly tif: TimeInForce;
  readonly postOnly: boolean;
  readonly reprice: RepriceBehavior;
  readonly tag: string | null;
  /** Reject reason when rejected: a documented reason, an unrecognised venue string, or null (post-only cross). */
  readonly rejectReason: RejectReason | string | null;
  readonly text: string | null;
  /** Time the venue received the order, epoch ms. */
  readonly createdMs: number;
}

/** One execution of one of our orders. */
export interface Fill {
  readonly tradeId: string;
  readonly orderId: VenueOrderId;
  readonly accountId: AccountId;
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  /** True when our order was the aggressor (taker). */
  readonly aggressor: boolean;
  readonly tsEvent: number;
}

/** The venue's answer to an order-status query. */
export interface OrderStatus {
  readonly symbol: Symbol;
  readonly orderId: VenueOrderId;
  readonly clientOrderId: ClientOrderId | null;
  readonly state: OrderState;
  readonly filledQty: number;
  readonly remainingQty: number;
  readonly rejectReason: RejectReason | string | null;
  readonly rejectMessage: string | null;
}
