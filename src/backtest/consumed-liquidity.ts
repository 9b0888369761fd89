import { BID } from './dense-book.ts';

/**
 * Displayed liquidity our marketable orders (and resting orders the book crossed) already took, per
 * side and price (NautilusTrader's `liquidity_consumption`). The recorded book is immutable, so
 * without this an IOC sent twice at one instant, or a crossed order re-checked on every book event,
 * would take the same displayed quantity again and again. What was taken stays taken until the
 * recording next changes that level (any new quantity there, including zero); then the level's
 * displayed quantity is fresh data and fully available again.
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

  /** The recording changed a level: what was taken there no longer applies. */
  reset(side: number, priceTicks: number): void {
    (side === BID ? this.#bids : this.#asks).delete(priceTicks);
  }

  /**
   * After a book snapshot: levels whose quantity changed (`qtyBefore` vs `qtyAfter`) are fresh data.
   * `qtyBefore` must be read before the snapshot is loaded: call `levelsTaken` first.
   */
  afterSnapshot(before: readonly (readonly [side: number, priceTicks: number, qty: number])[], qtyAfter: (side: number, priceTicks: number) => number): void {
    for (const [side, p, q] of before) if (qtyAfter(side, p) !== q) this.reset(side, p);
  }

  /** Levels with consumption and their displayed quantity now (for `afterSnapshot`). */
  levelsTaken(qtyNow: (side: number, priceTicks: number) => number): [side: number, priceTicks: number, qty: number][] {
    const out: [number, number, number][] = [];
    for (const p of this.#bids.keys()) out.push([BID, p, qtyNow(BID, p)]);
    for (const p of this.#asks.keys()) out.push([1 - BID, p, qtyNow(1 - BID, p)]);
    return out;
  }
}
