import type { Observable, SchedulerLike } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { Decimal } from '../core/decimal.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { InstrumentState } from '../domain/enums.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import type { DesiredQuotes } from '../domain/intents.ts';
import type { Strategy, WorkingOrder, WorkingOrderStatus } from '../strategy/contract.ts';
import type { ExecutionConfig, ReadEndpoint } from '../execution/config.ts';
import type { BudgetState } from '../execution/executor.ts';
import type { MdSuspectKind } from '../risk/md-sanity.ts';
import type { RiskConfig } from '../risk/config.ts';
import type { KillSwitchAction, KillSwitchReason, TradingState } from '../risk/trading-state.ts';
import type { FeeRates, OrderManagerConfig } from './config.ts';
import type { EngineEvent, HedgeEvent, IntentKind } from './events.ts';
import type { AccountReader, EngineInputs, OrderGateway } from './ports.ts';

/**
 * One strategy instance bound to its symbols (each symbol belongs to at most one strategy). `id`
 * names it in events and snapshots.
 */
export interface StrategyBinding {
  readonly id: string;
  /** The primary symbol (the strategy's `ctx.symbol`). */
  readonly symbol: Symbol;
  /** Every symbol the strategy quotes or hedges on, primary first; absent = `[symbol]`. */
  readonly symbols?: readonly Symbol[];
  readonly strategy: Strategy;
}

/** A minimal structured logger (pino-compatible subset); the engine logs rare events only. */
export interface EngineLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Everything the engine needs, injected. */
export interface EngineDeps {
  readonly clock: Clock;
  /** Drives clock ticks and timers (clockScheduler(clock) in backtests and tests). */
  readonly scheduler: SchedulerLike;
  readonly gateway: OrderGateway;
  /** REST-side reads: fees for fills, fills missed while disconnected, start-up positions. */
  readonly accounts?: AccountReader;
  readonly instruments: InstrumentCatalog;
  readonly strategies: readonly StrategyBinding[];
  readonly risk: RiskConfig;
  readonly execution: ExecutionConfig;
  readonly orderManager: OrderManagerConfig;
  /** Fee rates for estimating fees until REST fills arrive (default DEFAULT_FEE_RATES). */
  readonly fees?: FeeRates;
  /**
   * True (default) when the market data's books include our own resting orders, as a venue's do:
   * strategies then get the book without them (`othersBook`), the market a replay shows. A
   * backtest's replayed feed never contains the replayed bot's orders: it passes false.
   */
  readonly marketDataShowsOwnOrders?: boolean;
  /** Per-symbol rates where they differ (a backtest's recording states them per symbol); others use `fees`. */
  readonly feesBySymbol?: Readonly<Record<string, FeeRates>>;
  readonly log?: EngineLog;
  /**
   * Our trading account's id: a fill on the order stream naming another account is dropped (an
   * `unknown-fill` event) instead of booked. Omitted: not checked (a backtest has one account).
   */
  readonly accountId?: string;
}

/** Options for `Engine.stop`. */
export interface StopOptions {
  /** Wait at most this long (ms, engine clock) for the venue to confirm the cancels. Default 5000. */
  readonly timeoutMs?: number;
  /** Why we stop (logged). */
  readonly reason?: string;
}

/** What `stop` achieved. */
export interface StopReport {
  /** Orders the engine asked the venue to cancel (a cancel-all counts each known order). */
  readonly cancelRequested: number;
  /** True when the venue's open orders for our symbols were confirmed empty before the deadline. */
  readonly confirmed: boolean;
  /** Orders still open (or unknown) at the deadline, by client id when known. */
  readonly remaining: readonly { readonly symbol: Symbol; readonly clientOrderId: ClientOrderId | null; readonly orderId: VenueOrderId | null }[];
  readonly durationMs: number;
}

/** Where a locally tracked order stands (same as the strategy's view). */
export type LocalOrderStatus = WorkingOrderStatus;

/** A working order as the snapshot shows it (the same objects strategies see). */
export type WorkingOrderView = WorkingOrder;

/** PnL split by source, all USD Decimal, signed (positive = gain). total = the sum of the five. */
export interface PnlBreakdown {
  /** Edge captured at fill time versus the mid: Σ side × (mid − fill price) × qty × multiplier. */
  readonly spreadCapture: Decimal;
  /** Trading PnL not explained by spread capture: mark-to-market of inventory as the mid/mark moved. */
  readonly inventory: Decimal;
  /** Fees, negative when paid (venue figures where known, else estimated). */
  readonly fees: Decimal;
  /** Funding received (positive) or paid (negative). */
  readonly funding: Decimal;
  /** Liquidity-program rewards accrued (from the rewards$ input). */
  readonly rewards: Decimal;
  readonly total: Decimal;
  /** Realized trading PnL (fees excluded, as the venue reports it). */
  readonly realized: Decimal;
  /** Unrealized PnL of the open position at mark. */
  readonly unrealized: Decimal;
}

