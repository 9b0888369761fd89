/**
 * A token bucket on caller-supplied time (epoch ms from the injected clock). Refill is continuous;
 * `rateFactor` scales the refill rate during an adaptive slow-down.
 */
export class TokenBucket {
  readonly capacity: number;
  readonly refillPerSec: number;
  #tokens: number;
  #lastMs: number;
  #rateFactor = 1;
  /** Tokens taken since creation (for "no more than the budget spent" checks and metrics). */
  spent = 0;

  constructor(capacity: number, refillPerSec: number, nowMs: number) {
    if (!(capacity > 0) || !(refillPerSec > 0)) throw new RangeError(`token bucket needs capacity > 0 and refillPerSec > 0, got ${capacity}, ${refillPerSec}`);
    this.capacity = capacity;
    this.refillPerSec = refillPerSec;
    this.#tokens = capacity;
    this.#lastMs = nowMs;
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
    return Math.ceil((missing / (this.refillPerSec * this.#rateFactor)) * 1000);
  }

  /** Scales the refill rate (1 = normal). Accrued tokens are settled first. */
  setRateFactor(factor: number, nowMs: number): void {
    this.#refill(nowMs);
    this.#rateFactor = factor;
  }

  #refill(nowMs: number): void {
    const dt = nowMs - this.#lastMs;
    if (dt <= 0) return;
    this.#lastMs = nowMs;
    this.#tokens = Math.min(this.capacity, this.#tokens + (dt / 1000) * this.refillPerSec * this.#rateFactor);
  }
}
