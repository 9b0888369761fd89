import type { Decimal } from '../core/decimal.ts';
import { sameTopLevels, type Book } from '../domain/book.ts';
import { MmError } from '../core/errors.ts';
import type { Symbol } from '../core/ids.ts';
import type { FeeRates } from '../domain/fee-rates.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { DesiredQuotes, QuoteLevel } from '../domain/intents.ts';
import { othersBook, type OwnRestingOrder } from '../domain/others-book.ts';
import type { SymbolRiskLimits } from '../risk/config.ts';
import { DEFAULT_MD_SANITY_CONFIG, MdSanity, type MdSanityConfig } from '../risk/md-sanity.ts';
import type { TradingState } from '../risk/trading-state.ts';
import type { OwnFill, PositionView, RewardView, Strategy, StrategyContext, SymbolView, WorkingOrder } from '../strategy/contract.ts';
import { MarketState } from './market-state.ts';
import { LocalOrder, NO_GHOSTS } from './order-store.ts';
import { PositionLedger } from './position-ledger.ts';
import { SettleMemo } from './settle-memo.ts';
import type { MutableContext } from './mutable-context.ts';
import type { StrategyGroup } from './strategy-group.ts';
import type { FillEvent } from './events.ts';

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
  /** Whether the market data makes sense (a suspect symbol is HALTED); its reference price for the fat-finger band. */
  readonly sanity: MdSanity;
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
  /** The inputs of the last settle the working orders matched (the gate and diff are skipped for the same again). */
  readonly settled = new SettleMemo();
  /** Book levels per side the strategy reads (Infinity: all); follows a replaced strategy. */
  bookDepth: number;

  constructor(
    readonly id: string,
    readonly symbol: Symbol,
    public strategy: Strategy,
    readonly instrument: Instrument,
    public limits: SymbolRiskLimits,
    fees: FeeRates,
    /** The feed includes our own activity (live): strategies get our resting orders and our prints removed. */
    readonly feedShowsOwnOrders = true,
    marketData: MdSanityConfig = DEFAULT_MD_SANITY_CONFIG,
  ) {
    this.bookDepth = checkedBookDepth(id, strategy);
    this.market = new MarketState(symbol, feedShowsOwnOrders);
    this.sanity = new MdSanity(marketData, instrument.grid);
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

  /** What the last `refresh` read that the context does not hold as is (see `inputsUnchanged`). */
  #seenBook: Book | null = null;
  #seenPriceVersion = -1;
  #seenQty = 0;
  #seenAvg: Decimal | null = null;
  #seenRealized: Decimal | null = null;
  #seenFees: Decimal | null = null;
  #seenFunding: Decimal | null = null;

  #ownFrom: Book | null = null;
  #ownWorking: readonly WorkingOrder[] | null = null;
  #ownGhosts: readonly OwnRestingOrder[] | null = null;
  #ownOut: Book | null = null;

  /**
   * The book less our orders resting on the venue (the market a replay shows the strategy), cached
   * while neither the book nor the working orders change (both are replaced, never mutated).
   */
  #othersBook(book: Book | null, working: readonly WorkingOrder[], ghosts: readonly OwnRestingOrder[]): Book | null {
    if (book === null || (working.length === 0 && ghosts.length === 0)) return book;
    if (book === this.#ownFrom && working === this.#ownWorking && ghosts === this.#ownGhosts) return this.#ownOut;
    this.#ownFrom = book;
    this.#ownWorking = working;
    this.#ownGhosts = ghosts;
    this.#ownOut = othersBook(book, ownOnVenue(book, working, ghosts));
    return this.#ownOut;
  }

  /** A fill of ours: to the strategy at its next call (ctx.fills); live, its print leaves ctx.trades. */
  noteFill(ev: FillEvent): void {
    this.group.addFill(ev);
    if (!ev.recovered) this.market.ownFill(ev.priceTicks, ev.qty, ev.tsMs);
  }

  /** Refreshes the context for a call at `nowMs`. */
  refresh(nowMs: number, working: readonly WorkingOrder[], ghosts: readonly OwnRestingOrder[] = NO_GHOSTS): StrategyContext {
    const c = this.ctx;
    const m = this.market;
    c.nowMs = nowMs;
    c.book = this.feedShowsOwnOrders ? this.#othersBook(m.book, working, ghosts) : m.book;
    c.ticker = m.ticker;
    c.lastTrade = m.lastTrade;
    c.trades = m.takeTrades(nowMs, working);
    c.funding = m.funding;
    c.markTicks = m.ticker?.markTicks ?? null;
    c.indexTicks = m.indexTicks;
    c.workingOrders = working;
    c.rewards = this.rewardView;
    const l = this.ledger;
    this.#seenBook = m.book;
    this.#seenPriceVersion = m.priceVersion;
    this.#seenQty = l.qty;
    this.#seenAvg = l.avgPrice;
    this.#seenRealized = l.realized;
    this.#seenFees = l.fees;
    this.#seenFunding = l.funding;
    return c;
  }

  /**
   * True when a `refresh` now with these working orders would give the strategy what the last one
   * gave it, but for `nowMs`: the same market (the book's top `bookDepth` levels, as for a book
   * update that does not call the strategy), no trade since, the same position and orders.
   */
  inputsUnchanged(working: readonly WorkingOrder[]): boolean {
    const c = this.ctx;
    const m = this.market;
    const l = this.ledger;
    if (working !== c.workingOrders || m.ticker !== c.ticker || m.funding !== c.funding) return false;
    if (this.strategy.readsTrades !== false && (m.lastTrade !== c.lastTrade || m.hasPendingTrades)) return false;
    if (m.priceVersion !== this.#seenPriceVersion || m.indexTicks !== c.indexTicks || this.rewardView !== c.rewards) return false;
    if (l.qty !== this.#seenQty || l.avgPrice !== this.#seenAvg || l.realized !== this.#seenRealized || l.fees !== this.#seenFees || l.funding !== this.#seenFunding) return false;
    const b = m.book;
    const seen = this.#seenBook;
    return b === seen || (b !== null && seen !== null && this.bookDepth !== Infinity && sameTopLevels(seen, b, this.bookDepth));
  }
}

/**
 * Every price and size at which the venue's book shows one of our orders. The market-data and order
 * streams are separate sockets, so the book may run ahead of the order stream or behind it:
 * - acknowledged orders (open, being cancelled, of unknown outcome) rest where we know them;
 * - an order being replaced rests at its old price while the venue holds the replace pending, and at
 *   its target once the venue has acted, which the book may show before the answer arrives: it is
 *   counted at the target when the book's old level no longer holds it (a pure size change: at the
 *   larger of the two sizes);
 * - what left (filled, cancelled, moved by a replace) may still show until the next book update (the
 *   store's ghosts).
 * Without these a strategy quoting the touch took its own order for someone else's after a fill,
 * moved the mid it quotes around, and chased its own quotes (a replace loop). Queued and
 * unacknowledged new orders are not in the venue's book yet.
 */
function ownOnVenue(book: Book, working: readonly WorkingOrder[], ghosts: readonly OwnRestingOrder[]): OwnRestingOrder[] {
  const out: OwnRestingOrder[] = [...ghosts];
  for (const o of working) {
    if (o.status === 'queued' || o.status === 'pending-new') continue;
    const target = o.status === 'pending-replace' && o instanceof LocalOrder ? o.target : null;
    if (target === null) out.push(o);
    else if (target.priceTicks === o.priceTicks) out.push({ side: o.side, priceTicks: o.priceTicks, qty: Math.max(o.qty, target.qty) });
    else if (levelQty(book, o.side, o.priceTicks) >= o.qty) out.push(o);
    else out.push({ side: o.side, priceTicks: target.priceTicks, qty: target.qty });
  }
  return out;
}

/** The book's size at a price on one side (0 when no level is there). */
function levelQty(book: Book, side: WorkingOrder['side'], priceTicks: number): number {
  const levels = side === 'buy' ? book.bids : book.asks;
  for (let i = 0; i < levels.length; i++) if (levels[i]!.priceTicks === priceTicks) return levels[i]!.qty;
  return 0;
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
