import type { Decimal } from '../core/decimal.ts';
import type { Book } from '../domain/book.ts';
import { MmError } from '../core/errors.ts';
import type { Symbol } from '../core/ids.ts';
import type { FeeRates } from '../domain/fee-rates.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { DesiredQuotes, QuoteLevel } from '../domain/intents.ts';
import { othersBook } from '../domain/others-book.ts';
import type { SymbolRiskLimits } from '../risk/config.ts';
import type { TradingState } from '../risk/trading-state.ts';
import type { OwnFill, PositionView, RewardView, Strategy, StrategyContext, SymbolView, WorkingOrder } from '../strategy/contract.ts';
import { MarketState } from './market-state.ts';
import { PositionLedger } from './position-ledger.ts';
import type { MutableContext } from './mutable-context.ts';
import type { StrategyGroup } from './strategy-group.ts';

const NO_FILLS: readonly OwnFill[] = Object.freeze([]);

/**
 * The book depth a strategy reads (Infinity when it does not say).
 * @throws MmError CONFIG_INVALID when `bookDepth` is not a positive integer.
 */
export function checkedBookDepth(id: string, strategy: Strategy): number {
  const depth = strategy.bookDepth;
  if (depth !== undefined && !(Number.isInteger(depth) && depth > 0))
    throw new MmError('CONFIG_INVALID', `strategy ${id}: bookDepth must be a positive integer, got ${String(depth)}`, { strategy: id, bookDepth: depth });
  return depth ?? Infinity;
}

/** A strategy and its symbols' slots. */
export type SlotGroup = StrategyGroup<SymbolSlot>;

/** Everything the engine keeps for one quoted symbol. */
export class SymbolSlot {
  readonly market: MarketState;
  readonly ledger: PositionLedger;
  readonly usdPerTickContract: number;
  /** The strategy (and its other symbols) this symbol belongs to; set by the StrategyGroup. */
  group!: SlotGroup;
  /** The strategy's last ladder (before the risk gate). */
  lastDesired: DesiredQuotes | null = null;
  /** The last ladder after the risk gate. */
  gated: DesiredQuotes | null = null;
  operatorState: TradingState = 'ACTIVE';
  operatorReason = '';
  /** An operator flatten still working: reducing IOCs it may still send until the position is flat. */
  flattenOrdersLeft = 0;
  /** The earliest time the flatten may send its next IOC (one per FLATTEN_RETRY_MS). */
  flattenNextMs = 0;
  /** A CLOSE_ONLY reject makes the symbol REDUCING until this time. */
  closeOnlyUntilMs = 0;
  effective: TradingState = 'ACTIVE';
  effectiveReason = '';
  lastTrimKey = '';
  rewardView: RewardView | null = null;
  readonly ctx: MutableContext;
  /**
   * The inputs of the last evaluation whose gated ladder the working orders matched exactly. The
   * risk gate and the quote diff are pure functions of these (limits and engine config are fixed),
   * so the same inputs again need neither: most book updates leave a quoter's ladder as it was.
   * `settledVersion` −1 = nothing remembered.
   */
  settledVersion = -1;
  settledDesired: DesiredQuotes | null = null;
  settledBestBid: number | null = null;
  settledBestAsk: number | null = null;
  settledPosition = 0;
  settledState: TradingState = 'ACTIVE';
  settledBandLower: number | null = null;
  settledBandUpper: number | null = null;
  /** When the remembered answer was a deferred one: OrderManager.deferredLockSentMs (Infinity otherwise). */
  settledLockSentMs = Infinity;
  /** Book levels per side the strategy reads (Infinity: all); follows a replaced strategy. */
  bookDepth: number;

