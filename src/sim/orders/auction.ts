import type { BookSide, LevelView } from '../book/order-book.ts';
import type { SimOrder } from '../types.ts';
import type { EngineDeps } from './engine-types.ts';
import type { Matcher } from './matcher.ts';
import type { OrderStore } from './order-store.ts';

/** The single price an auction uncrosses at, with the volume it executes and the imbalance left. */
export interface AuctionPrice {
  readonly priceTicks: number;
  /** Contracts executed on each side: min(demand, supply) at the price. */
  readonly volume: number;
  /** |demand − supply| at the price. */
  readonly imbalance: number;
}

/**
 * The single-price (Dutch) auction price of a crossed book (docs/venue-rules.md §9) [I]: the price that
 * maximises the executed volume min(demand, supply); ties go to the smaller imbalance
 * |demand − supply|, then to the price nearest `refTicks` (the last settlement), then to the lower
 * price. Every tick in the crossed range is considered: demand and supply only change at order
 * prices, so the order prices plus, inside each gap between them, the tick nearest the reference
 * cover them all. Levels are best first, as `BookSide.levels()` gives them. Null when the book
 * does not cross.
 */
export function auctionPrice(bids: readonly LevelView[], asks: readonly LevelView[], refTicks: number): AuctionPrice | null {
  const bestBid = bids[0]?.priceTicks;
  const bestAsk = asks[0]?.priceTicks;
  if (bestBid === undefined || bestAsk === undefined || bestBid < bestAsk) return null;
  const prices = new Set<number>();
  for (const l of bids) if (l.priceTicks >= bestAsk) prices.add(l.priceTicks);
  for (const l of asks) if (l.priceTicks <= bestBid) prices.add(l.priceTicks);
  const sorted = [...prices].sort((x, y) => x - y);
  const candidates: number[] = [];
  for (let k = 0; k < sorted.length; k++) {
    const p = sorted[k]!;
    candidates.push(p);
    const next = sorted[k + 1];
    if (next !== undefined && next - p >= 2) candidates.push(Math.min(Math.max(Math.round(refTicks), p + 1), next - 1));
  }
  // Ascending sweep: supply grows as asks (ascending) come in; demand is the total minus the bids
  // (walked from the lowest) priced below the candidate.
  let totalBids = 0;
  for (const l of bids) totalBids += l.qty;
  let supply = 0;
  let below = 0;
  let ia = 0;
  let ib = bids.length - 1;
  let best: AuctionPrice | null = null;
  for (const p of candidates) {
    while (ia < asks.length && asks[ia]!.priceTicks <= p) supply += asks[ia++]!.qty;
    while (ib >= 0 && bids[ib]!.priceTicks < p) below += bids[ib--]!.qty;
    const demand = totalBids - below;
    const cand = { priceTicks: p, volume: Math.min(demand, supply), imbalance: Math.abs(demand - supply) };
    if (best === null || better(cand, best, refTicks)) best = cand;
  }
  return best;
}

function better(a: AuctionPrice, b: AuctionPrice, ref: number): boolean {
  if (a.volume !== b.volume) return a.volume > b.volume;
  if (a.imbalance !== b.imbalance) return a.imbalance < b.imbalance;
  const da = Math.abs(a.priceTicks - ref);
  const db = Math.abs(b.priceTicks - ref);
  if (da !== db) return da < db;
  return a.priceTicks < b.priceTicks;
}

/**
 * Runs the auction of one book when matching starts again (PRE_OPEN → OPEN, or the end of a
 * MATCH_AND_CLOSE_AUCTION) [I]. Every trade is at the one auction price; eligible bids (price ≥ it)
 * and asks (price ≤ it) are paired in price-time priority. In each pair the later order is the
 * aggressor (taker fee, `aggressor: true`, the trade's taker side) unless it is post-only and the
 * earlier one is not. Two orders of the same account are not traded: the later order's self-trade
 * mode decides which is cancelled, as in continuous matching. IOC orders that rested through the
 * non-matching state take part, and their remainder expires after the auction.
 */
