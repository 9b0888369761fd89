import type { Decimal } from '../core/decimal.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { Side } from '../domain/enums.ts';
import type { Endpoint } from '../execution/config.ts';
import type { MdSuspectKind } from '../risk/md-sanity.ts';
import type { KillSwitchAction, KillSwitchReason, TradingState } from '../risk/trading-state.ts';

/** What kind of request an intent event is about. */
export type IntentKind = 'place' | 'replace' | 'cancel' | 'cancel-all';

/** Where a reject came from: the venue (event or error reply), our risk gate, or the gateway (transport). */
export type RejectSource = 'venue' | 'risk' | 'gateway';

interface At {
  /** Engine clock, epoch ms. */
  readonly tsMs: number;
}

/** A request left for the venue. */
export interface IntentSentEvent extends At {
  readonly type: 'intent-sent';
  readonly kind: IntentKind;
  readonly symbol: Symbol | null;
  readonly clientOrderId: ClientOrderId | null;
}

/** The gateway answered a request (ok, or failed with an error code). `latencyMs` on the engine clock. */
export interface IntentResultEvent extends At {
  readonly type: 'intent-result';
  readonly kind: IntentKind;
  readonly symbol: Symbol | null;
  readonly clientOrderId: ClientOrderId | null;
  readonly ok: boolean;
  readonly code: ErrorCode | null;
  /** True when the outcome is unknown (timeout, disconnect): the order stays in flight until a status answer. */
  readonly unknown: boolean;
  readonly latencyMs: number;
}

/** An intent or order was refused. `reason` is the venue's reject reason, a risk rule name, or an error code. */
export interface RejectEvent extends At {
  readonly type: 'reject';
  readonly source: RejectSource;
  readonly kind: IntentKind;
  readonly symbol: Symbol | null;
  readonly clientOrderId: ClientOrderId | null;
  readonly reason: string;
  readonly text: string;
  /** True for expected races (a replace or cancel of an order that just filled): not a sign of trouble, not counted toward the reject storm. */
  readonly benign?: boolean;
}

/** A request waited for rate budget (or a slow-down) instead of being sent at once. */
export interface ThrottledEvent extends At {
  readonly type: 'throttled';
  readonly endpoint: Endpoint;
  /** Requests waiting after this one was queued. */
  readonly queued: number;
}

/** A queued request was superseded by a newer desired state for the same order and never sent. */
export interface CoalescedEvent extends At {
  readonly type: 'coalesced';
  readonly endpoint: Endpoint;
  readonly clientOrderId: ClientOrderId | null;
}

/** A request was dropped because the queue was full. */
export interface DroppedEvent extends At {
  readonly type: 'dropped';
  readonly endpoint: Endpoint;
  readonly clientOrderId: ClientOrderId | null;
}

/** The execution adapter slowed down after a throttling answer from the venue. */
export interface BackoffEvent extends At {
  readonly type: 'backoff';
  readonly code: ErrorCode;
  readonly pauseMs: number;
}

/** The kill switch tripped: every quote is pulled; `stop` asks the daemon to stop as well. */
export interface KillSwitchTrippedEvent extends At {
  readonly type: 'kill-switch-tripped';
  readonly reason: KillSwitchReason;
  readonly detail: string;
  readonly action: KillSwitchAction;
}

/** The kill switch cleared (manual reset, or a self-clearing condition went away). */
export interface KillSwitchClearedEvent extends At {
  readonly type: 'kill-switch-cleared';
  readonly reason: KillSwitchReason | 'manual-reset';
}

/** A symbol's (or, with symbol null, the engine's) trading state changed. */
export interface TradingStateChangedEvent extends At {
  readonly type: 'trading-state-changed';
  readonly symbol: Symbol | null;
  readonly from: TradingState;
  readonly to: TradingState;
  readonly reason: string;
}

/**
 * A symbol's market data became suspect (`kind` set: its quotes are pulled and its state is HALTED
 * with `detail` as the reason) or sane again (`kind` null). One per episode edge, never per event.
 */
export interface MarketDataSuspectEvent extends At {
  readonly type: 'market-data-suspect';
  readonly symbol: Symbol;
  readonly kind: MdSuspectKind | null;
  /** What was wrong, with the values as prices; on the sane edge, what it was. */
  readonly detail: string;
}

/** One of our orders traded. Fee is estimated from the liquidity flag until the venue's fill supplies it. */
export interface FillEvent extends At {
  readonly type: 'fill';
  readonly symbol: Symbol;
  readonly orderId: VenueOrderId;
  readonly clientOrderId: ClientOrderId | null;
  readonly tradeId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  readonly liquidity: 'maker' | 'taker';
  readonly fee: Decimal;
  readonly feeSource: 'estimated' | 'venue';
  /** Signed position after the fill. */
  readonly position: number;
  /** True when recovered from REST fills (missed while disconnected). */
  readonly recovered: boolean;
}

