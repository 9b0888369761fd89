import type { BookSide } from '../domain/book.ts';
import type { Side } from '../domain/enums.ts';

/** One resting order seen in the public book, with the time we first saw it at its price. */
export interface AgedOrder {
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  readonly firstSeenMs: number;
}

/**
 * Estimates how long each order in the public book has rested, which the reward model needs
 * (orders younger than `minRestMs` do not score) and the book does not say. L3 levels carry each
 * order's size in queue order: a queue keeps its old orders in front, new ones join at the back,
 * fills eat the front, cancels remove any; so new sizes are matched greedily, in order, against
 * the previous queue. L2 levels are one pseudo-order aged from when the level appeared.
 */
export class QueueAgeTracker {
  readonly #levels = new Map<string, { qty: number; firstSeenMs: number }[]>();
  #observed = false;

  /** Forgets every order (after a market-data reconnect): the next view is a first view again. */
  reset(): void {
    this.#levels.clear();
    this.#observed = false;
  }

  /**
   * Updates from a full book view at `nowMs`. Orders in the first view (after construction or
   * `reset`) were there before we looked: their age is unknown and taken as old enough
   * (first seen at −∞), since resting makers are the common case.
   */
  observe(book: { readonly bids: BookSide; readonly asks: BookSide }, nowMs: number): void {
    const seen = new Set<string>();
    const at = this.#levels.size === 0 && !this.#observed ? Number.NEGATIVE_INFINITY : nowMs;
    this.#observed = true;
    this.#side('buy', book.bids, at, seen);
    this.#side('sell', book.asks, at, seen);
    for (const key of this.#levels.keys()) if (!seen.has(key)) this.#levels.delete(key);
  }

  /** Every tracked order, best levels first per side. */
  orders(): AgedOrder[] {
    const out: AgedOrder[] = [];
    for (const [key, queue] of this.#levels) {
      const [side, price] = key.split(':') as [Side, string];
      for (const q of queue) out.push({ side, priceTicks: Number(price), qty: q.qty, firstSeenMs: q.firstSeenMs });
    }
    return out;
  }

  #side(side: Side, levels: BookSide, nowMs: number, seen: Set<string>): void {
    for (const level of levels) {
      const key = `${side}:${level.priceTicks}`;
      seen.add(key);
      const prev = this.#levels.get(key) ?? [];
      if (level.orders && level.orders.length > 0) this.#levels.set(key, matchQueue(prev, level.orders, nowMs));
      else this.#levels.set(key, [{ qty: level.qty, firstSeenMs: prev[0]?.firstSeenMs ?? nowMs }]);
    }
  }
}

/** Carries first-seen times from an L3 queue `prev` to the matching entries of `sizes` (see the class doc). */
export function matchQueue(
  prev: readonly { readonly qty: number; readonly firstSeenMs: number }[],
  sizes: readonly number[],
  nowMs: number,
): { qty: number; firstSeenMs: number }[] {
  const out: { qty: number; firstSeenMs: number }[] = [];
  let j = 0;
  for (let i = 0; i < sizes.length; i++) {
    const s = sizes[i]!;
    let k = j;
    // Skip cancelled orders; the head may also have been partly filled (smaller than before).
    while (k < prev.length && !(prev[k]!.qty === s || (i === 0 && s < prev[k]!.qty))) k++;
    if (k < prev.length) {
      out.push({ qty: s, firstSeenMs: prev[k]!.firstSeenMs });
      j = k + 1;
    } else {
      out.push({ qty: s, firstSeenMs: nowMs });
      j = prev.length;
    }
  }
  return out;
}
