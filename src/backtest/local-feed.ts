import type { Symbol } from '../core/ids.ts';
import type { BookLevel } from '../domain/book.ts';
import type { BookUpdated, MarketEvent } from '../domain/events.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import { TRADE_CODE } from '../record/format.ts';
import { ASK, BID, DenseBook } from './dense-book.ts';

/**
 * The bot's side of the replay: a local copy of each book, updated at receive time, and the
 * MarketEvents the engine gets. Books go out as top-`depth` snapshots (the engine replaces its book),
 * and only when those levels changed: deltas deeper in the book are applied here but not delivered,
 * as a depth-limited live subscription would behave. With conflation the runner applies rows with
 * `apply` and asks for one `snapshot` per window.
 *
 * Hot path: whether a row touched the delivered top is decided per level in O(1) (against the last
 * delivered side's worst price), only touched sides are rebuilt, and rebuilt sides reuse the
 * previous level objects that did not change (they are immutable), so a one-level delta allocates
 * one array and one level.
 */
export class LocalFeed {
  readonly books: DenseBook[];
  /** Last delivered top-`depth` levels per symbol: [bids, asks]. */
  readonly #last: BookLevel[][][];
  /** Per symbol, bit 0 = bids and bit 1 = asks may differ from the last delivered levels. */
  readonly #dirty: Uint8Array;
  /**
   * Per symbol and side (index 2s + side): the one price changed since the last delivery, or NaN
   * when several were (or the book was replaced): one change is patched into the last levels.
   */
  readonly #changed: Float64Array;
  readonly #symbols: Symbol[];

  constructor(
    private readonly col: ColumnarRecording,
    private readonly depth: number,
  ) {
    this.books = col.instruments.map((_, s) => new DenseBook(col.minTick[s]!, col.maxTick[s]!, 64));
    this.#last = col.instruments.map(() => [[], []]);
    this.#dirty = new Uint8Array(col.instruments.length).fill(3);
    this.#changed = new Float64Array(2 * col.instruments.length).fill(NaN);
    this.#symbols = col.instruments.map((i) => i.symbol);
  }

  /** Applies book row `i` locally; returns the event to deliver, or null when the top levels did not change. */
  book(i: number, tsRecv: number): BookUpdated | null {
    return this.snapshot(this.apply(i), this.col.tsEvent[i]!, tsRecv);
  }

  /** Applies book row `i` to the local book without delivering anything; returns its symbol index. */
  apply(i: number): number {
    const col = this.col;
    const s = col.sym[i]!;
    const book = this.books[s]!;
    const start = col.a[i]!;
    const nb = col.b[i]!;
    const na = col.c[i]!;
    const end = start + nb + na;
    const lv = col.levels;
    if (col.kind[i] === 1) {
      book.load(lv, start, nb, na);
      this.#dirty[s] = 3;
      this.#changed[2 * s] = NaN;
      this.#changed[2 * s + 1] = NaN;
      return s;
    }
    const last = this.#last[s]!;
    let dirty = this.#dirty[s]!;
    for (let j = start; j < end; j++) {
      const side = j - start < nb ? BID : ASK;
      const p = lv[2 * j]!;
      const q = lv[2 * j + 1]!;
      if (book.set(side, p, q) === q) continue;
      if (dirty & (side + 1)) {
        this.#changed[2 * s + side] = NaN; // a second change: rebuild
        continue;
      }
      // A change deeper than the last delivered top levels cannot change them.
      const top = last[side]!;
      if (top.length < this.depth || (side === BID ? p >= top[top.length - 1]!.priceTicks : p <= top[top.length - 1]!.priceTicks)) {
        dirty |= side + 1;
        this.#changed[2 * s + side] = p;
      }
    }
    this.#dirty[s] = dirty;
    return s;
  }

  /** The local book of symbol `s` as a top-`depth` snapshot event, or null when unchanged since the last one. */
  snapshot(s: number, tsEvent: number, tsRecv: number): BookUpdated | null {
    const dirty = this.#dirty[s]!;
    if (dirty === 0) return null;
    this.#dirty[s] = 0;
    const last = this.#last[s]!;
    const book = this.books[s]!;
    const bids = dirty & 1 ? this.#side(s, book, BID, last[BID]!) : last[BID]!;
    const asks = dirty & 2 ? this.#side(s, book, ASK, last[ASK]!) : last[ASK]!;
    if (bids === last[BID] && asks === last[ASK]) return null;
    last[BID] = bids;
    last[ASK] = asks;
    return { type: 'book', symbol: this.#symbols[s]!, level: 2, isSnapshot: true, bids, asks, tsEvent, tsRecv };
  }

  /** The new top levels of a dirty side: one changed price is patched in, several are rebuilt. */
  #side(s: number, book: DenseBook, side: number, last: readonly BookLevel[]): BookLevel[] {
    const p = this.#changed[2 * s + side]!;
    this.#changed[2 * s + side] = NaN;
    return Number.isNaN(p) ? topLevels(book, side, this.depth, last) : patchLevel(book, side, this.depth, last, p);
  }

