/**
 * Additive-increase / multiplicative-decrease (AIMD) control of one token bucket's rate and burst,
 * learned from the venue's throttling answers. Pure state on caller-supplied time: the executor
 * drives it live, and a backtest's rate-limit emulation can drive it on recorded time.
 */
import type { TokenBucket } from './token-bucket.ts';

/** How the learned rate reacts to throttling answers and to calm. */
export interface AdaptiveRateConfig {
  /** On a 429 the learned rate (and burst) is multiplied by this, in (0, 1). */
  readonly decreaseFactor: number;
  /**
   * Requests/s added to the learned rate per second of successful sending (no 429) while below 90%
   * of the venue's limit as last measured (accepted requests/s over the 10 s before the last 429);
   * above it the limit is near, and the rate probes at a tenth of this speed (until 20 s pass without a 429: then it climbs fast again).
   */
  readonly increasePerSec: number;
  /** One extra token of burst is relearned after this long without a 429, ms. */
  readonly burstIncreaseMs: number;
  /** Floor of the learned rate, requests/s (raised so a request's cost accrues within `maxIdleMs`). */
  readonly minRatePerSec: number;
  /** Queued work never waits longer than this, ms: a longer Retry-After or pause is cut to it. */
  readonly maxIdleMs: number;
  /** Pause after 503/504 without Retry-After (the venue is busy, not counting our requests), ms. */
  readonly unavailablePauseMs: number;
}

/** Default AIMD: × 0.7 on 429, regain 0.5 req/s per second (0.05 near the measured limit) and one burst token per 2 s, idle ≤ 2 s. */
export const DEFAULT_ADAPTIVE_RATE_CONFIG: AdaptiveRateConfig = Object.freeze({
  decreaseFactor: 0.7,
  increasePerSec: 0.5,
  burstIncreaseMs: 2_000,
  minRatePerSec: 0.5,
  maxIdleMs: 2_000,
  unavailablePauseMs: 500,
});

/** Window over which accepted requests measure the venue's real limit, ms. */
const WINDOW_MS = 10_000;

/** What the venue said when it throttled us (all optional: a bare 429 is enough). */
export interface ThrottleHint {
  /** `Retry-After` (or a rate-limit reset header) converted to a delay, ms. */
  readonly retryAfterMs?: number | undefined;
  /** The venue's advertised sustained limit, requests/s (from rate-limit headers). */
  readonly limitPerSec?: number | undefined;
}

/**
 * AIMD over one bucket. The bucket's configured capacity and refill are the ceiling; the learned
 * values never exceed them and never fall below the floors (rate ≥ max(minRatePerSec, maxCost /
 * maxIdle), burst ≥ maxCost), so queued work is never starved longer than `maxIdleMs`.
 *
 * Usage: `onThrottled(now, sentMs)` on a 429 for a request this bucket paid for (returns the pause to
 * apply), `onSuccess(now)` when such a request succeeded.
 */
export class AdaptiveRate {
  readonly #bucket: TokenBucket;
  readonly #cfg: AdaptiveRateConfig;
  readonly #minRate: number;
  readonly #minBurst: number;
  #rate: number;
  #burst: number;
  #lastDecreaseMs = -Infinity;
  /** The venue's limit as measured at the last decrease: accepted requests/s over the window before it. */
  #limitHitPerSec = Infinity;
  /** Times of recent accepted requests (the measuring window), oldest first. */
  readonly #okTimes: number[] = [];
  readonly #startMs: number;
  #lastIncreaseMs: number;
  #lastBurstStepMs: number;
  /** 429s that lowered the rate (one per send window). */
  decreases = 0;

  /** `maxCost` is the largest cost any endpoint takes from this bucket (for the floors). */
  constructor(bucket: TokenBucket, cfg: AdaptiveRateConfig, maxCost: number, nowMs: number) {
    this.#bucket = bucket;
    this.#cfg = cfg;
    const cost = Math.max(1, maxCost);
    this.#minRate = Math.min(bucket.refillPerSec, Math.max(cfg.minRatePerSec, (cost * 1000) / cfg.maxIdleMs));
    this.#minBurst = Math.min(bucket.capacity, cost);
    this.#rate = bucket.refillPerSec;
    this.#burst = bucket.capacity;
    this.#lastIncreaseMs = nowMs;
    this.#lastBurstStepMs = nowMs;
    this.#startMs = nowMs;
  }

