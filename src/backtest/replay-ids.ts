import { encodeUlidTime } from '../core/ulid.ts';

/**
 * Deterministic, monotonic venue-style ids (`O-`, `E-`, `T-` + a 26-character ULID) for the replay
 * exchange: the time part is the exchange time, the "random" part a seeded counter. Cheaper than a
 * random ULID per event, and replays stay byte-identical.
 */
export class ReplayIds {
  #lastMs = -1;
  #prefix = '';
  #counter: number;
  /** The first id's counter (the low 10 characters of every id count up from it, over all prefixes). */
  readonly start: number;

  constructor(seed: number) {
    // Start the 80-bit suffix at a seed-dependent point (only its low 50 bits move).
    this.start = (Math.abs(Math.floor(seed)) % 1_000_003) * 1_000_000;
    this.#counter = this.start;
  }

  /** Next id with the given prefix letter at exchange time `ms`. */
  next(prefix: 'O' | 'E' | 'T', ms: number): string {
    const t = Math.max(0, Math.floor(ms));
    if (t !== this.#lastMs) {
      this.#lastMs = t;
      this.#prefix = encodeUlidTime(t);
    }
    const c = this.#counter++;
    // The counter takes the low 10 characters of the suffix: the same 10-digit base32 as a time part.
    return `${prefix}-${this.#prefix}000000${encodeUlidTime(c)}`;
  }
}
