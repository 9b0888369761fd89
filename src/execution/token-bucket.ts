/**
 * A token bucket on caller-supplied time (epoch ms from the injected clock). Refill is continuous.
 * `capacity` and `refillPerSec` are the configured ceiling; `setLimits` lowers the effective burst
 * and rate (adaptive control, see adaptive-rate.ts) without changing the ceiling.
 */
export class TokenBucket {
  /** Configured burst (the ceiling of `burst`). */
  readonly capacity: number;
  /** Configured refill rate, tokens/s (the ceiling of `ratePerSec`). */
  readonly refillPerSec: number;
  #tokens: number;
  #lastMs: number;
  #rate: number;
  #burst: number;
  /** Tokens taken since creation (for "no more than the budget spent" checks and metrics). */
  spent = 0;

  constructor(capacity: number, refillPerSec: number, nowMs: number) {
    if (!(capacity > 0) || !(refillPerSec > 0)) throw new RangeError(`token bucket needs capacity > 0 and refillPerSec > 0, got ${capacity}, ${refillPerSec}`);
    this.capacity = capacity;
    this.refillPerSec = refillPerSec;
    this.#rate = refillPerSec;
    this.#burst = capacity;
    this.#tokens = capacity;
    this.#lastMs = nowMs;
  }

  /** The effective refill rate now, tokens/s. */
  get ratePerSec(): number {
    return this.#rate;
  }

  /** The effective burst now, tokens. */
  get burst(): number {
    return this.#burst;
  }

  /** Tokens available at `nowMs`. */
  available(nowMs: number): number {
    this.#refill(nowMs);
    return this.#tokens;
  }

  /** Takes `cost` tokens if available; true on success. */
  tryTake(cost: number, nowMs: number): boolean {
    this.#refill(nowMs);
    if (this.#tokens + 1e-9 < cost) return false;
    this.#tokens -= cost;
    this.spent += cost;
    return true;
  }

  /** Milliseconds until `cost` tokens are available (0 when they are now). */
  msUntil(cost: number, nowMs: number): number {
    this.#refill(nowMs);
    const missing = cost - this.#tokens;
    if (missing <= 1e-9) return 0;
    return Math.ceil((missing / this.#rate) * 1000);
  }

  /** Empties the bucket (the venue said its own bucket is empty). */
  drain(nowMs: number): void {
    this.#refill(nowMs);
    this.#tokens = Math.min(this.#tokens, 0);
  }

  /**
   * Sets the effective rate and burst, clamped to (0, ceiling]. Accrued tokens are settled first and
   * cut to the new burst.
   * @throws RangeError when either is not > 0
   */
  setLimits(ratePerSec: number, burst: number, nowMs: number): void {
    if (!(ratePerSec > 0) || !(burst > 0)) throw new RangeError(`token bucket limits must be > 0, got rate ${ratePerSec}, burst ${burst}`);
    this.#refill(nowMs);
    this.#rate = Math.min(this.refillPerSec, ratePerSec);
    this.#burst = Math.min(this.capacity, burst);
    this.#tokens = Math.min(this.#tokens, this.#burst);
  }

  #refill(nowMs: number): void {
    const dt = nowMs - this.#lastMs;
    if (dt <= 0) return;
    this.#lastMs = nowMs;
    this.#tokens = Math.min(this.#burst, this.#tokens + (dt / 1000) * this.#rate);
  }
}
