import { BID, type DenseBook } from './dense-book.ts';

/**
 * The recording bot's own working orders on one symbol (the recording's `o` lines), per price, on
 * the same tick range as the exchange's dense book. A recording made while a bot traded contains
 * that bot's orders in every level; the replay exchange subtracts them ("others" = displayed − own)
 * so the replayed bot does not queue behind, fill against or compete with its own live orders.
 */
export class OwnLevels {
  readonly #lo: number;
  readonly #bids: Float64Array;
  readonly #asks: Float64Array;
  /** Indices set by the last update, per side (to clear them without scanning the range). */
  #setBids: number[] = [];
  #setAsks: number[] = [];

  constructor(book: DenseBook) {
    this.#lo = book.lo;
    this.#bids = new Float64Array(book.size);
    this.#asks = new Float64Array(book.size);
  }

  /** Replaces the own levels with `levels[2j], levels[2j+1]` for j in [start, start + nb + na), bids first. */
  replace(levels: Float64Array, start: number, nb: number, na: number): void {
    for (const i of this.#setBids) this.#bids[i] = 0;
    for (const i of this.#setAsks) this.#asks[i] = 0;
    this.#setBids = [];
    this.#setAsks = [];
    const size = this.#bids.length;
    for (let j = start, end = start + nb + na; j < end; j++) {
      const i = levels[2 * j]! - this.#lo;
      if (i < 0 || i >= size) continue;
      if (j - start < nb) {
        this.#bids[i] = levels[2 * j + 1]!;
        this.#setBids.push(i);
      } else {
        this.#asks[i] = levels[2 * j + 1]!;
        this.#setAsks.push(i);
      }
    }
  }

  /** Own quantity at a price. */
  qty(side: number, priceTicks: number): number {
    const i = priceTicks - this.#lo;
    if (i < 0 || i >= this.#bids.length) return 0;
    return side === BID ? this.#bids[i]! : this.#asks[i]!;
  }

  /** Displayed quantity minus our own (never negative: the two streams are not perfectly aligned). */
  others(book: DenseBook, side: number, priceTicks: number): number {
    const q = book.qty(side, priceTicks) - this.qty(side, priceTicks);
    return q > 0 ? q : 0;
  }

  /** Best price of a side with volume other than ours, NaN when none. */
  bestOther(book: DenseBook, side: number): number {
    if (side === BID) {
      for (let i = book.bestBidIdx; i >= 0; i--) if (book.bids[i]! - this.#bids[i]! > 0) return book.lo + i;
      return NaN;
    }
    for (let i = book.bestAskIdx; i < book.size; i++) if (book.asks[i]! - this.#asks[i]! > 0) return book.lo + i;
    return NaN;
  }
}
