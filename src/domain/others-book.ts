import type { Book, BookLevel, BookSide } from './book.ts';
import type { Side } from './enums.ts';

/** One of our own resting orders as it shows in a venue's book: side, price in ticks, remaining contracts. */
export interface OwnRestingOrder {
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
}

/**
 * The market without our own orders: `book` less the remaining quantity of each of `own` at its
 * price (a level left with nothing disappears; a level never goes negative, since the order and
 * book streams are not perfectly aligned). This is the market a strategy should see, live and in a
 * replay alike: a venue's book shows our resting orders, a replayed recording never shows the
 * replayed bot's (and the replay subtracts the recording bot's own orders with this same function).
 * Returns `book` itself when no own order sits on one of its levels (no allocation). Pure.
 */
export function othersBook<B extends Book>(book: B, own: readonly OwnRestingOrder[]): B {
  if (own.length === 0) return book;
  const bids = othersSide(book.bids, own, 'buy');
  const asks = othersSide(book.asks, own, 'sell');
  return bids === book.bids && asks === book.asks ? book : { ...book, bids, asks };
}

/** One side less our orders on it; the input array when none of them touches a level. */
function othersSide(levels: BookSide, own: readonly OwnRestingOrder[], side: Side): BookSide {
  let out: BookLevel[] | null = null;
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    let mine = 0;
    for (let j = 0; j < own.length; j++) {
      const o = own[j]!;
      if (o.side === side && o.priceTicks === l.priceTicks) mine += o.qty;
    }
    if (mine > 0 && out === null) out = levels.slice(0, i) as BookLevel[];
    if (out === null) continue;
    const left = l.qty - mine;
    // L3 order lists cannot tell which orders are ours: the level keeps its total only.
    if (left > 0) out.push(mine > 0 ? { priceTicks: l.priceTicks, qty: left } : l);
  }
  return out ?? levels;
}
