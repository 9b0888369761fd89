import type { BookLevel } from '../../domain/book.ts';
import { priceIndex } from './sorted-prices.ts';

/** One side of a full-depth book: sizes by price plus the prices kept sorted best first. */
class BookSide {
  readonly #qty = new Map<number, number>();
  /** Prices best first (descending for bids, ascending for asks). */
  readonly prices: number[] = [];

  constructor(readonly isBid: boolean) {}

  /** Sets a level's size; 0 removes it. */
  set(priceTicks: number, qty: number): void {
    const had = this.#qty.has(priceTicks);
    if (qty === 0) {
      if (!had) return;
      this.#qty.delete(priceTicks);
      this.prices.splice(this.#indexOf(priceTicks), 1);
      return;
    }
    this.#qty.set(priceTicks, qty);
    if (!had) this.prices.splice(this.#indexOf(priceTicks), 0, priceTicks);
  }

  qty(priceTicks: number): number {
    return this.#qty.get(priceTicks) ?? 0;
  }

  best(): number | undefined {
    return this.prices[0];
  }

  clear(): void {
    this.#qty.clear();
    this.prices.length = 0;
  }

  /** The best `n` levels, best first. */
  top(n: number): BookLevel[] {
    const out: BookLevel[] = [];
    for (let i = 0; i < n && i < this.prices.length; i++) {
      const p = this.prices[i]!;
      out.push({ priceTicks: p, qty: this.#qty.get(p)! });
    }
    return out;
  }

  #indexOf(p: number): number {
    return priceIndex(this.prices, p, this.isBid);
  }
}

/**
 * A full-depth L2 book rebuilt from level updates (price → new size), for importers: thousands of
 * levels, O(log n) lookups, top-N views for the recording.
 */
export class LevelBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);

  /** Sets a level; qty 0 deletes it. */
  set(isBid: boolean, priceTicks: number, qty: number): void {
    (isBid ? this.bids : this.asks).set(priceTicks, qty);
  }

  clear(): void {
    this.bids.clear();
    this.asks.clear();
  }

  /** True when the best bid is at or above the best ask. */
  crossed(): boolean {
    const b = this.bids.best();
    const a = this.asks.best();
    return b !== undefined && a !== undefined && b >= a;
  }

  /**
   * Removes the levels of the side NOT updated last that the fresh side crosses: they are stale
   * (their deletion is still on its way). Returns how many levels were removed.
   */
  uncross(freshIsBid: boolean): number {
    let removed = 0;
    while (this.crossed()) {
      const stale = freshIsBid ? this.asks : this.bids;
      stale.set(stale.best()!, 0);
      removed++;
    }
    return removed;
  }
}
