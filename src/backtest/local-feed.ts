import type { Symbol } from '../core/ids.ts';
import type { BookLevel } from '../domain/book.ts';
import type { BookUpdated, MarketEvent } from '../domain/events.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import { ASK, BID, DenseBook } from './dense-book.ts';

/**
 * The bot's side of the replay: a local copy of each book, updated at receive time, and the
 * MarketEvents the engine gets. Books go out as top-`depth` snapshots (the engine replaces its book),
 * and only when those levels changed: deltas deeper in the book are applied here but not delivered,
 * as a depth-limited live subscription would behave. With conflation the runner applies rows with
 * `apply` and asks for one `snapshot` per window.
 */
export class LocalFeed {
  readonly books: DenseBook[];
  readonly #lastBids: BookLevel[][];
  readonly #lastAsks: BookLevel[][];
  readonly #symbols: Symbol[];

  constructor(
    private readonly col: ColumnarRecording,
    private readonly depth: number,
  ) {
    this.books = col.instruments.map((_, s) => new DenseBook(col.minTick[s]!, col.maxTick[s]!, 64));
    this.#lastBids = col.instruments.map(() => []);
    this.#lastAsks = col.instruments.map(() => []);
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
    if (col.kind[i] === 1) book.clear();
    const start = col.a[i]!;
    const nb = col.b[i]!;
    const end = start + nb + col.c[i]!;
    const lv = col.levels;
    for (let j = start; j < end; j++) book.set(j - start < nb ? BID : ASK, lv[2 * j]!, lv[2 * j + 1]!);
    return s;
  }

  /** The local book of symbol `s` as a top-`depth` snapshot event, or null when unchanged since the last one. */
  snapshot(s: number, tsEvent: number, tsRecv: number): BookUpdated | null {
    const book = this.books[s]!;
    const bidsSame = sameTop(book, BID, this.#lastBids[s]!, this.depth);
    const asksSame = sameTop(book, ASK, this.#lastAsks[s]!, this.depth);
    if (bidsSame && asksSame) return null;
    const bids = bidsSame ? this.#lastBids[s]! : book.levels(BID, this.depth);
    const asks = asksSame ? this.#lastAsks[s]! : book.levels(ASK, this.depth);
    this.#lastBids[s] = bids;
    this.#lastAsks[s] = asks;
    return { type: 'book', symbol: this.#symbols[s]!, level: 2, isSnapshot: true, bids, asks, tsEvent, tsRecv };
  }

  /** The trade at row `i` as a MarketEvent. */
  trade(i: number, tsRecv: number): MarketEvent {
    const col = this.col;
    return { type: 'trade', symbol: this.#symbols[col.sym[i]!]!, priceTicks: col.a[i]!, qty: col.b[i]!, aggressor: col.c[i]! > 0 ? 'buy' : 'sell', tsEvent: col.tsEvent[i]!, tsRecv };
  }

  /** Forgets what was delivered for a symbol (after a gap the next book goes out in full). */
  reset(s: number | null): void {
    for (let k = 0; k < this.#lastBids.length; k++) {
      if (s !== null && k !== s) continue;
      this.#lastBids[k] = [];
      this.#lastAsks[k] = [];
    }
  }
}

/** True when the dense book's best `depth` levels equal `last` (no allocation). */
function sameTop(book: DenseBook, side: number, last: readonly BookLevel[], depth: number): boolean {
  let n = 0;
  if (side === BID) {
    const arr = book.bids;
    for (let i = book.bestBidIdx; i >= 0 && n < depth; i--) {
      const q = arr[i]!;
      if (q === 0) continue;
      const l = last[n++];
      if (!l || l.qty !== q || l.priceTicks !== book.lo + i) return false;
    }
  } else {
    const arr = book.asks;
    for (let i = book.bestAskIdx; i < book.size && n < depth; i++) {
      const q = arr[i]!;
      if (q === 0) continue;
      const l = last[n++];
      if (!l || l.qty !== q || l.priceTicks !== book.lo + i) return false;
    }
  }
  return n === last.length;
}