/** Position as the snapshot shows it. */
export interface PositionSnapshot {
  /** Signed contracts. */
  readonly qty: number;
  /** Average entry price as Decimal, null when flat. */
  readonly avgPrice: Decimal | null;
  /** Signed cost basis: average price × qty × multiplier (the venue's `signed_cost_basis`); zero when flat or unpriced. */
  readonly costBasis: Decimal;
  /** Mark price used for unrealized PnL (ticker mark, else mid), null when unknown. */
  readonly markTicks: number | null;
}

/** One symbol in the snapshot. */
export interface SymbolSnapshot {
  readonly symbol: Symbol;
  readonly strategyId: string;
  /** The strategy's last desired quotes after the risk gate (null before the first quote or when pulled). */
  readonly desired: DesiredQuotes | null;
  readonly working: readonly WorkingOrderView[];
  readonly position: PositionSnapshot;
  /** The symbol's position cap (risk `maxPosition`, contracts). */
  readonly maxPosition: number;
  readonly pnl: PnlBreakdown;
  /** Effective trading state and why. */
  readonly tradingState: TradingState;
  readonly tradingReason: string;
  /** Why the symbol's market data is suspect now (its quotes are pulled, the reason says the value), null while sane. */
  readonly marketDataSuspect: MdSuspectKind | null;
  readonly instrumentState: InstrumentState | null;
  /** The strategy's error message when it threw (it is then isolated). */
  readonly strategyError: string | null;
  /** Engine time of the last market event for the symbol, null before any. */
  readonly lastMarketDataMs: number | null;
  readonly bestBidTicks: number | null;
  readonly bestAskTicks: number | null;
}

/** Kill-switch state. */
export interface KillSwitchSnapshot {
  readonly tripped: boolean;
  readonly reason: KillSwitchReason | null;
  readonly detail: string | null;
  readonly sinceMs: number | null;
  /** What the trip does: `pause` (quotes pulled, process and position kept) or `stop` (the daemon stops); null when armed. */
  readonly action: KillSwitchAction | null;
}

/** Orders (places and replaces) sent in the last 60 s and today (UTC), and their budgets (0 = none). */
export interface OrderBudgetSnapshot {
  readonly lastMinute: number;
  readonly today: number;
  readonly perMinute: number;
  readonly perDay: number;
}

/** Monotonic counters (since start). */
export interface EngineCounters {
  readonly intentsSent: Readonly<Record<IntentKind, number>>;
  readonly intentsFailed: number;
  readonly rejects: Readonly<Record<'venue' | 'risk' | 'gateway', number>>;
  readonly throttled: number;
  readonly coalesced: number;
  readonly dropped: number;
  readonly backoffs: number;
  readonly fills: number;
  readonly strategyErrors: number;
  readonly killSwitchTrips: number;
  readonly reconciliations: number;
  readonly marketEvents: number;
  readonly orderEvents: number;
  readonly strategyEvaluations: number;
  /** Hedge orders sent (refused ones are risk rejects). */
  readonly hedges: number;
  /** Each kill-switch trip (the first 256): when, why, what it did, and when it cleared. */
  readonly killSwitchEpisodes: readonly KillSwitchEpisode[];
  /** Rejects by `source: reason` (venue, risk or gateway), expected races excluded. */
  readonly rejectsByReason: Readonly<Record<string, number>>;
}

/** One trip of the kill switch: when and why it tripped, and when (and by what) it cleared. */
export interface KillSwitchEpisode {
  readonly trippedAtMs: number;
  readonly reason: KillSwitchReason;
  readonly detail: string;
  readonly action: KillSwitchAction;
  /** Null while still tripped (to the end of the run, for a backtest). */
  readonly clearedAtMs: number | null;
  readonly clearedBy: KillSwitchReason | 'manual-reset' | null;
}

