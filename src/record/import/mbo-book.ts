import type { BookLevel } from '../../domain/book.ts';
import { priceIndex } from './sorted-prices.ts';

/** A source order id: a number when exact, else its decimal text. */
export type SourceOrderId = number | string;

/** One resting order of a market-by-order book. */
export interface MboOrder {
  readonly id: SourceOrderId;
  readonly isBid: boolean;
  priceTicks: number;
  qty: number;
}

/**
 * One recorded L3 level from its orders in queue order. The one place the source's order ids meet
 * the recording format: today a level carries its order sizes; when the format carries ids, they
 * are `orders.map((o) => o.id)` here.
 */
export function orderLevel(priceTicks: number, orders: readonly MboOrder[]): BookLevel {
  const sizes = new Array<number>(orders.length);
  let qty = 0;
  for (let i = 0; i < orders.length; i++) qty += sizes[i] = orders[i]!.qty;
  return { priceTicks, qty, orders: sizes };
}

/** One side: price → FIFO of orders, plus prices kept sorted best first. */
class MboSide {
  readonly levels = new Map<number, MboOrder[]>();
  readonly prices: number[] = [];
  /** Each level as last written, until it changes: a book per event costs O(depth), not O(orders). */
  readonly #written = new Map<number, BookLevel>();

  constructor(readonly isBid: boolean) {}

  /** Forgets the written form of a level whose orders changed. */
  changed(priceTicks: number): void {
    this.#written.delete(priceTicks);
  }

  push(o: MboOrder): void {
    this.#written.delete(o.priceTicks);
    let q = this.levels.get(o.priceTicks);
    if (q === undefined) {
      q = [];
      this.levels.set(o.priceTicks, q);
      this.prices.splice(priceIndex(this.prices, o.priceTicks, this.isBid), 0, o.priceTicks);
    }
    q.push(o);
  }

  remove(o: MboOrder): void {
    this.#written.delete(o.priceTicks);
    const q = this.levels.get(o.priceTicks)!;
    q.splice(q.indexOf(o), 1);
    if (q.length > 0) return;
    this.levels.delete(o.priceTicks);
    this.prices.splice(priceIndex(this.prices, o.priceTicks, this.isBid), 1);
  }

  /** The best `n` levels, best first, with their orders. */
  top(n: number): BookLevel[] {
    const out: BookLevel[] = [];
    for (let i = 0; i < n && i < this.prices.length; i++) {
      const p = this.prices[i]!;
      let l = this.#written.get(p);
      if (l === undefined) this.#written.set(p, (l = orderLevel(p, this.levels.get(p)!)));
      out.push(l);
    }
    return out;
  }

  /** Rank of a price among the levels (0 = best); a price between levels gets the rank it would have. */
  rank(priceTicks: number): number {
    return priceIndex(this.prices, priceTicks, this.isBid);
  }

  clear(): void {
    this.levels.clear();
    this.prices.length = 0;
    this.#written.clear();
  }
}

/** What applying a message found. */
export type MboResult = 'ok' | 'unknown-order' | 'duplicate-order';

/**
 * A market-by-order book keyed by the source's order ids, keeping each price level's exact FIFO
 * (Databento's MBO semantics: add; cancel takes `qty` off, 0 left removes; modify to a new price or
 * a larger size loses priority, a smaller size at the same price keeps it; clear empties the book).
 */
export class MboBook {
  readonly bids = new MboSide(true);
  readonly asks = new MboSide(false);
  readonly #orders = new Map<SourceOrderId, MboOrder>();

  add(id: SourceOrderId, isBid: boolean, priceTicks: number, qty: number): MboResult {
    if (this.#orders.has(id)) return 'duplicate-order';
    const o: MboOrder = { id, isBid, priceTicks, qty };
    this.#orders.set(id, o);
    (isBid ? this.bids : this.asks).push(o);
    return 'ok';
  }

  cancel(id: SourceOrderId, qty: number): MboResult {
    const o = this.#orders.get(id);
    if (o === undefined) return 'unknown-order';
    const side = o.isBid ? this.bids : this.asks;
    o.qty -= Math.min(qty, o.qty);
    if (o.qty === 0) {
      this.#orders.delete(id);
      side.remove(o);
    } else side.changed(o.priceTicks);
    return 'ok';
  }

  /** A modify of an order we never saw added is an add (Databento sends them so). */
  modify(id: SourceOrderId, isBid: boolean, priceTicks: number, qty: number): MboResult {
    const o = this.#orders.get(id);
    if (o === undefined) return this.add(id, isBid, priceTicks, qty) === 'ok' ? 'unknown-order' : 'duplicate-order';
    if (qty === 0) return this.cancel(id, o.qty);
    const side = o.isBid ? this.bids : this.asks;
    if (o.priceTicks === priceTicks && qty <= o.qty) {
      o.qty = qty;
      side.changed(priceTicks);
      return 'ok';
    }
    side.remove(o);
    o.priceTicks = priceTicks;
    o.qty = qty;
    side.push(o);
    return 'ok';
  }

  /** The side and price of a resting order (for a change's depth rank), or undefined. */
  order(id: SourceOrderId): MboOrder | undefined {
    return this.#orders.get(id);
  }

  clear(): void {
    this.#orders.clear();
    this.bids.clear();
    this.asks.clear();
  }

  bestBid(): number | undefined {
    return this.bids.prices[0];
  }

  bestAsk(): number | undefined {
    return this.asks.prices[0];
  }
}