  constructor(
    readonly id: string,
    readonly symbol: Symbol,
    public strategy: Strategy,
    readonly instrument: Instrument,
    public limits: SymbolRiskLimits,
    fees: FeeRates,
    /** The feed's books include our resting orders (live): strategies get them removed. */
    readonly feedShowsOwnOrders = true,
  ) {
    this.bookDepth = checkedBookDepth(id, strategy);
    this.market = new MarketState(symbol);
    this.ledger = new PositionLedger(instrument);
    this.usdPerTickContract = instrument.grid.tickSize.mul(instrument.multiplier).toNumber();
    const ledger = this.ledger;
    const market = this.market;
    const tick = instrument.grid.tickSize;
    const position: PositionView = {
      get qty(): number {
        return ledger.qty;
      },
      get avgPriceTicks(): number | null {
        return ledger.avgPrice === null ? null : ledger.avgPrice.div(tick).toNumber();
      },
      get realizedPnl(): Decimal {
        return ledger.realized;
      },
      get unrealizedPnl(): Decimal {
        return ledger.unrealized(market.mark());
      },
      get fees(): Decimal {
        return ledger.fees;
      },
      get funding(): Decimal {
        return ledger.funding;
      },
    };
    const ctx: MutableContext = {
      symbol,
      instrument,
      nowMs: 0,
      book: null,
      ticker: null,
      lastTrade: null,
      trades: [],
      funding: null,
      markTicks: null,
      indexTicks: null,
      references: market.references,
      position,
      workingOrders: [],
      rewards: null,
      fees,
      symbols: [symbol],
      fills: NO_FILLS,
      view(s: Symbol): SymbolView {
        if (s !== symbol) throw new MmError('INVARIANT_BROKEN', `strategy ${id} asked for ${s}, which it does not declare`, { strategy: id, symbol: s });
        return ctx;
      },
    };
    this.ctx = ctx;
  }

  /** The strategy's error when it threw (it is then not called again), else null. */
  get failed(): string | null {
    return this.group.failed;
  }

  #ownFrom: Book | null = null;
  #ownWorking: readonly WorkingOrder[] | null = null;
  #ownOut: Book | null = null;

  /**
   * The book less our orders resting on the venue (the market a replay shows the strategy), cached
   * while neither the book nor the working orders change (both are replaced, never mutated).
   */
  #othersBook(book: Book | null, working: readonly WorkingOrder[]): Book | null {
    if (book === null || working.length === 0) return book;
    if (book === this.#ownFrom && working === this.#ownWorking) return this.#ownOut;
    this.#ownFrom = book;
    this.#ownWorking = working;
    this.#ownOut = othersBook(book, working.filter(restsOnVenue));
    return this.#ownOut;
  }

  /** Refreshes the context for a call at `nowMs`. */
  refresh(nowMs: number, working: readonly WorkingOrder[]): StrategyContext {
    const c = this.ctx;
    const m = this.market;
    c.nowMs = nowMs;
    c.book = this.feedShowsOwnOrders ? this.#othersBook(m.book, working) : m.book;
    c.ticker = m.ticker;
    c.lastTrade = m.lastTrade;
    c.trades = m.takeTrades();
    c.funding = m.funding;
    c.markTicks = m.ticker?.markTicks ?? null;
    c.indexTicks = m.indexTicks;
    c.workingOrders = working;
    c.rewards = this.rewardView;
    return c;
  }
}

/**
 * True for an order the venue's book may show: acknowledged (open, or a replace or cancel not yet
 * answered) or of unknown outcome. Queued and unacknowledged new orders are not in the book yet.
 */
function restsOnVenue(o: WorkingOrder): boolean {
  return o.status !== 'queued' && o.status !== 'pending-new';
}

/**
 * Keeps a post-only ladder from crossing: bids at most one tick under the best ask, asks at least one
 * tick over the best bid. Levels pushed onto the same price merge. Returns the input when untouched.
 */
export function clampPostOnly(levels: readonly QuoteLevel[], isBid: boolean, oppositeBest: number | null): readonly QuoteLevel[] {
  if (oppositeBest === null || levels.length === 0) return levels;
  const limit = isBid ? oppositeBest - 1 : oppositeBest + 1;
  const first = levels[0]!;
  if (isBid ? first.priceTicks <= limit : first.priceTicks >= limit) return levels;
  const out: QuoteLevel[] = [];
  for (const l of levels) {
    const p = isBid ? Math.min(l.priceTicks, limit) : Math.max(l.priceTicks, limit);
    const last = out[out.length - 1];
    if (last && last.priceTicks === p) out[out.length - 1] = { priceTicks: p, qty: last.qty + l.qty };
    else out.push(p === l.priceTicks ? l : { priceTicks: p, qty: l.qty });
  }
  return out;
}
