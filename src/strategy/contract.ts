import type { z } from 'zod';
import type { Decimal } from '../core/decimal.ts';
import type { Book } from '../domain/book.ts';
import type { TickerUpdated, TradePrinted } from '../domain/events.ts';
import type { FeeRates } from '../domain/fee-rates.ts';
import type { FundingEstimate } from '../domain/funding.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { DesiredQuotes, OrderIntent } from '../domain/intents.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { Side } from '../domain/enums.ts';

/** Our position in one symbol, as the engine tracks it. Money is Decimal. */
export interface PositionView {
  /** Signed contracts (negative = short). */
  readonly qty: number;
  /** Average entry price in ticks (fractional allowed), null when flat. */
  readonly avgPriceTicks: number | null;
  readonly realizedPnl: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly fees: Decimal;
  readonly funding: Decimal;
}

/** Where one of our orders stands, as the engine tracks it. */
export type WorkingOrderStatus =
  /** Queued in the execution adapter, not yet sent. */
  | 'queued'
  /** Place sent, no ack yet. */
  | 'pending-new'
  /** Acknowledged and resting. */
  | 'open'
  /** Replace sent, not yet answered. */
  | 'pending-replace'
  /** Cancel sent (or waiting for the ack to retry a 409), not yet confirmed. */
  | 'pending-cancel'
  /** The last request's outcome is unknown (timeout/disconnect): waiting for the venue's answer. */
  | 'unknown';

/** One of our working orders (acknowledged or in flight). Prices in ticks, sizes in contracts. */
export interface WorkingOrder {
  readonly clientOrderId: ClientOrderId;
  /** Null until the venue has assigned one. */
  readonly orderId: VenueOrderId | null;
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  /** Remaining (open) contracts. */
  readonly qty: number;
  readonly filledQty: number;
  readonly status: WorkingOrderStatus;
  /** True when adopted at reconciliation (not placed by this run). */
  readonly adopted: boolean;
  /** Engine clock when created locally (or adopted), epoch ms. */
  readonly createdMs: number;
}

/** Reward-program figures the strategy may use (from the reward tracker; null when not running). */
export interface RewardView {
  /** Our local estimate of this minute's share of the symbol's maker score, in [0, 1]. */
  readonly estimatedShare: number;
  /** Max qualifying distance from mid in bps (the program's spread limit). */
  readonly maxSpreadBps: number;
  /** Minimum qualifying order notional in USD. */
  readonly minNotionalUsd: number;
}

/** One of our own fills, as a strategy sees it. Price in ticks, size in contracts. */
export interface OwnFill {
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  /** 'maker' when a resting order of ours was hit, 'taker' when ours crossed (hedges, IOC). */
  readonly liquidity: 'maker' | 'taker';
  /** Engine clock when the fill was booked, epoch ms. */
  readonly tsMs: number;
  readonly clientOrderId: ClientOrderId | null;
}

/** The latest price of an external reference feed (another venue, an index) for one of our symbols. */
export interface ReferencePrice {
  /** The feed's name in the config. */
  readonly source: string;
  readonly symbol: Symbol;
  /** In the symbol's ticks; fractional allowed (a reference is not on our grid). */
  readonly priceTicks: number;
  /** When the feed published it (epoch ms); the engine saw it at or after this. */
  readonly tsMs: number;
}

/** Everything a strategy sees about one symbol. */
export interface SymbolView {
  readonly symbol: Symbol;
  readonly instrument: Instrument;
  /**
   * The book without our own resting orders (live, the engine removes them from the venue's book;
   * a replay never shows them): the same market live and in a backtest. The ticker's best bid/ask
   * are the venue's and may be ours.
   */
  readonly book: Book | null;
  readonly ticker: TickerUpdated | null;
  readonly lastTrade: TradePrinted | null;
  /** Every public trade on this symbol since the strategy's previous call, oldest first (the array is reused on the next call: copy what you keep). */
  readonly trades: readonly TradePrinted[];
  readonly funding: FundingEstimate | null;
  /** The venue's mark price in ticks (fractional allowed), null when unknown. */
  readonly markTicks: number | null;
  /** The venue's index (underlying benchmark) price in ticks (fractional allowed), null when unknown. */
  readonly indexTicks: number | null;
  /** The latest price of each configured external reference feed for this symbol, by feed name. */
  readonly references: ReadonlyMap<string, ReferencePrice>;
  readonly position: PositionView;
  /** Our working orders on this symbol (acknowledged or in flight). */
  readonly workingOrders: readonly WorkingOrder[];
  readonly rewards: RewardView | null;
  /**
   * Our fee rates on this symbol, fractions of notional (0.0002 = 2 bps; negative = rebate), as the
   * engine charges them (config, else the account's, else the venue's schedule): a quote's edge must
   * beat the maker fee, a hedge pays the taker fee.
   */
  readonly fees: FeeRates;
}