/** A fill's estimated fee was replaced by the venue's figure. */
export interface FeeSettledEvent extends At {
  readonly type: 'fee-settled';
  readonly symbol: Symbol;
  readonly tradeId: string;
  readonly estimated: Decimal;
  readonly actual: Decimal;
}

/** Funding was paid or received on a position (positive = received). */
export interface FundingEvent extends At {
  readonly type: 'funding';
  readonly symbol: Symbol;
  readonly amount: Decimal;
  readonly position: number;
}

/** A strategy threw: its quotes are pulled and it is no longer called until the engine restarts. */
export interface StrategyErrorEvent extends At {
  readonly type: 'strategy-error';
  readonly strategyId: string;
  readonly symbol: Symbol;
  readonly message: string;
}

/** Desired quotes were trimmed by the risk gate (emitted when the set of reasons changes). */
export interface QuotesTrimmedEvent extends At {
  readonly type: 'quotes-trimmed';
  readonly symbol: Symbol;
  readonly reasons: readonly string[];
}

/** Reconciliation against the venue's open orders finished. */
export interface ReconciledEvent extends At {
  readonly type: 'reconciled';
  readonly trigger: 'start' | 'resync';
  /** Unknown venue orders now tracked as ours. */
  readonly adopted: number;
  /** Unknown venue orders we cancelled. */
  readonly cancelled: number;
  /** Local orders the venue no longer shows (resolved by status query). */
  readonly missing: number;
  /** Fills recovered from REST that the stream had not delivered. */
  readonly recoveredFills: number;
}

/** An order whose outcome was unknown got resolved by a status / open-orders answer. */
export interface OrderResolvedEvent extends At {
  readonly type: 'order-resolved';
  readonly symbol: Symbol;
  readonly clientOrderId: ClientOrderId;
  readonly state: string;
}

/**
 * Our position and the venue's disagreed even after recovering fills from REST: the ledger took the
 * venue's figure. `engine` and `venue` are both as of the venue's last fill; `corrected` is the
 * ledger's position afterwards (the venue's plus fills we booked after its last one).
 */
export interface PositionMismatchEvent extends At {
  readonly type: 'position-mismatch';
  readonly symbol: Symbol;
  readonly engine: number;
  readonly venue: number;
  readonly corrected: number;
}

/**
 * A fill on the order stream the engine did not book: `unknown-order` names an order it does not
 * track, with a client id it never issued; `other-account` another account than ours. Such a
 * fill does not move the position; the engine reconciles at once with the venue's REST fills and
 * position, which book it if the venue really holds it.
 */
export interface UnknownFillEvent extends At {
  readonly type: 'unknown-fill';
  readonly kind: 'unknown-order' | 'other-account';
  readonly symbol: Symbol;
  readonly orderId: VenueOrderId;
  readonly clientOrderId: ClientOrderId | null;
  readonly accountId: string;
  readonly tradeId: string;
  readonly side: Side;
  readonly qty: number;
  readonly priceTicks: number;
}

/**
 * A strategy asked for a marketable hedge order (IOC, not post-only). `sent` false: refused before
 * sending (`reason` names the risk rule); its fills are `fill` events with the same client order id.
 */
export interface HedgeEvent extends At {
  readonly type: 'hedge';
  readonly strategyId: string;
  readonly symbol: Symbol;
  readonly side: Side;
  readonly qty: number;
  readonly limitTicks: number;
  readonly clientOrderId: ClientOrderId | null;
  readonly sent: boolean;
  readonly reason: string | null;
}

/** Market event received → first intent handed to the gateway, in microseconds (engine clock's nowNs). */
export interface TickToIntentEvent extends At {
  readonly type: 'tick-to-intent';
  readonly symbol: Symbol;
  readonly us: number;
}

/** Something the engine did or saw: for metrics, logs and tests. Never in the hot path of decisions. */
export type EngineEvent =
  | IntentSentEvent
  | IntentResultEvent
  | RejectEvent
  | ThrottledEvent
  | CoalescedEvent
  | DroppedEvent
  | BackoffEvent
  | KillSwitchTrippedEvent
  | KillSwitchClearedEvent
  | TradingStateChangedEvent
  | MarketDataSuspectEvent
  | FillEvent
  | FeeSettledEvent
  | FundingEvent
  | StrategyErrorEvent
  | QuotesTrimmedEvent
  | ReconciledEvent
  | OrderResolvedEvent
  | PositionMismatchEvent
  | UnknownFillEvent
  | HedgeEvent
  | TickToIntentEvent;

/** The `type` tags of EngineEvent. */
export type EngineEventType = EngineEvent['type'];