export class Auction {
  readonly #d: EngineDeps;
  readonly #store: OrderStore;
  readonly #matcher: Matcher;

  constructor(deps: EngineDeps, store: OrderStore, matcher: Matcher) {
    this.#d = deps;
    this.#store = store;
    this.#matcher = matcher;
  }

  /** Uncrosses `symbol`'s book at a single price, expires IOC remainders, and reports the book change. */
  run(symbol: string): void {
    const d = this.#d;
    const book = d.books.get(symbol);
    const market = d.markets.get(symbol);
    if (!book || !market) return;
    const now = d.clock.nowNs();
    const refTicks = market.instrument.grid.decimalToTicks(market.lastSettlement, 'nearest');
    // One round clears the crossing; cancellations by self-trade prevention can leave a cross, which
    // a further round (on fewer orders) clears. Each round removes orders, so this ends.
    for (let round = 0; round < 1000; round++) {
      const px = auctionPrice(book.bids.levels(), book.asks.levels(), refTicks);
      if (!px) break;
      const bids = eligible(book.bids, (p) => p >= px.priceTicks);
      const asks = eligible(book.asks, (p) => p <= px.priceTicks);
      let i = 0;
      let j = 0;
      while (i < bids.length && j < asks.length) {
        const b = bids[i]!;
        const a = asks[j]!;
        if (b.remainingQty === 0) {
          i++;
          continue;
        }
        if (a.remainingQty === 0) {
          j++;
          continue;
        }
        const later = isLater(b, a) ? b : a;
        const earlier = later === b ? a : b;
        if (b.accountId === a.accountId) {
          const acct = d.accounts.account(b.accountId)!;
          const stp = later.stp;
          if (stp === 'CancelResting' || stp === 'CancelBoth') this.#store.cancel(earlier, acct, 'UNKNOWN', 'self-trade prevention: resting order canceled', now);
          if (stp === 'CancelIncoming' || stp === 'CancelBoth') this.#store.cancel(later, acct, 'UNKNOWN', 'self-trade prevention: incoming order canceled', now);
          continue;
        }
        const taker = later.postOnly && !earlier.postOnly ? earlier : later;
        const maker = taker === later ? earlier : later;
        const takerAcct = d.accounts.account(taker.accountId)!;
        const makerAcct = d.accounts.account(maker.accountId)!;
        const qty = Math.min(b.remainingQty, a.remainingQty);
        this.#matcher.fillResting(maker, makerAcct, book.sideOf(maker.side), qty, now);
        this.#matcher.fillResting(taker, takerAcct, book.sideOf(taker.side), qty, now);
        this.#matcher.trade(maker, makerAcct, taker, takerAcct, qty, px.priceTicks, market, now);
      }
    }
    const iocs: SimOrder[] = [];
    for (const o of book.bids.orders()) if (o.tif === 'IOC') iocs.push(o);
    for (const o of book.asks.orders()) if (o.tif === 'IOC') iocs.push(o);
    for (const o of iocs) this.#store.expire(o, d.accounts.account(o.accountId)!, now);
    d.emitBook(symbol);
  }
}

/** Resting orders of a side in priority order (best level first, FIFO within it) while `ok(price)`. */
function eligible(side: BookSide, ok: (priceTicks: number) => boolean): SimOrder[] {
  const out: SimOrder[] = [];
  for (const o of side.orders()) {
    if (!ok(o.priceTicks)) break;
    out.push(o);
  }
  return out;
}

/** Arrival order: receipt time, then id (ids are minted in arrival order). */
function isLater(x: SimOrder, y: SimOrder): boolean {
  return x.createdNs !== y.createdNs ? x.createdNs > y.createdNs : x.oid > y.oid;
}
