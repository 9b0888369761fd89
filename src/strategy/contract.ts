import type { z } from 'zod';
import type { Decimal } from '../core/decimal.ts';
import type { Book } from '../domain/book.ts';
import type { TickerUpdated, TradePrinted } from '../domain/events.ts';
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

/**
 * The read-only view a strategy gets on each evaluation. Valid only during the `quote` call: the
 * engine reuses the object (allocation-light hot path), so copy what you want to keep.
 */
export interface StrategyContext {
  readonly symbol: Symbol;
  readonly instrument: Instrument;
  /** Epoch ms on the engine's clock (virtual in backtests). */
  readonly nowMs: number;
  readonly book: Book | null;
  readonly ticker: TickerUpdated | null;
  readonly lastTrade: TradePrinted | null;
  readonly funding: FundingEstimate | null;
  readonly position: PositionView;
  /** Our working orders on this symbol (acknowledged or in flight). */
  readonly workingOrders: readonly WorkingOrder[];
  readonly rewards: RewardView | null;
}

/** What a strategy returns: desired quotes (the engine diffs them), raw intents, or null (no change). */
export type StrategyOutput = DesiredQuotes | { readonly intents: readonly OrderIntent[] } | null;

/**
 * A strategy instance: small, synchronous and pure. No rxjs, no I/O, no timers, no Date.now.
 * `quote` is called whenever the symbol's market state changes, after our fills, and on clock ticks.
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
