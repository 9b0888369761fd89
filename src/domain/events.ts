import type { Decimal } from '../core/decimal.ts';
import type { ClientOrderId, ExecutionId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { BookSide } from './book.ts';
import type { InstrumentState, RejectReason, Side } from './enums.ts';
import type { FundingEstimate, FundingSettlement } from './funding.ts';
import type { Order } from './order.ts';

/**
 * Every inbound event carries `tsEvent` (venue time) and `tsRecv` (our clock), both epoch ms.
 * Events are immutable and past tense.
 */
interface Timed {
  readonly tsEvent: number;
  readonly tsRecv: number;
}

/** A book frame: a full snapshot (`isSnapshot`) or a delta in which qty 0 removes a level. */
export interface BookUpdated extends Timed {
  readonly type: 'book';
  readonly symbol: Symbol;
  readonly level: 1 | 2 | 3;
  readonly isSnapshot: boolean;
  readonly bids: BookSide;
  readonly asks: BookSide;
}

/** A public trade print; `aggressor` is the taker's side. */
export interface TradePrinted extends Timed {
  readonly type: 'trade';
  readonly symbol: Symbol;
  readonly priceTicks: number;
  readonly qty: number;
  readonly aggressor: Side;
  /**
   * Absent for a regular print (an aggressor traded displayed orders). `hidden`: it traded a
   * non-displayed order, so it consumed no displayed queue; `cross`: an auction cross, no aggressor
   * (`aggressor` is then meaningless) and no resting order of the continuous book traded.
   */
  readonly condition?: TradeCondition;
}

/** Conditions of a print that did not trade the displayed queue (see TradePrinted.condition). */
export type TradeCondition = 'hidden' | 'cross';

/** A ticker update (≤ 1/s per symbol). Prices in ticks; null when the venue has none. */
export interface TickerUpdated extends Timed {
  readonly type: 'ticker';
  readonly symbol: Symbol;
  readonly lastTicks: number | null;
  readonly lastQty: number;
  readonly markTicks: number | null;
  readonly bestBidTicks: number | null;
  readonly bestAskTicks: number | null;
  readonly bandLowerTicks: number | null;
  readonly bandUpperTicks: number | null;
  readonly lastSettlementTicks: number | null;
  readonly lastSettlementMs: number | null;
  readonly state: InstrumentState;
  readonly volume: number;
  readonly openInterest: number;
  readonly funding: FundingEstimate | null;
}

/** A candle update for an in-progress bucket. */
export interface CandleUpdated extends Timed {
  readonly type: 'candle';
  readonly symbol: Symbol;
  readonly width: string;
  readonly bucketStartMs: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  readonly buyVolume: number;
  readonly sellVolume: number;
}

/** A funding settlement observed (REST poller or recording). */
export interface FundingSettled extends Timed {
  readonly type: 'funding';
  readonly settlement: FundingSettlement;
}

/** The `source` of the venue's own index (underlying benchmark) price in `PriceObserved`. */
export const INDEX_PRICE_SOURCE = 'index';

/**
 * A price from outside the book for one of our symbols: the venue's index (underlying benchmark)
 * price (`source` = INDEX_PRICE_SOURCE) or an external reference feed's (`source` = the feed's name).
 */
export interface PriceObserved extends Timed {
  readonly type: 'price';
  readonly symbol: Symbol;
  readonly source: string;
  /** In the symbol's ticks; fractional allowed (an outside price is not on our grid). */
  readonly priceTicks: number;
}

/** Market data the engine consumes. */
export type MarketEvent = BookUpdated | TradePrinted | TickerUpdated | CandleUpdated | FundingSettled | PriceObserved;

interface OrderEventBase extends Timed {
  readonly executionId: ExecutionId;
}

/** The venue acknowledged an order (`n`). */
export interface OrderAccepted extends OrderEventBase {
  readonly type: 'accepted';
  readonly order: Order;
}

/** One of our orders traded (`p` partial, `f` final). */
export interface OrderFilled extends OrderEventBase {
  readonly type: 'filled';
  readonly order: Order;
  readonly partial: boolean;
  readonly tradeId: string;
  readonly fillPriceTicks: number;
  readonly fillQty: number;
  readonly fillSide: Side;
  /** True when our order was the aggressor (taker). */
  readonly aggressor: boolean;
}

/** An order was cancelled (`c`); `reason` may be empty (the venue sends `""` for user cancels). */
export interface OrderCanceled extends OrderEventBase {
  readonly type: 'canceled';
  readonly order: Order;
  readonly reason: string;
  readonly text: string;
}

/** An order was rejected (`j`); reason null for post-only crosses. */
export interface OrderRejected extends OrderEventBase {
  readonly type: 'rejected';
  readonly order: Order;
  readonly reason: RejectReason | string | null;
  readonly text: string;
}

/** An IOC remainder expired (`x`). */
export interface OrderExpired extends OrderEventBase {
  readonly type: 'expired';
  readonly order: Order;
}

/** A DAY order ended at the session end (`d`). */
export interface OrderDoneForDay extends OrderEventBase {
  readonly type: 'done-for-day';
  readonly order: Order;
}

/** A replace succeeded (`r`): the original is REPLACED, the replacement carries the new id. */
export interface OrderReplaced extends OrderEventBase {
  readonly type: 'replaced';
  readonly original: Order;
  readonly replacement: Order | null;
  readonly newOrderId: VenueOrderId | null;
}

/** A cancel could not be carried out (`e`). */
export interface CancelRejected extends Timed {
  readonly type: 'cancel-rejected';
  readonly orderId: VenueOrderId | null;
  readonly clientOrderId: ClientOrderId | null;
  readonly reason: string;
  readonly text: string;
  readonly order: Order | null;
}

/** Order lifecycle events from the order-entry stream. */
export type OrderEvent =
  | OrderAccepted
  | OrderFilled
  | OrderCanceled
  | OrderRejected
  | OrderExpired
  | OrderDoneForDay
  | OrderReplaced
  | CancelRejected;
