/**
 * A bounded history: appends in O(1), keeps the newest `capacity` items and drops the oldest. The
 * backing array grows on demand up to `capacity`, so a large retention costs nothing until used.
 * Iterates oldest first. Used for every per-account and per-symbol history the venue keeps (fills,
 * ledger, liquidations, funding, reward rows), so a venue running for weeks stays bounded.
 */
export class RingBuffer<T> implements Iterable<T> {
  readonly #buf: T[] = [];
  #start = 0;
  #dropped = 0;

  /** @param capacity the most items kept (a positive integer). */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`RingBuffer capacity must be a positive integer, got ${capacity}`);
  }

  /** Appends `v`, dropping the oldest item when full. */
  push(v: T): void {
    if (this.#buf.length < this.capacity) {
      this.#buf.push(v);
      return;
    }
    this.#buf[this.#start] = v;
    this.#start = (this.#start + 1) % this.capacity;
    this.#dropped++;
  }

  /** Number of items held. */
  get length(): number {
    return this.#buf.length;
  }

  /** How many items were dropped (oldest first) since creation. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Item `i` counted from the oldest (undefined out of range). */
  at(i: number): T | undefined {
    const n = this.#buf.length;
    if (i < 0) i += n;
    return i < 0 || i >= n ? undefined : this.#buf[(this.#start + i) % n];
  }

  /** The newest item. */
  last(): T | undefined {
    return this.at(this.#buf.length - 1);
  }

  /** Items matching `pred`, oldest first. */
  filter(pred: (v: T) => boolean): T[] {
    const out: T[] = [];
    for (const v of this) if (pred(v)) out.push(v);
    return out;
  }

  /** Every item, oldest first. */
  toArray(): T[] {
    return [...this];
  }

  /** Removes every item (the dropped count stays). */
  clear(): void {
    this.#buf.length = 0;
    this.#start = 0;
  }

  *[Symbol.iterator](): Iterator<T> {
    const n = this.#buf.length;
    for (let k = 0; k < n; k++) yield this.#buf[(this.#start + k) % n]!;
  }
}
