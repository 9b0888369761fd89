import type { BookLevel, BookSide } from '../domain/book.ts';

/** One side of a tracked book: price ticks → level (qty and, L3, the order sizes). */
type SideMap = Map<number, BookLevel>;

/**
 * The last book seen for one symbol, so the writer can store compact deltas: the venue sends full
 * snapshots on every change (docs/venue-protocol.md §4.3), but consecutive snapshots differ in a level or two.
 */
export class TrackedBook {
  readonly #bids: SideMap = new Map();
  readonly #asks: SideMap = new Map();
  #valid = false;

  /** False until a snapshot arrived (and again after `invalidate`). */
  get valid(): boolean {
    return this.#valid;
  }

  /** Forgets the book (after a gap): the next write must be a snapshot. */
  invalidate(): void {
    this.#valid = false;
    this.#bids.clear();
    this.#asks.clear();
  }

  /** Replaces the book with a snapshot and returns the delta from the previous one (best first). */
  replace(bids: BookSide, asks: BookSide): { bids: BookLevel[]; asks: BookLevel[] } {
    const out = { bids: diffSide(this.#bids, bids, true), asks: diffSide(this.#asks, asks, false) };
    load(this.#bids, bids);
    load(this.#asks, asks);
    this.#valid = true;
    return out;
  }

  /** Applies a delta (q 0 removes). */
  apply(bids: BookSide, asks: BookSide): void {
    for (const l of bids) l.qty === 0 ? this.#bids.delete(l.priceTicks) : this.#bids.set(l.priceTicks, l);
    for (const l of asks) l.qty === 0 ? this.#asks.delete(l.priceTicks) : this.#asks.set(l.priceTicks, l);
  }

  /** The current book, best first. */
  snapshot(): { bids: BookLevel[]; asks: BookLevel[] } {
    return { bids: sorted(this.#bids, true), asks: sorted(this.#asks, false) };
  }
}

function load(map: SideMap, side: BookSide): void {
  map.clear();
  for (const l of side) if (l.qty > 0) map.set(l.priceTicks, l);
}

/** Same level: same total and (L3) the same orders in the same order. */
function sameLevel(a: BookLevel, b: BookLevel): boolean {
  if (a.qty !== b.qty) return false;
  const x = a.orders;
  const y = b.orders;
  if (x === y) return true;
  if (x === undefined || y === undefined || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  const u = a.orderIds;
  const v = b.orderIds;
  if (u === v) return true;
  if (u === undefined || v === undefined) return false;
  for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
  return true;
}

/** A level as stored in a delta: price, qty and (L3) its orders and ids, nothing else. */
function levelOf(l: BookLevel): BookLevel {
  if (l.orders === undefined) return { priceTicks: l.priceTicks, qty: l.qty };
  return l.orderIds === undefined ? { priceTicks: l.priceTicks, qty: l.qty, orders: l.orders } : { priceTicks: l.priceTicks, qty: l.qty, orders: l.orders, orderIds: l.orderIds };
}

function sorted(map: SideMap, descending: boolean): BookLevel[] {
  const out: BookLevel[] = [];
  for (const l of map.values()) out.push(l);
  out.sort(descending ? (a, b) => b.priceTicks - a.priceTicks : (a, b) => a.priceTicks - b.priceTicks);
  return out;
}

function diffSide(prev: SideMap, next: BookSide, descending: boolean): BookLevel[] {
  const out: BookLevel[] = [];
  const seen = new Set<number>();
  for (const l of next) {
    if (l.qty <= 0) continue;
    seen.add(l.priceTicks);
    const was = prev.get(l.priceTicks);
    if (was === undefined || !sameLevel(was, l)) out.push(levelOf(l));
  }
  // A removed level: q 0 (and an empty order list, and id list, in an order-level book).
  for (const [p, l] of prev) if (!seen.has(p)) out.push(l.orders === undefined ? { priceTicks: p, qty: 0 } : l.orderIds === undefined ? { priceTicks: p, qty: 0, orders: [] } : { priceTicks: p, qty: 0, orders: [], orderIds: [] });
  out.sort(descending ? (a, b) => b.priceTicks - a.priceTicks : (a, b) => a.priceTicks - b.priceTicks);
  return out;
}
