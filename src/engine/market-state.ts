import { truncate } from '../core/arrays.ts';
import type { Symbol } from '../core/ids.ts';
import { applySideDelta, type Book } from '../domain/book.ts';
import { INDEX_PRICE_SOURCE, type MarketEvent, type TickerUpdated, type TradePrinted } from '../domain/events.ts';
import type { FundingEstimate } from '../domain/funding.ts';
import type { ReferencePrice, WorkingOrder } from '../strategy/contract.ts';
import { OwnPrints } from './own-prints.ts';

const NO_TRADES: readonly TradePrinted[] = Object.freeze([]);
const NO_WORKING: readonly WorkingOrder[] = Object.freeze([]);
/** Trades kept while the strategy is not called (not ready, isolated): the oldest go beyond this. */
const MAX_PENDING_TRADES = 10_000;

/**
 * One symbol's market as the engine sees it: the book (snapshots kept as received, deltas applied),
 * the last ticker (mark, bands, state, funding estimate) and the last trade. Mutable, owned by the
 * engine; strategies get the immutable Book/ticker objects it holds.
 */
export class MarketState {
  book: Book | null = null;
  ticker: TickerUpdated | null = null;
  lastTrade: TradePrinted | null = null;
  /** Public trades since the strategy's previous call (taken by `takeTrades`). */
  #tradesSinceCall: TradePrinted[] = [];
  /** The batch handed to the previous call, reused for the next batch (strategies must not keep ctx.trades). */
  #spare: TradePrinted[] = [];
  funding: FundingEstimate | null = null;
  /** The venue's latest index (underlying) price in (fractional) ticks, null before any. */
  indexTicks: number | null = null;
  /** The latest price of each external reference feed for this symbol, by feed name. */
  readonly references = new Map<string, ReferencePrice>();
  /** Engine time of the last market event, null before any. */
  lastEventMs: number | null = null;
  /** Counts index and reference price updates (`references` is updated in place). */
  priceVersion = 0;

  /** Our fills still to be taken off the public prints; null when the feed never shows them (a replay). */
  readonly #ownPrints: OwnPrints | null;

  /** `excludeOwnPrints`: the feed's trades include our own fills (live), which strategies must not see. */
  constructor(
    readonly symbol: Symbol,
    excludeOwnPrints = false,
  ) {
    this.#ownPrints = excludeOwnPrints ? new OwnPrints() : null;
  }

  /** A fill of ours (live): its print comes off the public trades strategies read. */
  ownFill(priceTicks: number, qty: number, nowMs: number): void {
    this.#ownPrints?.onFill(priceTicks, qty, nowMs, this.#tradesSinceCall);
  }

  /** Applies a market event; returns true when strategies should re-quote. */
  apply(ev: MarketEvent, nowMs: number): boolean {
    this.lastEventMs = nowMs;
    switch (ev.type) {
      case 'book':
        if (ev.isSnapshot || this.book === null) {
          // A snapshot event is itself an immutable Book: keep it (no copy per event on the hot path).
          this.book = ev;
        } else {
          this.book = {
            symbol: this.symbol,
            bids: ev.bids.length > 0 ? applySideDelta(this.book.bids, ev.bids, true) : this.book.bids,
            asks: ev.asks.length > 0 ? applySideDelta(this.book.asks, ev.asks, false) : this.book.asks,
            tsEvent: ev.tsEvent,
            tsRecv: ev.tsRecv,
          };
        }
        return true;
      case 'ticker':
        this.ticker = ev;
        if (ev.funding) this.funding = ev.funding;
        return true;
      case 'trade': {
        this.lastTrade = ev;
        const others = this.#ownPrints === null ? ev : this.#ownPrints.othersPart(ev, nowMs);
        if (others === null) return true;
        if (this.#tradesSinceCall.length >= MAX_PENDING_TRADES) this.#tradesSinceCall.splice(0, MAX_PENDING_TRADES / 2);
        this.#tradesSinceCall.push(others);
        return true;
      }
      case 'price':
        this.priceVersion++;
        if (ev.source === INDEX_PRICE_SOURCE) this.indexTicks = ev.priceTicks;
        else this.references.set(ev.source, { source: ev.source, symbol: ev.symbol, priceTicks: ev.priceTicks, tsMs: ev.tsEvent });
        return true;
      default:
        return false;
    }
  }

  /**
   * The trades since the last call, oldest first, and starts a new batch. The returned array is
   * reused two calls later (double-buffered, emptied keeping its storage: no allocation per call), so
   * it is valid only until then.
   */
  takeTrades(nowMs = 0, working: readonly WorkingOrder[] = NO_WORKING): readonly TradePrinted[] {
    if (this.#ownPrints !== null && (this.#tradesSinceCall.length > 0 || this.#ownPrints.holding)) this.#ownPrints.settle(this.#tradesSinceCall, working, nowMs);
    if (this.#tradesSinceCall.length === 0) return NO_TRADES;
    const out = this.#tradesSinceCall;
    const next = this.#spare;
    truncate(next, 0);
    this.#tradesSinceCall = next;
    this.#spare = out;
    return out;
  }

  /** True when public trades wait for the strategy's next call (or a print of ours may be, held for our fill). */
  get hasPendingTrades(): boolean {
    return this.#tradesSinceCall.length > 0 || this.#ownPrints?.holding === true;
  }

  /** Best bid in ticks (book, else ticker), null when unknown. */
  bestBid(): number | null {
    const b = this.book?.bids[0];
    return b ? b.priceTicks : (this.ticker?.bestBidTicks ?? null);
  }

  /** Best ask in ticks (book, else ticker), null when unknown. */
  bestAsk(): number | null {
    const a = this.book?.asks[0];
    return a ? a.priceTicks : (this.ticker?.bestAskTicks ?? null);
  }

  /** Mid in (possibly half) ticks, null when a side is missing. */
  mid(): number | null {
    const b = this.bestBid();
    const a = this.bestAsk();
    return b === null || a === null ? null : (a + b) / 2;
  }

  /** Mark for unrealized PnL: the ticker's mark, else the mid. */
  mark(): number | null {
    return this.ticker?.markTicks ?? this.mid();
  }
}
