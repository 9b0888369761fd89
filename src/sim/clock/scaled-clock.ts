import type { Clock } from '../../core/clock.ts';

/**
 * A clock that runs `speed` times faster than `base` from the moment it is created: venue time
 * starts at the base's current time and advances speed× as fast; timers are scaled accordingly.
 * Used for the clock-speed knob (a trading day in minutes for demos).
 */
export class ScaledClock implements Clock {
  readonly #base: Clock;
  readonly #speed: number;
  readonly #originMs: number;

  constructor(base: Clock, speed: number) {
    if (!(speed > 0)) throw new RangeError(`clock speed must be positive, got ${speed}`);
    this.#base = base;
    this.#speed = speed;
    this.#originMs = base.nowMs();
  }

  /** How many venue ms pass per base ms. */
  get speed(): number {
    return this.#speed;
  }

  nowMs(): number {
    return this.#originMs + (this.#base.nowMs() - this.#originMs) * this.#speed;
  }

  nowNs(): bigint {
    if (this.#speed === 1) return this.#base.nowNs();
    const originNs = BigInt(Math.round(this.#originMs)) * 1_000_000n;
    return originNs + BigInt(Math.round(Number(this.#base.nowNs() - originNs) * this.#speed));
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    return this.#base.setTimer(delayMs / this.#speed, fn);
  }
}
