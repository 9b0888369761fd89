import type { BookLevel, BookSide } from '../domain/book.ts';

/** One side of a tracked book: price ticks → qty. */
type SideMap = Map<number, number>;

/**
 * The last book seen for one symbol, so the writer can store compact deltas: the venue sends full
 * snapshots on every change (protocol.md §4.3), but consecutive snapshots differ in a level or two.
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
    for (const l of bids) l.qty === 0 ? this.#bids.delete(l.priceTicks) : this.#bids.set(l.priceTicks, l.qty);
    for (const l of asks) l.qty === 0 ? this.#asks.delete(l.priceTicks) : this.#asks.set(l.priceTicks, l.qty);
  }

  /** The current book, best first. */
  snapshot(): { bids: BookLevel[]; asks: BookLevel[] } {
    return { bids: sorted(this.#bids, true), asks: sorted(this.#asks, false) };
  }
}

function load(map: SideMap, side: BookSide): void {
  map.clear();
  for (const l of side) if (l.qty > 0) map.set(l.priceTicks, l.qty);
}

function sorted(map: SideMap, descending: boolean): BookLevel[] {
  const out: BookLevel[] = [];
  for (const [p, q] of map) out.push({ priceTicks: p, qty: q });
  out.sort(descending ? (a, b) => b.priceTicks - a.priceTicks : (a, b) => a.priceTicks - b.priceTicks);
  return out;
}

function diffSide(prev: SideMap, next: BookSide, descending: boolean): BookLevel[] {
  const out: BookLevel[] = [];
  const seen = new Set<number>();
  for (const l of next) {
    if (l.qty <= 0) continue;
    seen.add(l.priceTicks);
    if (prev.get(l.priceTicks) !== l.qty) out.push({ priceTicks: l.priceTicks, qty: l.qty });
  }
  for (const p of prev.keys()) if (!seen.has(p)) out.push({ priceTicks: p, qty: 0 });
  out.sort(descending ? (a, b) => b.priceTicks - a.priceTicks : (a, b) => a.priceTicks - b.priceTicks);
  return out;
}
