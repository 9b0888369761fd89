import type { RandomU32 } from '../core/ulid.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32]! + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/**
 * Venue id minting: `O-`/`L-` orders, `E-` executions, `T-` trades, plus bare ULIDs. Ids are valid,
 * monotonic ULIDs made cheaply for the matching hot path: the 48-bit time and the top 30 random
 * bits are fixed per millisecond, and the low 50 bits count up (seeded start), so creation order
 * equals sort order without allocating per-character arrays.
 */
export class VenueIds {
  readonly #nowMs: () => number;
  readonly #random: RandomU32;
  #lastMs = -1;
  #head = '';
  #counter = 0;

  constructor(nowMs: () => number, random: RandomU32) {
    this.#nowMs = nowMs;
    this.#random = random;
  }

  /** A regular order id. */
  order(): string {
    return `O-${this.ulid()}`;
  }
  /** A liquidation order id. */
  liquidation(): string {
    return `L-${this.ulid()}`;
  }
  /** An execution (event) id. */
  execution(): string {
    return `E-${this.ulid()}`;
  }
  /** A trade id. */
  trade(): string {
    return `T-${this.ulid()}`;
  }

  /** A bare monotonic ULID (account and user ids, ledger event ids). */
  ulid(): string {
    const ms = Math.max(0, Math.floor(this.#nowMs()));
    if (ms > this.#lastMs) {
      this.#lastMs = ms;
      let head = encodeTime(ms);
      const r = this.#random();
      for (let i = 0; i < 6; i++) head += ALPHABET[(r >>> (i * 5)) & 31];
      this.#head = head;
      // Low 50 bits start anywhere in the lower half so increments never overflow within a ms.
      this.#counter = (this.#random() & 0xfffff) * 1024;
    } else {
      this.#counter++;
    }
    let c = this.#counter;
    let tail = '';
    for (let i = 0; i < 10; i++) {
      tail = ALPHABET[c % 32]! + tail;
      c = Math.floor(c / 32);
    }
    return this.#head + tail;
  }

  /** `bytes` random bytes as lowercase hex (seeded; for non-secret ids). */
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i += 4) s += (this.#random() >>> 0).toString(16).padStart(8, '0');
    return s.slice(0, bytes * 2);
  }
}
