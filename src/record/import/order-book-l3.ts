import type { BookLevel } from '../../domain/book.ts';
import { priceIndex } from './sorted-prices.ts';

/** One resting order the importer tracks (ids are the source's). */
interface RestingOrder {
  readonly id: string;
  /** The id written to the recording: the source's when it is a non-negative integer, else a negative number of ours. */
  readonly ref: number;
  readonly isBid: boolean;
  readonly priceTicks: number;
  qty: number;
}

/** One side: price → FIFO of order ids, plus prices sorted best first. */
class L3Side {
  readonly levels = new Map<number, RestingOrder[]>();
  readonly prices: number[] = [];

  constructor(readonly isBid: boolean) {}

  queue(priceTicks: number): RestingOrder[] {
    let q = this.levels.get(priceTicks);
    if (!q) {
      q = [];
      this.levels.set(priceTicks, q);
      this.prices.splice(this.#indexOf(priceTicks), 0, priceTicks);
    }
    return q;
  }

  drop(priceTicks: number): void {
    this.levels.delete(priceTicks);
    const i = this.#indexOf(priceTicks);
    if (this.prices[i] === priceTicks) this.prices.splice(i, 1);
  }

  top(n: number): BookLevel[] {
    const out: BookLevel[] = [];
    for (let i = 0; i < n && i < this.prices.length; i++) {
      const p = this.prices[i]!;
      const level = this.levels.get(p)!;
      const orders = level.map((o) => o.qty);
      let qty = 0;
      for (const q of orders) qty += q;
      out.push({ priceTicks: p, qty, orders, orderIds: level.map((o) => o.ref) });
    }
    return out;
  }

  #indexOf(p: number): number {
    return priceIndex(this.prices, p, this.isBid);
  }
}

/** What settling levels to the source's book file changed over an import. */
export interface SettleCounts {
  /** Levels whose total `settleLevel` changed (the messages did not explain it). */
  settlements: number;
  /** Of those, drops that took contracts off orders known by id (not placeholders). */
  knownDrops: number;
  /** The contracts those drops took off known orders. */
  knownContracts: number;
  /** Of those, drops that left an untouched order behind one they reduced (it moved up the queue). */
  reordered: number;
  /**
   * Messages of orders a drop had taken volume off (so they were still resting: the drop was another
   * order's), whose volume was then taken from the level's back; the drops above count these too.
   */
  corrections: number;
}

/** What `reduce` found. */
export type ReduceResult = 'ok' | 'unknown-order' | 'too-large' | 'corrected';

/**
 * An order-level (market-by-order) book rebuilt from add / reduce messages with the source's order
 * ids, keeping each price level's exact FIFO. Orders resting before the data starts are unknown by
 * id: `seedLevel` puts a placeholder order of the level's size at the front, and reductions of
 * unknown ids at that price draw it down (they must be older than any order we saw arrive).
 */
export class OrderBookL3 {
  readonly bids = new L3Side(true);
  readonly asks = new L3Side(false);
  readonly #orders = new Map<string, RestingOrder>();
  #placeholders = 0;
  /** Negative ids for orders the source did not name (placeholders, ids that are not integers). */
  #ownRefs = 0;
  /** Contracts settlements took off each known order, by id, until its own messages account for them. */
  readonly #settledTaken = new Map<string, number>();
  /** What `settleLevel` changed so far. */
  readonly settled: SettleCounts = { settlements: 0, knownDrops: 0, knownContracts: 0, reordered: 0, corrections: 0 };

