/**
 * The ids (client and venue) of the last `cap` orders that left the order store, so a fill the
 * stream delivers after its order was already closed locally (a status answer or a cancel reply
 * raced the fill event) is still recognised as ours. Bounded: a FIFO of ids, oldest forgotten.
 */
export class RecentIds {
  readonly #ids = new Set<string>();

  constructor(private readonly cap = 4_096) {}

  /** Remembers an id (null is ignored). */
  add(id: string | null): void {
    if (id === null || this.#ids.has(id)) return;
    this.#ids.add(id);
    if (this.#ids.size > this.cap) this.#ids.delete(this.#ids.values().next().value!);
  }

  /** True when `id` was remembered and not yet forgotten. */
  has(id: string | null): boolean {
    return id !== null && this.#ids.has(id);
  }

  /** Ids remembered. */
  get size(): number {
    return this.#ids.size;
  }
}
