import type { Side } from '../../domain/enums.ts';
import type { SimOrder } from '../types.ts';

/** One price level: total resting quantity and a FIFO queue of orders (intrusive doubly linked list). */
export interface PriceLevel {
  readonly priceTicks: number;
  qty: number;
  count: number;
  head: SimOrder | null;
  tail: SimOrder | null;
}

/** A level as exported to market data: price, total, and (L3) the queue's sizes in time order. */
export interface LevelView {
  readonly priceTicks: number;
  readonly qty: number;
  readonly orders?: readonly number[];
}

/**
 * One side of a book. Levels live in an array sorted by price whose LAST element is the best
 * (bids ascending, asks descending), so the best level is O(1) with no hashing, removing the best
 * level is a pop, and a new level costs one binary search plus a splice over levels (never over
 * orders). A Map by price finds the level an order joins.
 */
export class BookSide {
  readonly side: Side;
  readonly #sorted: PriceLevel[] = [];
  readonly #levels = new Map<number, PriceLevel>();
  /** +1 for bids (higher is better), -1 for asks. */
  readonly #dir: 1 | -1;

  constructor(side: Side) {
    this.side = side;
    this.#dir = side === 'buy' ? 1 : -1;
  }

  /** Best level, or undefined when the side is empty. */
  best(): PriceLevel | undefined {
    const n = this.#sorted.length;
    return n === 0 ? undefined : this.#sorted[n - 1];
  }

  /** Best price in ticks, or undefined. */
  bestPrice(): number | undefined {
    const n = this.#sorted.length;
    return n === 0 ? undefined : this.#sorted[n - 1]!.priceTicks;
  }

  /** Number of price levels. */
  get depth(): number {
    return this.#sorted.length;
  }

  /** The level at `priceTicks`, if any. */
  level(priceTicks: number): PriceLevel | undefined {
    return this.#levels.get(priceTicks);
  }

  /** Appends `order` to the tail of its price level's queue (time priority). */
  add(order: SimOrder): void {
    let lvl = this.#levels.get(order.priceTicks);
    if (!lvl) {
      lvl = { priceTicks: order.priceTicks, qty: 0, count: 0, head: null, tail: null };
      this.#levels.set(order.priceTicks, lvl);
      this.#insertLevel(lvl);
    }
    order.prev = lvl.tail;
    order.next = null;
    if (lvl.tail) lvl.tail.next = order;
    else lvl.head = order;
    lvl.tail = order;
    lvl.qty += order.remainingQty;
    lvl.count++;
    order.restingLevel = lvl;
  }

  /** Unlinks a resting order; drops its level when it empties. No-op when not resting here. */
  remove(order: SimOrder): void {
    const lvl = order.restingLevel as PriceLevel | null;
    if (!lvl) return;
    if (order.prev) order.prev.next = order.next;
    else lvl.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else lvl.tail = order.prev;
    lvl.qty -= order.remainingQty;
    lvl.count--;
    order.prev = null;
    order.next = null;
    order.restingLevel = null;
    if (lvl.count === 0) this.#dropLevel(lvl);
  }

  /** Records a partial execution of a resting order (its level total shrinks). */
  reduce(order: SimOrder, qty: number): void {
    const lvl = order.restingLevel as PriceLevel | null;
    if (lvl) lvl.qty -= qty;
  }

  /** Levels best first, at most `depth` of them; `withOrders` adds the L3 queue sizes. */
  levels(depth = Infinity, withOrders = false): LevelView[] {
    const out: LevelView[] = [];
    for (let i = this.#sorted.length - 1; i >= 0 && out.length < depth; i--) {
      const lvl = this.#sorted[i]!;
      if (!withOrders) {
        out.push({ priceTicks: lvl.priceTicks, qty: lvl.qty });
        continue;
      }
      const sizes: number[] = [];
      for (let o = lvl.head; o; o = o.next) sizes.push(o.remainingQty);
      out.push({ priceTicks: lvl.priceTicks, qty: lvl.qty, orders: sizes });
    }
    return out;
  }

  /** Resting orders best level first, each level in queue order (for snapshots and L3 views). */
  *orders(): IterableIterator<SimOrder> {
    for (let i = this.#sorted.length - 1; i >= 0; i--) {
      for (let o = this.#sorted[i]!.head; o; o = o.next) yield o;
    }
  }

  /** True when `a` is a strictly better price than `b` on this side. */
  better(a: number, b: number): boolean {
    return this.#dir === 1 ? a > b : a < b;
  }

  #insertLevel(lvl: PriceLevel): void {
    const arr = this.#sorted;
    const n = arr.length;
    const p = lvl.priceTicks;
    // Fast path: a new best price (the common case for quoting near the touch).
    if (n === 0 || this.better(p, arr[n - 1]!.priceTicks)) {
      arr.push(lvl);
      return;
    }
    arr.splice(this.#lowerBound(p), 0, lvl);
  }

  #dropLevel(lvl: PriceLevel): void {
    this.#levels.delete(lvl.priceTicks);
    const arr = this.#sorted;
    const n = arr.length;
    if (arr[n - 1] === lvl) {
      arr.pop();
      return;
    }
    const i = this.#lowerBound(lvl.priceTicks);
    if (arr[i] === lvl) arr.splice(i, 1);
  }

  /** First index whose price is not worse than `p` (levels before it are worse). */
  #lowerBound(p: number): number {
    const arr = this.#sorted;
    let lo = 0;
    let hi = arr.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(p, arr[mid]!.priceTicks)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** An instrument's book: bids and asks. */
export class OrderBook {
  readonly symbol: string;
  readonly bids = new BookSide('buy');
  readonly asks = new BookSide('sell');

  constructor(symbol: string) {
    this.symbol = symbol;
  }

  /** The side an order of `side` rests on. */
  sideOf(side: Side): BookSide {
    return side === 'buy' ? this.bids : this.asks;
  }

  /** The side an order of `side` trades against. */
  oppositeOf(side: Side): BookSide {
    return side === 'buy' ? this.asks : this.bids;
  }

  /** Best bid in ticks, or undefined. */
  bestBid(): number | undefined {
    return this.bids.bestPrice();
  }

  /** Best ask in ticks, or undefined. */
  bestAsk(): number | undefined {
    return this.asks.bestPrice();
  }
}