/** A point-in-time view of the engine, cheap enough to take every few seconds. */
export interface EngineSnapshot {
  readonly nowMs: number;
  readonly running: boolean;
  /** Engine-wide trading state (the kill switch forces HALTED). */
  readonly tradingState: TradingState;
  readonly killSwitch: KillSwitchSnapshot;
  /** The order-count budgets (risk.max_orders_per_minute / _per_day) and what they have counted. */
  readonly orderBudget: OrderBudgetSnapshot;
  readonly symbols: readonly SymbolSnapshot[];
  /** Sum over symbols. */
  readonly pnl: PnlBreakdown;
  readonly counters: EngineCounters;
  /** Requests queued in the execution adapter and awaiting replies, and each rate budget's remaining tokens. */
  readonly execution: {
    readonly queued: number;
    readonly inFlight: number;
    readonly slowedDown: boolean;
    /** Per budget: tokens now, learned burst and rate (AIMD from 429s) and configured ceilings. */
    readonly budgets: readonly BudgetState[];
  };
}

/** The engine facade. */
export interface Engine {
  /** Subscribes to the inputs, reconciles with the venue, then quotes. Call once. */
  start(inputs: EngineInputs): void;
  /** Stops quoting, cancels all our orders and waits (bounded) for the venue to confirm. Idempotent. */
  stop(opts?: StopOptions): Promise<StopReport>;
  snapshot(): EngineSnapshot;
  /** Hot observable of everything the engine does (see EngineEvent). Completes after stop. */
  readonly events$: Observable<EngineEvent>;
  /**
   * Just the `hedge` events (also on `events$`): a backtest collects them without listening to
   * `events$`, which would switch on the per-event latency sampling. Optional for engine doubles.
   */
  readonly hedges$?: Observable<HedgeEvent>;
  /** Sets the engine-wide (symbol null) or one symbol's operator trading state. */
  setTradingState(symbol: Symbol | null, state: TradingState, reason: string): void;
  /** Trips the kill switch by hand. */
  tripKillSwitch(detail: string): void;
  /** Clears a tripped kill switch (quoting resumes on the next evaluation). */
  resetKillSwitch(): void;
}

/** The operator's controls of a live engine (the control API drives these); createEngine's engines have them. */
export interface EngineOperator {
  /** Pauses a strategy: its symbols go HALTED and its quotes are pulled. @throws RangeError for an unknown id. */
  pauseStrategy(id: string): void;
  /** Resumes a paused or flattened strategy. @throws RangeError for an unknown id. */
  resumeStrategy(id: string): void;
  /** Swaps a strategy's instance (built from validated new params); positions and orders are kept. @throws RangeError for an unknown id. */
  replaceStrategy(id: string, strategy: Strategy): void;
  /** New risk limits and kill-switch thresholds, applied at once (the kill switch keeps its state). */
  replaceRisk(risk: RiskConfig): void;
  /** Halts a symbol's quoting and sends reduce-only IOCs for its position at the opposite touch until flat (the first now). @throws RangeError for a symbol not quoted. */
  flatten(symbol: Symbol): FlattenResult;
  /** Cancels every order and pauses every strategy. */
  cancelAll(): void;
  /** Each strategy's operator state: paused (HALTED by the operator), and why. */
  operatorStates(): readonly OperatorStrategyState[];
}

/**
 * Venue reads through the engine's rate-aware executor (issue 23: one budget for every request):
 * the daemon's pollers (funding, rewards, index prices) send their REST reads here, so they share
 * the learned budget with order entry and wait behind it (cancels, then places/replaces, then reads).
 */
export interface VenueReads {
  /**
   * Runs `run` (one venue request) when the budget allows; a newer read with the same `key`
   * supersedes a queued one (which rejects). @throws (rejects) what `run` throws, or RATE_LIMITED when dropped unsent.
   */
  read<T>(endpoint: ReadEndpoint, key: string | null, run: () => Promise<T>): Promise<T>;
}

/** An engine with the operator's controls and venue reads (what createEngine returns). */
export type OperableEngine = Engine & EngineOperator & VenueReads;

/** What a flatten did: the reducing order sent, or why none was (flat, no-book, already-reducing, a risk rule). */
export type FlattenResult =
  | { readonly sent: true; readonly side: 'buy' | 'sell'; readonly qty: number; readonly priceTicks: number; readonly positionQty: number }
  | { readonly sent: false; readonly reason: string; readonly positionQty: number };

/** A strategy as the operator sees it. */
export interface OperatorStrategyState {
  readonly id: string;
  readonly symbols: readonly Symbol[];
  /** The operator's state of its primary symbol (ACTIVE unless paused or flattened). */
  readonly operatorState: TradingState;
  readonly operatorReason: string;
  /** Set when the strategy threw and was isolated. */
  readonly failed: string | null;
}