  /** The venue's limit as measured at the last 429 (accepted requests/s), Infinity before any. */
  get measuredLimitPerSec(): number {
    return this.#limitHitPerSec;
  }

  /** The learned sustained rate, requests/s. */
  get ratePerSec(): number {
    return this.#rate;
  }

  /** The learned burst, tokens. */
  get burst(): number {
    return this.#burst;
  }

  /** True while the learned rate or burst is below the configured ceiling. */
  get reduced(): boolean {
    return this.#rate < this.#bucket.refillPerSec || this.#burst < this.#bucket.capacity;
  }

  /**
   * A request sent at `sentMs` was answered 429. The first 429 of a send window decreases rate and
   * burst multiplicatively; later 429s for requests sent before that decrease are echoes of the same
   * overload and change nothing. The bucket is emptied either way (the venue's is). Returns the
   * pause to apply before the next send (≤ maxIdleMs).
   */
  onThrottled(nowMs: number, sentMs: number, hint: ThrottleHint = {}): number {
    this.#bucket.drain(nowMs);
    if (sentMs >= this.#lastDecreaseMs) {
      const f = this.#cfg.decreaseFactor;
      this.#limitHitPerSec = Math.max(this.#minRate, this.#acceptedPerSec(nowMs));
      this.#rate = Math.max(this.#minRate, this.#rate * f);
      if (hint.limitPerSec !== undefined && hint.limitPerSec > 0) this.#rate = Math.max(this.#minRate, Math.min(this.#rate, hint.limitPerSec));
      this.#burst = Math.max(this.#minBurst, Math.floor(this.#burst * f));
      this.#lastDecreaseMs = nowMs;
      this.decreases++;
      this.#apply(nowMs);
    }
    this.#lastIncreaseMs = nowMs;
    this.#lastBurstStepMs = nowMs;
    return Math.min(this.#cfg.maxIdleMs, Math.max(0, hint.retryAfterMs ?? 0));
  }

  /**
   * A request this bucket paid for succeeded: the rate grows by `increasePerSec` per second since the
   * previous growth step (at most one second's worth per success, so idle time earns nothing), and
   * the burst by one token per `burstIncreaseMs` without a 429.
   */
  onSuccess(nowMs: number): void {
    this.#okTimes.push(nowMs);
    this.#trim(nowMs);
    // Two windows without a 429 while probing: the venue allows more than we measured; climb fast again.
    if (nowMs - this.#lastDecreaseMs > 2 * WINDOW_MS) this.#limitHitPerSec = Infinity;
    const ceiling = this.#bucket.refillPerSec;
    const dtMs = Math.min(1_000, Math.max(0, nowMs - this.#lastIncreaseMs));
    this.#lastIncreaseMs = nowMs;
    let changed = false;
    if (this.#rate < ceiling && dtMs > 0) {
      const perSec = this.#rate < this.#limitHitPerSec * 0.9 ? this.#cfg.increasePerSec : this.#cfg.increasePerSec / 10;
      this.#rate = Math.min(ceiling, this.#rate + (perSec * dtMs) / 1000);
      changed = true;
    }
    if (this.#burst < this.#bucket.capacity && nowMs - this.#lastBurstStepMs >= this.#cfg.burstIncreaseMs) {
      this.#burst = Math.min(this.#bucket.capacity, this.#burst + 1);
      this.#lastBurstStepMs = nowMs;
      changed = true;
    }
    if (changed) this.#apply(nowMs);
  }

  #trim(nowMs: number): void {
    while (this.#okTimes.length > 0 && this.#okTimes[0]! < nowMs - WINDOW_MS) this.#okTimes.shift();
  }

  /** Accepted requests per second over the last window (or since creation when younger). */
  #acceptedPerSec(nowMs: number): number {
    this.#trim(nowMs);
    const spanMs = Math.min(WINDOW_MS, Math.max(1_000, nowMs - this.#startMs));
    return (this.#okTimes.length * 1000) / spanMs;
  }

  #apply(nowMs: number): void {
    this.#bucket.setLimits(this.#rate, this.#burst, nowMs);
  }
}
