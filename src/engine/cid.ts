import { asClientOrderId, type ClientOrderId } from '../core/ids.ts';

/**
 * Client order ids: a u64 counter seeded from the clock's epoch ms shifted left 20 bits, so a
 * restart (a later ms) starts above anything an earlier run could have reached unless that run
 * placed more than ~1M orders per ms of downtime. Values stay below 2^64 until the year ~2500.
 */
export class CidFactory {
  readonly #first: bigint;
  #next: bigint;

  constructor(seedMs: number) {
    this.#first = BigInt(Math.max(0, Math.floor(seedMs))) << 20n;
    this.#next = this.#first;
  }

  /**
   * True when this factory issued `cid` (ids are consecutive, so the range decides, at no cost per
   * order): a fill naming it is a fill of one of our orders, even one the store has already closed
   * (a status answer or a cancel reply raced the fill event).
   */
  issued(cid: string | null): boolean {
    if (cid === null || !/^\d{1,20}$/.test(cid)) return false;
    const v = BigInt(cid);
    return v >= this.#first && v < this.#next;
  }

  /** The next unused client order id. */
  next(): ClientOrderId {
    const v = this.#next;
    this.#next = v + 1n;
    return asClientOrderId(v);
  }
}
