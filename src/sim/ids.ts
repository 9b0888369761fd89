import { UlidFactory, type RandomU32 } from '../core/ulid.ts';

/** Venue id minting: `O-`/`L-` orders, `E-` executions, `T-` trades, plus opaque ids and secrets. */
export class VenueIds {
  readonly #ulid: UlidFactory;
  readonly #random: RandomU32;

  constructor(nowMs: () => number, random: RandomU32) {
    this.#ulid = new UlidFactory(nowMs, random);
    this.#random = random;
  }

  /** A regular order id. */
  order(): string {
    return `O-${this.#ulid.next()}`;
  }
  /** A liquidation order id. */
  liquidation(): string {
    return `L-${this.#ulid.next()}`;
  }
  /** An execution (event) id. */
  execution(): string {
    return `E-${this.#ulid.next()}`;
  }
  /** A trade id. */
  trade(): string {
    return `T-${this.#ulid.next()}`;
  }
  /** A bare ULID (account and user ids, ledger event ids). */
  ulid(): string {
    return this.#ulid.next();
  }
  /** `bytes` random bytes as lowercase hex (API keys, secrets, tokens). */
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i += 4) s += (this.#random() >>> 0).toString(16).padStart(8, '0');
    return s.slice(0, bytes * 2);
  }
}
