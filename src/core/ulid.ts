import type { Brand } from './brand.ts';

/** A 26-character Crockford base32 ULID: 48-bit millisecond time + 80 bits of randomness. */
export type Ulid = Brand<string, 'Ulid'>;

/** Crockford base32, as ULIDs use it. */
export const ULID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ALPHABET = ULID_ALPHABET;
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** A source of random 32-bit unsigned integers; seeded in the simulator, crypto-backed live. */
export type RandomU32 = () => number;

/**
 * Generates monotonic ULIDs: within one millisecond the random part is incremented, so ids sort in
 * creation order (the venue sorts open orders by id time).
 */
export class UlidFactory {
  #lastMs = -1;
  #rand: number[] = [];

  constructor(
    private readonly nowMs: () => number,
    private readonly random: RandomU32,
  ) {}

  /** Returns the next ULID. */
  next(): Ulid {
    const ms = Math.floor(this.nowMs());
    if (ms === this.#lastMs) {
      this.#increment();
    } else {
      this.#lastMs = ms;
      this.#rand = Array.from({ length: 16 }, () => this.random() & 31);
    }
    return (encodeUlidTime(Math.max(ms, 0)) + this.#rand.map((d) => ALPHABET[d]).join('')) as Ulid;
  }

  #increment(): void {
    for (let i = this.#rand.length - 1; i >= 0; i--) {
      const v = this.#rand[i]! + 1;
      if (v < 32) {
        this.#rand[i] = v;
        return;
      }
      this.#rand[i] = 0;
    }
  }
}

/** Character codes of the alphabet, and each code's digit value (−1 outside it). */
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const DIGIT = new Int8Array(128).fill(-1);
for (let d = 0; d < 32; d++) DIGIT[CODES[d]!] = d;

/**
 * The 10-character time part of a ULID for epoch `ms`. Built from character codes in one call (a
 * flat string, not ten concatenations): the replay makes two per id, on its order hot path.
 * Unrolled on purpose: a loop into an array passed to `fromCharCode.apply` measured 3× slower.
 */
export function encodeUlidTime(ms: number): string {
  let t = ms;
  const d9 = t % 32;
  t = Math.floor(t / 32);
  const d8 = t % 32;
  t = Math.floor(t / 32);
  const d7 = t % 32;
  t = Math.floor(t / 32);
  const d6 = t % 32;
  t = Math.floor(t / 32);
  const d5 = t % 32;
  t = Math.floor(t / 32);
  const d4 = t % 32;
  t = Math.floor(t / 32);
  const d3 = t % 32;
  t = Math.floor(t / 32);
  const d2 = t % 32;
  t = Math.floor(t / 32);
  const d1 = t % 32;
  t = Math.floor(t / 32);
  const d0 = t % 32;
  const c = CODES;
  return String.fromCharCode(c[d0]!, c[d1]!, c[d2]!, c[d3]!, c[d4]!, c[d5]!, c[d6]!, c[d7]!, c[d8]!, c[d9]!);
}

/** True when `s` is a well-formed ULID (26 Crockford base32 characters, first ≤ 7). */
export function isUlid(s: string): s is Ulid {
  return ULID_RE.test(s);
}

/** Decodes the millisecond timestamp of a ULID. */
export function ulidTimeMs(id: Ulid): number {
  let t = 0;
  for (let i = 0; i < 10; i++) {
    const code = id.charCodeAt(i);
    t = t * 32 + (code < 128 ? DIGIT[code]! : -1);
  }
  return t;
}

/** The venue's id prefixes: regular order, liquidation order, execution, trade. */
export type VenueIdPrefix = 'O' | 'L' | 'E' | 'T';

/** True when `s` is `<prefix>-<ULID>` for one of `prefixes`. */
export function isPrefixedUlid(s: string, prefixes: readonly VenueIdPrefix[]): boolean {
  return s.length === 28 && s[1] === '-' && (prefixes as readonly string[]).includes(s[0]!) && ULID_RE.test(s.slice(2));
}

/** A deterministic RandomU32 (mulberry32) for seeded simulations and tests. */
export function seededRandomU32(seed: number): RandomU32 {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
