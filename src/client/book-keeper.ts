import type { Symbol } from '../core/ids.ts';
import { applySideDelta, type Book } from '../domain/book.ts';
import type { BookUpdated } from '../domain/events.ts';

/** What applying a book frame did. */
export type BookApplyResult =
  | { readonly kind: 'applied'; readonly book: Book }
  /** A delta arrived before any snapshot: it cannot be applied; the book needs recovery. */
  | { readonly kind: 'needs-snapshot' };

/**
 * The maintained books, one per symbol. Snapshots (`st` true or absent) replace the book; deltas
 * (`st` false) are applied level by level, q = 0 removing a level. Pure apart from its own map.
 */
export class BookKeeper {
  readonly #books = new Map<string, Book>();

  /** Applies one frame and returns the resulting book (the snapshot's own arrays, not a copy). */
  apply(ev: BookUpdated): BookApplyResult {
    if (ev.isSnapshot) {
      const book: Book = { symbol: ev.symbol, bids: ev.bids, asks: ev.asks, tsEvent: ev.tsEvent, tsRecv: ev.tsRecv };
      this.#books.set(ev.symbol, book);
      return { kind: 'applied', book };
    }
    const prev = this.#books.get(ev.symbol);
    if (!prev) return { kind: 'needs-snapshot' };
    const book: Book = {
      symbol: ev.symbol,
      bids: ev.bids.length === 0 ? prev.bids : applySideDelta(prev.bids, ev.bids, true),
      asks: ev.asks.length === 0 ? prev.asks : applySideDelta(prev.asks, ev.asks, false),
      tsEvent: ev.tsEvent,
      tsRecv: ev.tsRecv,
    };
    this.#books.set(ev.symbol, book);
    return { kind: 'applied', book };
  }

  /** The current book of `symbol`, if a snapshot has been seen since the last reset. */
  get(symbol: Symbol | string): Book | undefined {
    return this.#books.get(symbol);
  }

  /** Forgets `symbol` (unsubscribed, or a recovery is pending and the old book must not be used). */
  reset(symbol: Symbol | string): void {
    this.#books.delete(symbol);
  }

  /** Forgets every book (the connection dropped). */
  clear(): void {
    this.#books.clear();
  }

  /** Symbols with a book. */
  symbols(): string[] {
    return [...this.#books.keys()];
  }
}
