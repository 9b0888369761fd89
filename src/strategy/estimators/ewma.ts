/**
 * Time-aware exponentially weighted moving average: an observation's weight halves every
 * `halfLifeMs` of engine time (virtual in backtests), whatever the update rate. O(1), no allocation.
 */
export class Ewma {
  readonly #decayPerMs: number;
  #value = 0;
  /** Total weight of the observations seen, decayed (0 before the first). */
  #weight = 0;
  #lastMs = Number.NaN;

  /** @throws RangeError when `halfLifeMs` is not positive. */
  constructor(readonly halfLifeMs: number) {
    if (!(halfLifeMs > 0)) throw new RangeError(`EWMA half-life must be positive, got ${halfLifeMs} ms`);
    this.#decayPerMs = Math.LN2 / halfLifeMs;
  }

  /** Adds observation `x` seen at `nowMs` (engine clock) with relative weight `w` (default 1). */
  update(x: number, nowMs: number, w = 1): void {
    if (!Number.isFinite(x) || !(w > 0)) return;
    // Out-of-order or same-time observations are not decayed against each other.
    if (Number.isNaN(this.#lastMs) || nowMs > this.#lastMs) {
      if (!Number.isNaN(this.#lastMs)) this.#weight *= Math.exp(-this.#decayPerMs * (nowMs - this.#lastMs));
      this.#lastMs = nowMs;
    }
    this.#weight += w;
    this.#value += (w / this.#weight) * (x - this.#value);
  }

  /** The average, NaN before the first observation. */
  get value(): number {
    return this.#weight > 0 ? this.#value : Number.NaN;
  }

  /** The decayed total weight as of the last update (observations' "effective count" for w = 1). */
  get weight(): number {
    return this.#weight;
  }

  /** The decayed weight as of `nowMs` (how much recent evidence backs the average). */
  weightAt(nowMs: number): number {
    return Number.isNaN(this.#lastMs) ? 0 : this.#weight * Math.exp(-this.#decayPerMs * Math.max(0, nowMs - this.#lastMs));
  }

  /** Forgets everything. */
  reset(): void {
    this.#value = 0;
    this.#weight = 0;
    this.#lastMs = Number.NaN;
  }
}
