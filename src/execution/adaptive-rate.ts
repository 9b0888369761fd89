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
   * Requests/s added to the learned rate per second of budget-constrained sending (no 429) while below 90%
   * of the venue's limit as last measured (accepted requests/s over the 30 s before the last 429);
   * above it the limit is near, and the rate probes at a tenth of this speed.
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
  /**
   * After a 429 the rate and burst regain only up to a margin under what drew it (80 % of the rate
   * and of the accepted rate measured before it, one token less of burst) until this long passes
   * without a 429 (ms); then probing above resumes.
   */
  readonly probeAfterMs: number;
}

/** Default AIMD: rate × 0.7 (burst × 0.5) on 429, regain 0.5 req/s per second (0.05 near the measured limit) and one burst token per 2 s, idle ≤ 2 s. */
export const DEFAULT_ADAPTIVE_RATE_CONFIG: AdaptiveRateConfig = Object.freeze({
  decreaseFactor: 0.7,
  increasePerSec: 0.5,
  burstIncreaseMs: 2_000,
  minRatePerSec: 0.5,
  maxIdleMs: 2_000,
  unavailablePauseMs: 500,
  probeAfterMs: 300_000,
});

/** Window over which accepted requests measure the venue's real limit, ms (long, so a burst weighs little). */
const WINDOW_MS = 30_000;
/** Accepted requests in the window below which it says nothing about the venue's limit. */
const MIN_MEASURED = 5;
/** After a 429 the rate regains to at most this fraction of the rate that drew it and of the measured limit. */
const CAP_FACTOR = 0.8;
/** A 429 halves the learned burst. */
const BURST_DECREASE = 0.5;

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
  /** Rate and burst the regain stops under until `probeAfterMs` passes without a 429 (just under what drew the last one). */
  #rateCap = Infinity;
  #burstCap = Infinity;
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
      const accepted = this.#acceptedPerSec(nowMs);
      this.#limitHitPerSec = Math.max(this.#minRate, accepted);
      // What the venue accepted before refusing, when there is enough of it to tell (5 requests).
      const measured = this.#okTimes.length >= MIN_MEASURED ? this.#limitHitPerSec : Infinity;
      // Regain only to a margin under what drew this 429 and under what the venue accepted before it
      // (that includes the venue's burst, so it is above its sustained rate).
      this.#rateCap = Math.max(this.#minRate, Math.min(this.#rateCap, CAP_FACTOR * Math.min(this.#rate, measured)));
      this.#burstCap = Math.max(this.#minBurst, Math.min(this.#burstCap, this.#burst - 1));
      // The venue accepted no more than this before refusing: start from there when it is lower.
      this.#rate = Math.max(this.#minRate, Math.min(this.#rate * f, CAP_FACTOR * measured));
      if (hint.limitPerSec !== undefined && hint.limitPerSec > 0) this.#rate = Math.max(this.#minRate, Math.min(this.#rate, hint.limitPerSec));
      // The burst halves: a venue's burst is unknown and a back-to-back requote after a quiet spell
      // spends all of ours at once, so an overestimate costs a 429 every time.
      this.#burst = Math.max(this.#minBurst, Math.floor(this.#burst * BURST_DECREASE));
      this.#lastDecreaseMs = nowMs;
      this.decreases++;
      this.#apply(nowMs);
    }
    this.#lastIncreaseMs = nowMs;
    this.#lastBurstStepMs = nowMs;
    return Math.min(this.#cfg.maxIdleMs, Math.max(0, hint.retryAfterMs ?? 0));
  }

  /**
   * A request this bucket paid for succeeded. When the budget was what held us back (`constrained`:
   * the bucket was short of a next request's tokens at the send), the rate grows by
   * `increasePerSec` per second since the previous growth step (at most one second's worth per
   * success, so idle time earns nothing) and the burst by one token per `burstIncreaseMs` without a
   * 429, each up to just under what drew the last 429 until `probeAfterMs` has passed without one.
   * Sending below the learned rate says nothing about the venue's limit: it earns nothing.
   */
  onSuccess(nowMs: number, constrained = true): void {
    this.#okTimes.push(nowMs);
    this.#trim(nowMs);
    if (nowMs - this.#lastDecreaseMs > this.#cfg.probeAfterMs) {
      // Long enough without a 429 at the learned limit: the venue may allow more; probe again.
      this.#limitHitPerSec = Infinity;
      this.#rateCap = Infinity;
      this.#burstCap = Infinity;
    }
    const dtMs = Math.min(1_000, Math.max(0, nowMs - this.#lastIncreaseMs));
    this.#lastIncreaseMs = nowMs;
    if (!constrained) {
      this.#lastBurstStepMs = nowMs;
      return;
    }
    const ceiling = Math.min(this.#bucket.refillPerSec, Math.max(this.#rate, this.#rateCap));
    let changed = false;
    if (this.#rate < ceiling && dtMs > 0) {
      const perSec = this.#rate < this.#limitHitPerSec * 0.9 ? this.#cfg.increasePerSec : this.#cfg.increasePerSec / 10;
      this.#rate = Math.min(ceiling, this.#rate + (perSec * dtMs) / 1000);
      changed = true;
    }
    if (this.#burst < Math.min(this.#bucket.capacity, this.#burstCap) && nowMs - this.#lastBurstStepMs >= this.#cfg.burstIncreaseMs) {
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
