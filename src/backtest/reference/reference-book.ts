import type { RefLevel, RefMarketOrder, RefSide } from './types.ts';

/**
 * The reference's view of the recorded market: displayed sizes per side and price in plain maps,
 * order lists on order-level data, what our marketable and crossed orders already took, and the
 * recorded depth. Slow on purpose: every question is answered by looking at the whole side.
 */
export class RefBook {
  readonly #qty: Record<RefSide, Map<number, number>> = { bid: new Map(), ask: new Map() };
  /** The last size each price showed before it was removed (for orders joining out of depth). */
  readonly #lastShown: Record<RefSide, Map<number, number>> = { bid: new Map(), ask: new Map() };
  /** Order-level data: each level's market orders, front first. */
  readonly #orders: Record<RefSide, Map<number, readonly RefMarketOrder[]>> = { bid: new Map(), ask: new Map() };
  readonly #taken: Record<RefSide, Map<number, number>> = { bid: new Map(), ask: new Map() };
  /** The most levels one side of the book has shown: the recorded depth when the source cut its books. */
  #depth = 0;

  /** Displayed size at a price (0 when nothing). */
  qty(side: RefSide, priceTicks: number): number {
    return this.#qty[side].get(priceTicks) ?? 0;
  }

  /** Best displayed price of a side (NaN when the side is empty). */
  best(side: RefSide): number {
    const prices = [...this.#qty[side].keys()];
    if (prices.length === 0) return NaN;
    return side === 'bid' ? Math.max(...prices) : Math.min(...prices);
  }

  /** The displayed prices of a side, best first. */
  pricesBestFirst(side: RefSide): number[] {
    return [...this.#qty[side].keys()].sort((a, b) => (side === 'bid' ? b - a : a - b));
  }

  /** The last size a price showed before it was removed (0 when it never showed). */
  lastShown(side: RefSide, priceTicks: number): number {
    return this.#lastShown[side].get(priceTicks) ?? 0;
  }

  /** A price that shows nothing while its side shows as many better levels as the recorded depth: out of depth, not empty. */
  outOfDepth(side: RefSide, priceTicks: number): boolean {
    if (this.qty(side, priceTicks) > 0 || this.#depth === 0) return false;
    const better = [...this.#qty[side].keys()].filter((p) => (side === 'bid' ? p > priceTicks : p < priceTicks)).length;
    return better >= this.#depth;
  }

  /** Order-level data: the level's market orders, front first. */
  orders(side: RefSide, priceTicks: number): readonly RefMarketOrder[] {
    return this.#orders[side].get(priceTicks) ?? [];
  }

  /** Order-level data: replaces a level's order list. */
  setOrders(side: RefSide, priceTicks: number, orders: readonly RefMarketOrder[]): void {
    if (orders.length === 0) this.#orders[side].delete(priceTicks);
    else this.#orders[side].set(priceTicks, orders);
  }

  /** What our orders already took at a level and may not take again. */
  taken(side: RefSide, priceTicks: number): number {
    return this.#taken[side].get(priceTicks) ?? 0;
  }

  /** Our order took `qty` of a level's displayed size. */
  take(side: RefSide, priceTicks: number, qty: number): void {
    this.#taken[side].set(priceTicks, this.taken(side, priceTicks) + qty);
  }

  /** Sets one level's displayed size; returns the size before. What we took there is forgotten when it empties, capped when it shrinks. */
  setLevel(level: RefLevel): number {
    const { side, priceTicks, qty } = level;
    const before = this.qty(side, priceTicks);
    if (qty > 0) this.#qty[side].set(priceTicks, qty);
    else {
      if (before > 0) this.#lastShown[side].set(priceTicks, before);
      this.#qty[side].delete(priceTicks);
    }
    const taken = this.#taken[side].get(priceTicks);
    if (taken !== undefined) {
      if (qty <= 0) this.#taken[side].delete(priceTicks);
      else if (taken > qty) this.#taken[side].set(priceTicks, qty);
    }
    return before;
  }

  /** A snapshot: every displayed level is replaced by the frame's. */
  load(levels: readonly RefLevel[]): void {
    for (const side of ['bid', 'ask'] as const) {
      for (const [p, q] of this.#qty[side]) this.#lastShown[side].set(p, q);
      this.#qty[side].clear();
      this.#orders[side].clear();
    }
    for (const l of levels) if (l.qty > 0) this.#qty[l.side].set(l.priceTicks, l.qty);
    for (const side of ['bid', 'ask'] as const) {
      for (const [p, taken] of [...this.#taken[side]]) {
        const now = this.qty(side, p);
        if (now <= 0) this.#taken[side].delete(p);
        else if (taken > now) this.#taken[side].set(p, now);
      }
    }
  }

  /** After a frame: the recorded depth is the most levels a side has shown. */
  seeDepth(): void {
    this.#depth = Math.max(this.#depth, this.#qty.bid.size, this.#qty.ask.size);
  }
}