/**
 * The read-only view a strategy gets on each evaluation: its primary symbol's view (the first of
 * `symbols`) plus the others through `view()`. Valid only during the `quote` call: the engine reuses
 * the objects (allocation-light hot path), so copy what you want to keep.
 */
export interface StrategyContext extends SymbolView {
  /** Epoch ms on the engine's clock (virtual in backtests). */
  readonly nowMs: number;
  /** Every symbol this strategy quotes or hedges on, primary (`symbol`) first. */
  readonly symbols: readonly Symbol[];
  /**
   * The view of one of `symbols`.
   * @throws MmError when the symbol is not one the strategy declared.
   */
  view(symbol: Symbol): SymbolView;
  /** Our fills on any of `symbols` since the strategy's previous call, oldest first. */
  readonly fills: readonly OwnFill[];
}

/**
 * A marketable order a strategy asks for (sent IOC at `limitTicks`), e.g. a delta hedge. It goes
 * through the risk checks and the rate-aware adapter like any intent.
 */
export interface HedgeOrder {
  readonly symbol: Symbol;
  readonly side: Side;
  readonly qty: number;
  /** Worst price the hedge may trade at, in ticks. */
  readonly limitTicks: number;
}

/** A multi-symbol answer: ladders per symbol, hedges, and a timer. */
export interface StrategyPlan {
  /** Desired ladders, one per symbol to change; a declared symbol not listed keeps its previous ladder. */
  readonly quotes: readonly DesiredQuotes[];
  /** Marketable orders to send now. */
  readonly hedges?: readonly HedgeOrder[];
  /** Call `quote` again at this engine time (epoch ms) even if nothing changes before then. */
  readonly wakeAtMs?: number;
}

/**
 * What a strategy returns: desired quotes for its primary symbol (the engine diffs them), a plan
 * (ladders per symbol, hedges, a timer), raw intents, or null (no change).
 */
export type StrategyOutput = DesiredQuotes | StrategyPlan | { readonly intents: readonly OrderIntent[] } | null;

/**
 * A strategy instance: small, synchronous and pure. No rxjs, no I/O, no timers, no Date.now.
 * `quote` is called whenever the symbol's market state changes, after our fills, and on clock ticks
 * (unless `stableUntilMs` says a tick cannot change its answer).
 * Returning null keeps the previous desired quotes. Raw intents bypass the ladder diff: the engine
 * assigns a fresh client order id to every raw place (ignore `clientOrderId` there) and risk-checks
 * each intent; a thrown error isolates the strategy (its quotes are pulled).
 */
export interface Strategy {
  quote(ctx: StrategyContext): StrategyOutput;
  /**
   * Book levels per side `quote` reads (1 for a quoter that looks only at the touch). When set, a
   * book update that leaves those levels as they were updates the market state without calling
   * `quote` (nothing it reads changed), and a backtest with `feed.depth: auto` delivers only changes
   * within them. Unset: every book update calls `quote`.
   */
  readonly bookDepth?: number;
  /**
   * False when `quote` reads no trade (`ctx.trades`, `ctx.lastTrade`): a trade alone then does not
   * call it, and a tick after one may skip it as `stableUntilMs` allows (the risk gate and the
   * order manager still run on every event). Unset: every trade calls `quote`.
   */
  readonly readsTrades?: boolean;
  /**
   * Time dependence between inputs, read after each call: the engine time (epoch ms) before which
   * a call with no new input (the same book within `bookDepth`, trades, position, working orders
   * and fills; only `nowMs` later) would change nothing: return null or the very ladder of the last
   * call, and leave the strategy's own state as it is. The engine's periodic tick skips the call
   * until then while nothing reached the strategy (the risk gate and the order manager still run).
   * `Infinity`: time alone never changes the answer (a pure function of the context but `nowMs`).
   * Unset (the safe default): called on every tick, as a strategy whose estimators sample or decay
   * on the clock (the model quoters) or whose quotes move with time (a horizon, a funding carry) must be.
   */
  stableUntilMs?(): number;
  /**
   * True when the quotes already widen with a fast volatility estimate (the model quoters price
   * with max(fast σ, σ)): the `volatility` overlay then does not widen them a second time.
   */
  readonly widensOnFastVolatility?: boolean;
}

/** A strategy plugin: a name, a zod schema for its parameters, and a factory. */
export interface StrategyDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly params: S;
  create(params: z.infer<S>): Strategy;
}

/** True when the output is a desired-quotes ladder rather than raw intents. */
export const isDesiredQuotes = (o: StrategyOutput): o is DesiredQuotes => o !== null && 'bids' in o;

/** True when the output is a multi-symbol plan. */
export const isStrategyPlan = (o: StrategyOutput): o is StrategyPlan => o !== null && 'quotes' in o;
