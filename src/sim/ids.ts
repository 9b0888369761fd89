import { encodeUlidTime as encodeTime, ULID_ALPHABET, type RandomU32 } from '../core/ulid.ts';

/** Crockford base32, as ULIDs use it. */
export const ALPHABET = ULID_ALPHABET;

/** A prefixed id family (`O-`, `E-`...) with its prefix string cached per block of 32 ids. */
class Family {
  block = -1;
  head = '';
  constructor(readonly tag: string) {}
}

/**
 * Venue id minting: `O-`/`L-` orders, `E-` executions, `T-` trades, plus bare ULIDs. Ids are valid,
 * monotonic ULIDs made cheaply for the matching hot path: the 48-bit time and the top 30 random
 * bits are fixed per millisecond, and the low 50 bits count up (seeded start), so creation order
 * equals sort order. Only the last character changes between consecutive ids, so the rest is
 * encoded once per block of 32 ids and a typical id costs one concatenation.
 */
export class VenueIds {
  readonly #nowMs: () => number;
  readonly #random: RandomU32;
  #lastMs = -1;
  #head = '';
  #counter = 0;
  /** Time, random head and the counter's upper 45 bits, for the current block of 32 ids. */
  #prefix = '';
  /** Bumped whenever `#prefix` changes (families re-derive their prefix then). */
  #block = 0;
  readonly #orders = new Family('O-');
  readonly #liquidations = new Family('L-');
  readonly #executions = new Family('E-');
  readonly #trades = new Family('T-');
  readonly #bare = new Family('');
  #lastHead = '';
  #lastSlot = 0;

  constructor(nowMs: () => number, random: RandomU32) {
    this.#nowMs = nowMs;
    this.#random = random;
  }

  // The minting methods take the caller's current time when it already has it (the matching hot
  // path reads the clock once per request); the ms only has to be monotonic, not exact.

  /** A regular order id. */
  order(nowMs?: number): string {
    return this.#mint(this.#orders, nowMs ?? this.#nowMs());
  }
  /** A liquidation order id. */
  liquidation(nowMs?: number): string {
    return this.#mint(this.#liquidations, nowMs ?? this.#nowMs());
  }
  /** An execution (event) id. */
  execution(nowMs?: number): string {
    return this.#mint(this.#executions, nowMs ?? this.#nowMs());
  }
  /** A trade id. */
  trade(nowMs?: number): string {
    return this.#mint(this.#trades, nowMs ?? this.#nowMs());
  }

  /** A bare monotonic ULID (account and user ids, ledger event ids). */
  ulid(): string {
    return this.#mint(this.#bare, this.#nowMs());
  }

  /**
   * The last id minted is `lastHead + one character`, the character being `ALPHABET[lastSlot]`.
   * The head string is shared by up to 32 ids, so an index keyed by it hashes it once per block
   * (see `OrderIndex`).
   */
  get lastHead(): string {
    return this.#lastHead;
  }
  /** See `lastHead`: 0–31. */
  get lastSlot(): number {
    return this.#lastSlot;
  }

  #mint(f: Family, nowMs: number): string {
    const c = this.#advance(nowMs);
    if (f.block !== this.#block) {
      f.block = this.#block;
      f.head = f.tag + this.#prefix;
    }
    this.#lastHead = f.head;
    this.#lastSlot = c & 31;
    return f.head + ALPHABET[c & 31]!;
  }

  /** Moves the counter (a new millisecond restarts it at a seeded point) and returns it. */
  #advance(nowMs: number): number {
    const ms = Math.max(0, Math.floor(nowMs));
    if (ms > this.#lastMs) {
      this.#lastMs = ms;
      let head = encodeTime(ms);
      const r = this.#random();
      for (let i = 0; i < 6; i++) head += ALPHABET[(r >>> (i * 5)) & 31];
      this.#head = head;
      // Low 50 bits start anywhere in the lower half so increments never overflow within a ms.
      this.#counter = (this.#random() & 0xfffff) * 1024;
      this.#prefix = '';
    } else {
      this.#counter++;
    }
    const c = this.#counter;
    if ((c & 31) === 0 || this.#prefix === '') {
      let hi = Math.floor(c / 32);
      let p = '';
      for (let i = 0; i < 9; i++) {
        p = ALPHABET[hi % 32]! + p;
        hi = Math.floor(hi / 32);
      }
      this.#prefix = this.#head + p;
      this.#block++;
    }
    return c;
  }
}
