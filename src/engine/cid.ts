import { asClientOrderId, type ClientOrderId } from '../core/ids.ts';

/**
 * Client order ids: a u64 counter seeded from the clock's epoch ms shifted left 20 bits, so a
 * restart (a later ms) starts above anything an earlier run could have reached unless that run
 * placed more than ~1M orders per ms of downtime. Values stay below 2^64 until the year ~2500.
 */
export class CidFactory {
  #next: bigint;

  constructor(seedMs: number) {
    this.#next = BigInt(Math.max(0, Math.floor(seedMs))) << 20n;
  }

  /** The next unused client order id. */
  next(): ClientOrderId {
    const v = this.#next;
    this.#next = v + 1n;
    return asClientOrderId(v);
  }
}