  /** The trade at row `i` as a MarketEvent. */
  trade(i: number, tsRecv: number): MarketEvent {
    const col = this.col;
    const c = col.c[i]!;
    const ev = { type: 'trade', symbol: this.#symbols[col.sym[i]!]!, priceTicks: col.a[i]!, qty: col.b[i]!, aggressor: c > 0 ? 'buy' : 'sell', tsEvent: col.tsEvent[i]!, tsRecv } as const;
    // Hidden and cross prints say so: a strategy reading aggressor flow can leave them out.
    return c === 1 || c === -1 ? ev : { ...ev, condition: Math.abs(c) === TRADE_CODE.hidden ? 'hidden' : 'cross' };
  }

  /** Forgets what was delivered for a symbol (after a gap the next book goes out in full). */
  reset(s: number | null): void {
    for (let k = 0; k < this.#last.length; k++) {
      if (s !== null && k !== s) continue;
      this.#last[k] = [[], []];
      this.#dirty[k] = 3;
      this.#changed[2 * k] = NaN;
      this.#changed[2 * k + 1] = NaN;
    }
  }
}

/**
 * The best `depth` levels of a side, reusing `last`'s level objects where price and qty match (a
 * merge walk: both are best first). Returns `last` itself when nothing changed.
 */
function topLevels(book: DenseBook, side: number, depth: number, last: readonly BookLevel[]): BookLevel[] {
  const out: BookLevel[] = [];
  const arr = side === BID ? book.bids : book.asks;
  const step = side === BID ? -1 : 1;
  const sign = side === BID ? 1 : -1; // sign * (a - b) > 0 ⇔ a is better than b
  const lo = book.lo;
  let same = true;
  let j = 0;
  for (let i = side === BID ? book.bestBidIdx : book.bestAskIdx; i >= 0 && i < book.size && out.length < depth; i += step) {
    const q = arr[i]!;
    if (q === 0) continue;
    const p = lo + i;
    while (j < last.length && sign * (last[j]!.priceTicks - p) > 0) j++; // levels gone since
    const l = last[j];
    if (l !== undefined && l.priceTicks === p && l.qty === q) {
      out.push(l);
      j++;
    } else out.push({ priceTicks: p, qty: q });
    if (out[out.length - 1] !== last[out.length - 1]) same = false;
  }
  return same && out.length === last.length ? (last as BookLevel[]) : out;
}

/**
 * `last` with the level at price `p` updated from the book: replaced, inserted (the worst level
 * dropping out past `depth`) or removed (the next deeper level moving in). Returns `last` itself when
 * the level is as delivered.
 */
function patchLevel(book: DenseBook, side: number, depth: number, last: readonly BookLevel[], p: number): BookLevel[] {
  const q = book.qty(side, p);
  const n = last.length;
  let k = 0;
  if (side === BID) while (k < n && last[k]!.priceTicks > p) k++;
  else while (k < n && last[k]!.priceTicks < p) k++;
  const hit = k < n && last[k]!.priceTicks === p;
  if (hit ? last[k]!.qty === q : q === 0) return last as BookLevel[];
  if (hit && q > 0) {
    const out = last.slice();
    out[k] = { priceTicks: p, qty: q };
    return out;
  }
  if (q > 0) {
    if (k >= depth) return last as BookLevel[]; // below the delivered levels (the caller only sends changes inside them)
    // Insert at k; the worst level falls out when the side was full.
    const out: BookLevel[] = new Array<BookLevel>(n < depth ? n + 1 : depth);
    for (let j = 0; j < k; j++) out[j] = last[j]!;
    out[k] = { priceTicks: p, qty: q };
    for (let j = k + 1; j < out.length; j++) out[j] = last[j - 1]!;
    return out;
  }
  // Removed at k: shift up, and when the side was full bring in the next level below the last one.
  // (One copy of the exact size: the pop keeps its storage, so the push below does not grow it.)
  const out = last.slice();
  out.copyWithin(k, k + 1);
  out.pop();
  if (n === depth) {
    const arr = side === BID ? book.bids : book.asks;
    const step = side === BID ? -1 : 1;
    for (let i = last[n - 1]!.priceTicks - book.lo + step; i >= 0 && i < book.size; i += step) {
      if (arr[i]! > 0) {
        out.push({ priceTicks: book.lo + i, qty: arr[i]! });
        break;
      }
    }
  }
  return out;
}
