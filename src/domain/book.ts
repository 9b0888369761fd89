import type { Symbol } from '../core/ids.ts';

/** One price level: price in ticks, total quantity, and (L3 only) the resting order sizes in queue order. */
export interface BookLevel {
  readonly priceTicks: number;
  readonly qty: number;
  readonly orders?: readonly number[];
  /** L3 from a source with order ids (market-by-order feeds, LOBSTER): the id of each order in `orders`. */
  readonly orderIds?: readonly number[];
}

/** An order book side, best first (bids descending, asks ascending). */
export type BookSide = readonly BookLevel[];

/** A book as of one venue frame. */
export interface Book {
  readonly symbol: Symbol;
  readonly bids: BookSide;
  readonly asks: BookSide;
  /** Venue time, epoch ms. */
  readonly tsEvent: number;
  /** Our receive time, epoch ms. */
  readonly tsRecv: number;
}

/** Best bid in ticks, or undefined on an empty side. */
export const bestBid = (book: Pick<Book, 'bids'>): number | undefined => book.bids[0]?.priceTicks;
/** Best ask in ticks, or undefined on an empty side. */
export const bestAsk = (book: Pick<Book, 'asks'>): number | undefined => book.asks[0]?.priceTicks;

/** Mid price in (possibly half) ticks, or undefined when a side is empty. */
export function midTicks(book: Pick<Book, 'bids' | 'asks'>): number | undefined {
  const b = bestBid(book);
  const a = bestAsk(book);
  return b === undefined || a === undefined ? undefined : (a + b) / 2;
}

/** Spread in ticks, or undefined when a side is empty. */
export function spreadTicks(book: Pick<Book, 'bids' | 'asks'>): number | undefined {
  const b = bestBid(book);
  const a = bestAsk(book);
  return b === undefined || a === undefined ? undefined : a - b;
}

/** True when the best `depth` levels of both sides are the same prices and sizes in `a` and `b`. */
export function sameTopLevels(a: Pick<Book, 'bids' | 'asks'>, b: Pick<Book, 'bids' | 'asks'>, depth: number): boolean {
  return sameTop(a.bids, b.bids, depth) && sameTop(a.asks, b.asks, depth);
}

function sameTop(x: BookSide, y: BookSide, depth: number): boolean {
  if (x === y) return true;
  const n = Math.min(depth, x.length);
  if (n !== Math.min(depth, y.length)) return false;
  for (let i = 0; i < n; i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p !== q && (p.priceTicks !== q.priceTicks || p.qty !== q.qty)) return false;
  }
  return true;
}

/** Applies a delta side (q = 0 removes a level) to a full side, keeping best-first order. */
export function applySideDelta(side: BookSide, delta: BookSide, descending: boolean): BookLevel[] {
  const byPrice = new Map<number, BookLevel>(side.map((l) => [l.priceTicks, l]));
  for (const l of delta) {
    if (l.qty === 0) byPrice.delete(l.priceTicks);
    else byPrice.set(l.priceTicks, l);
  }
  const out = [...byPrice.values()];
  out.sort(descending ? (x, y) => y.priceTicks - x.priceTicks : (x, y) => x.priceTicks - y.priceTicks);
  return out;
}
