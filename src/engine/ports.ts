import type { Observable } from 'rxjs';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import type { VenuePosition } from '../domain/position.ts';
import type { FundingPayment, FundingSettlement } from '../domain/funding.ts';
import type { MarketEvent, OrderEvent } from '../domain/events.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Decimal } from '../core/decimal.ts';
import type { RewardView } from '../strategy/contract.ts';

/**
 * Where orders go: the live order-entry client, the local venue over real sockets, or the backtest's
 * replay exchange. Every method rejects with an `MmError` (core/errors.ts): a `retryable` code means
 * the outcome is unknown or nothing was done (TIMEOUT, DISCONNECTED, RATE_LIMITED...), a `reject`
 * code means the venue said no. A resolved place/replace means "request accepted"; the order's fate
 * arrives as OrderEvents.
 */
export interface OrderGateway {
  place(intent: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }>;
  replace(intent: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }>;
  cancel(intent: CancelOrder): Promise<{ readonly accepted: boolean }>;
  cancelAll(symbol: Symbol | null): Promise<void>;
  /** Status by venue id or client id; resolves null when the venue does not know the order. */
  status(ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }): Promise<OrderStatus | null>;
  /** The account's open orders as the venue sees them now. */
  openOrders(): Promise<readonly Order[]>;
}

/** Account-side reads the engine uses for reconciliation and PnL (REST in live, the replay exchange in backtests). */
export interface AccountReader {
  /** Our fills with fees in [fromMs, toMs), oldest first. */
  fills(fromMs: number, toMs: number): Promise<readonly (Fill & { readonly fee: Decimal })[]>;
  /**
   * The venue's positions by symbol (a symbol missing is flat and never traded). Start-up seeds the
   * ledgers from them; the periodic position check compares with them.
   */
  positions(): Promise<ReadonlyMap<string, VenuePosition>>;
}

/** Connection state of a venue stream, for risk (lost connection) and health. */
export interface ConnectionState {
  readonly stream: 'orders' | 'market-data';
  readonly connected: boolean;
  readonly tsRecv: number;
}

/**
 * Everything the engine consumes. `resync$` emits the venue's open orders after every (re)connect of
 * the order stream: the engine reconciles against it.
 */
export interface EngineInputs {
  readonly market$: Observable<MarketEvent>;
  readonly orders$: Observable<OrderEvent>;
  readonly resync$: Observable<readonly Order[]>;
  readonly connection$: Observable<ConnectionState>;
  readonly funding$?: Observable<FundingSettlement>;
  /** Funding the venue booked on our account (its funding transactions): exact cash, preferred live. */
  readonly fundingPayments$?: Observable<FundingPayment>;
  /** Reward-tracker updates: the strategy's RewardView and/or accrued reward cash for PnL. */
  readonly rewards$?: Observable<RewardUpdate>;
}

/** One reward-tracker update for a symbol. */
export interface RewardUpdate {
  readonly symbol: Symbol;
  /** What strategies see as `ctx.rewards` (omit to keep the previous view). */
  readonly view?: RewardView;
  /** Total rewards accrued so far for the symbol in USD (replaces the previous total). */
  readonly accruedUsd?: Decimal;
}
