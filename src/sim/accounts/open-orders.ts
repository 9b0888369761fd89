import type { SimOrder } from '../types.ts';

/**
 * An account's open orders as an intrusive doubly linked list through `SimOrder.acctPrev/acctNext`:
 * add and delete are O(1) with no hashing and no allocation (the matching hot path does both for
 * every resting order). Iteration is in insertion order and tolerates deleting the current order,
 * like a Set's.
 */
export class OpenOrders implements Iterable<SimOrder> {
  #head: SimOrder | null = null;
  #tail: SimOrder | null = null;
  #size = 0;

  /** Number of open orders. */
  get size(): number {
    return this.#size;
  }

  /** True when `o` is in this list. */
  has(o: SimOrder): boolean {
    return o.acctPrev !== null || this.#head === o;
  }

  /** Appends `o` (no-op when already present). */
  add(o: SimOrder): this {
    if (this.has(o)) return this;
    o.acctPrev = this.#tail;
    o.acctNext = null;
    if (this.#tail) this.#tail.acctNext = o;
    else this.#head = o;
    this.#tail = o;
    this.#size++;
    return this;
  }

  /** Removes `o`; returns whether it was present. */
  delete(o: SimOrder): boolean {
    if (!this.has(o)) return false;
    if (o.acctPrev) o.acctPrev.acctNext = o.acctNext;
    else this.#head = o.acctNext;
    if (o.acctNext) o.acctNext.acctPrev = o.acctPrev;
    else this.#tail = o.acctPrev;
    o.acctPrev = null;
    o.acctNext = null;
    this.#size--;
    return true;
  }

  /** The open orders in insertion order. */
  *values(): IterableIterator<SimOrder> {
    for (let o = this.#head; o; ) {
      const next = o.acctNext;
      yield o;
      o = next;
    }
  }

  /** Same as `values()`. */
  [Symbol.iterator](): IterableIterator<SimOrder> {
    return this.values();
  }
}
