import { ALPHABET } from '../ids.ts';
import type { SimOrder } from '../types.ts';

/** Up to 32 orders whose ids share everything but the last character. */
interface Block {
  readonly slots: (SimOrder | undefined)[];
  live: number;
}

/** Last id character → slot (Crockford base32 digit value), −1 for anything else. */
const SLOT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) SLOT_OF[ALPHABET.charCodeAt(i)] = i;

/**
 * Orders by venue id. Ids minted by `VenueIds` share their first 27 characters in blocks of up to
 * 32, and the block's head is one shared string: keying a Map by that head hashes it once per
 * block, where a Map keyed by fresh id strings would flatten and hash every new id and churn a
 * table entry per order (the biggest single cost of the matching hot path). Lookups by an id
 * string from a request slice off the last character.
 */
export class OrderIndex {
  readonly #blocks = new Map<string, Block>();
  #size = 0;
  // One-entry lookup cache: a request usually finds the same id twice (owner check, then the
  // operation) with the same string object, which then costs one pointer compare.
  #lastOid = '';
  #lastOrder: SimOrder | undefined = undefined;

  /** Number of orders indexed. */
  get size(): number {
    return this.#size;
  }

  /** Indexes an order whose id is `order.idHead` + the character of `order.idSlot`. */
  add(order: SimOrder): void {
    let b = this.#blocks.get(order.idHead);
    if (!b) this.#blocks.set(order.idHead, (b = { slots: new Array<SimOrder | undefined>(32).fill(undefined), live: 0 }));
    if (b.slots[order.idSlot] === undefined) {
      b.live++;
      this.#size++;
    }
    b.slots[order.idSlot] = order;
  }

  /** The order with this id, if indexed. */
  get(oid: string): SimOrder | undefined {
    if (oid === this.#lastOid) return this.#lastOrder;
    const n = oid.length;
    if (n < 2) return undefined;
    const slot = SLOT_OF[oid.charCodeAt(n - 1)] ?? -1;
    if (slot < 0) return undefined;
    const o = this.#blocks.get(oid.slice(0, n - 1))?.slots[slot];
    if (o === undefined || o.oid !== oid) return undefined;
    this.#lastOid = oid;
    this.#lastOrder = o;
    return o;
  }

  /** True when an order with this id is indexed. */
  has(oid: string): boolean {
    return this.get(oid) !== undefined;
  }

  /** Drops an order; returns whether it was indexed. */
  delete(order: SimOrder): boolean {
    const b = this.#blocks.get(order.idHead);
    if (!b || b.slots[order.idSlot] !== order) return false;
    b.slots[order.idSlot] = undefined;
    this.#size--;
    if (this.#lastOrder === order) {
      this.#lastOid = '';
      this.#lastOrder = undefined;
    }
    if (--b.live === 0) this.#blocks.delete(order.idHead);
    return true;
  }

  /** Every indexed order (block creation order, then id order within a block). */
  *values(): IterableIterator<SimOrder> {
    for (const b of [...this.#blocks.values()]) {
      for (const o of b.slots) if (o !== undefined) yield o;
    }
  }
}
