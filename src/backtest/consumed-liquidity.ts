import { BID } from './dense-book.ts';

/**
 * Displayed liquidity our marketable orders (and resting orders the book crossed) already took, per
 * side and price (NautilusTrader's `liquidity_consumption`). The recorded book is immutable, so
 * without this an IOC sent twice at one instant, or a crossed order re-checked on every book event,
 * would take the same displayed quantity again and again. What was taken stays taken until the
 * recording shows the level empty: a smaller quantity there caps it (what left came out of what we
 * had taken), a larger one adds only the addition. Resetting on every change, as NautilusTrader
 * does, made the whole level available again at each decrement: 100 displayed then 95, 90, 85 filled
 * a crossed order 370.
 */
export class ConsumedLiquidity {
  readonly #bids = new Map<number, number>();
  readonly #asks = new Map<number, number>();

  /** True when nothing is consumed (the hot path checks this before anything else). */
  get empty(): boolean {
    return this.#bids.size === 0 && this.#asks.size === 0;
  }

  /** Quantity already taken at a level. */
  taken(side: number, priceTicks: number): number {
    return (side === BID ? this.#bids : this.#asks).get(priceTicks) ?? 0;
  }

  /** Records `qty` more taken at a level. */
  take(side: number, priceTicks: number, qty: number): void {
    const m = side === BID ? this.#bids : this.#asks;
    m.set(priceTicks, (m.get(priceTicks) ?? 0) + qty);
  }

  /**
   * The recording shows `qtyNow` (others' volume) at a level: empty forgets what was taken there,
   * less than what was taken caps it.
   */
  level(side: number, priceTicks: number, qtyNow: number): void {
    const m = side === BID ? this.#bids : this.#asks;
    const t = m.get(priceTicks);
    if (t === undefined) return;
    if (qtyNow <= 0) m.delete(priceTicks);
    else if (t > qtyNow) m.set(priceTicks, qtyNow);
  }

  /** After a book snapshot: every level with consumption is seen again (`qtyNow`: others' volume now). */
  afterSnapshot(qtyNow: (side: number, priceTicks: number) => number): void {
    for (const p of [...this.#bids.keys()]) this.level(BID, p, qtyNow(BID, p));
    for (const p of [...this.#asks.keys()]) this.level(1 - BID, p, qtyNow(1 - BID, p));
  }
}
