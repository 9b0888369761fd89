import type { Clock } from '../../core/clock.ts';

interface Bucket {
  tokens: number;
  lastMs: number;
}

/**
 * Per-user token bucket over order requests (REST and WS together): `burst` tokens, refilled at
 * `perSecond` of venue time. Settings are read on every call so the knob can change at run time.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #clock: Clock;
  readonly #settings: () => { enabled: boolean; burst: number; perSecond: number };

  constructor(clock: Clock, settings: () => { enabled: boolean; burst: number; perSecond: number }) {
    this.#clock = clock;
    this.#settings = settings;
  }

  /** Takes one token for `userId`; false when the bucket is empty (answer 429). */
  take(userId: string): boolean {
    const s = this.#settings();
    if (!s.enabled) return true;
    const now = this.#clock.nowMs();
    let b = this.#buckets.get(userId);
    if (!b) this.#buckets.set(userId, (b = { tokens: s.burst, lastMs: now }));
    b.tokens = Math.min(s.burst, b.tokens + ((now - b.lastMs) / 1000) * s.perSecond);
    b.lastMs = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Refills every bucket (tests). */
  reset(): void {
    this.#buckets.clear();
  }
}