  /** Adds a new order at the back of its level. Returns false when the id is already resting. */
  add(id: string, isBid: boolean, priceTicks: number, qty: number): boolean {
    if (this.#orders.has(id)) return false;
    const n = Number(id);
    const ref = /^[0-9]+$/.test(id) && Number.isSafeInteger(n) ? n : --this.#ownRefs;
    const o: RestingOrder = { id, ref, isBid, priceTicks, qty };
    this.#orders.set(id, o);
    (isBid ? this.bids : this.asks).queue(priceTicks).push(o);
    return true;
  }

  /** A resting level present before the data starts: one placeholder order of `qty` at the front. */
  seedLevel(isBid: boolean, priceTicks: number, qty: number): void {
    const o: RestingOrder = { id: `~seed${this.#placeholders++}`, ref: --this.#ownRefs, isBid, priceTicks, qty };
    (isBid ? this.bids : this.asks).queue(priceTicks).unshift(o);
  }

  /**
   * Takes `qty` off order `id` (a partial cancel or an execution); a reduction to 0 removes it. An
   * unknown id at a price with a placeholder draws the placeholder down instead. An order a
   * settlement took volume off (`settleLevel`) was in fact still resting: the volume its own message
   * takes beyond what we kept of it belonged to another order, taken from the back of the level now
   * (`corrected`).
   */
  reduce(id: string, isBid: boolean, priceTicks: number, qty: number): ReduceResult {
    let o = this.#orders.get(id);
    const taken = this.#settledTaken.get(id) ?? 0;
    if (o === undefined && taken > 0) return this.#correct(id, isBid, priceTicks, qty, taken);
    if (o === undefined) {
      const q = (isBid ? this.bids : this.asks).levels.get(priceTicks);
      o = q?.find((x) => x.id.startsWith('~seed'));
      if (o === undefined) return 'unknown-order';
    }
    const side = o.isBid ? this.bids : this.asks;
    const excess = qty - o.qty;
    o.qty -= Math.min(qty, o.qty);
    if (o.qty === 0) {
      this.#orders.delete(o.id);
      const q = side.levels.get(o.priceTicks)!;
      q.splice(q.indexOf(o), 1);
      if (q.length === 0) side.drop(o.priceTicks);
    }
    if (excess > 0 && taken > 0) return this.#correct(id, isBid, priceTicks, excess, taken);
    return excess > 0 ? 'too-large' : 'ok';
  }

  /** The part of a message a settlement had already taken off its order: taken from the level's back instead. */
  #correct(id: string, isBid: boolean, priceTicks: number, qty: number, taken: number): ReduceResult {
    const n = Math.min(qty, taken);
    if (taken > n) this.#settledTaken.set(id, taken - n);
    else this.#settledTaken.delete(id);
    this.settled.corrections++;
    this.#takeFromBack(isBid, priceTicks, n);
    return qty > n ? 'too-large' : 'corrected';
  }

  /**
   * An unknown id reduced at a price that shows: taken to be a replacement of one of the level's
   * known orders (LOBSTER samples carry ids that were never added, each of a size and price an
   * order seen before had, whose own delete never comes: an order replace whose messages are
   * missing). Reduces the latest non-placeholder order there of exactly `qty`, else the latest of
   * more (of two candidates, the later one: an order of ours between them keeps the earlier ahead,
   * the conservative reading). Returns false when the level has none.
   */
  reduceLatest(isBid: boolean, priceTicks: number, qty: number): boolean {
    const q = (isBid ? this.bids : this.asks).levels.get(priceTicks);
    if (!q) return false;
    const pick = (ok: (size: number) => boolean): RestingOrder | undefined => q.findLast((o) => !o.id.startsWith('~seed') && ok(o.qty));
    const o = pick((size) => size === qty) ?? pick((size) => size > qty);
    return o !== undefined && this.reduce(o.id, isBid, priceTicks, qty) === 'ok';
  }

  /** Total size at a price. */
  levelQty(isBid: boolean, priceTicks: number): number {
    let n = 0;
    for (const o of (isBid ? this.bids : this.asks).levels.get(priceTicks) ?? []) n += o.qty;
    return n;
  }

  /**
   * Makes the level's total `qty` (what the source's own book file says). A rise is an order that
   * predates the data: the front placeholder grows (or one is added). A drop the messages did not
   * explain is taken from the back of the queue (the newest orders first, the placeholder last):
   * which order left is unknown, and taking it from behind an order of ours keeps the volume ahead
   * of it, the conservative reading (taking it from the front moved ours up the queue). What it
   * takes off each order is remembered for that order's own later messages (`reduce`).
   */
  settleLevel(isBid: boolean, priceTicks: number, qty: number): void {
    const diff = qty - this.levelQty(isBid, priceTicks);
    if (diff === 0) return;
    this.settled.settlements++;
    if (diff < 0) return this.#takeFromBack(isBid, priceTicks, -diff);
    const seed = (isBid ? this.bids : this.asks).levels.get(priceTicks)?.find((x) => x.id.startsWith('~seed'));
    if (seed) seed.qty += diff;
    else this.seedLevel(isBid, priceTicks, diff);
  }

  /** Takes `n` contracts off a level, newest order first, remembering what came off each known order. */
  #takeFromBack(isBid: boolean, priceTicks: number, n: number): void {
    const side = isBid ? this.bids : this.asks;
    const q = side.levels.get(priceTicks);
    if (q === undefined) return;
    const before = [...q];
    const reduced = new Set<RestingOrder>();
    let known = 0;
    for (let i = q.length - 1; i >= 0 && n > 0; i--) {
      const o = q[i]!;
      const take = Math.min(o.qty, n);
      o.qty -= take;
      n -= take;
      reduced.add(o);
      if (!o.id.startsWith('~seed')) {
        known += take;
        this.#settledTaken.set(o.id, (this.#settledTaken.get(o.id) ?? 0) + take);
      }
      if (o.qty === 0) {
        this.#orders.delete(o.id);
        q.splice(i, 1);
      }
    }
    if (known > 0) {
      this.settled.knownDrops++;
      this.settled.knownContracts += known;
      // An order left untouched behind one the drop reduced has moved up the queue.
      if (before.findLastIndex((o) => !reduced.has(o)) > before.findIndex((o) => reduced.has(o))) this.settled.reordered++;
    }
    if (q.length === 0) side.drop(priceTicks);
  }

  bestBid(): number | undefined {
    return this.bids.prices[0];
  }

  bestAsk(): number | undefined {
    return this.asks.prices[0];
  }
}
