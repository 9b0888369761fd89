import type { Clock } from '../../core/clock.ts';

/** Budgets of `/api/authenticate` (venue config `auth`). */
export interface LoginLimits {
  /** Failed logins allowed per client IP and per API key in one window; beyond, every login from that IP / for that key is refused 429 until the window ends. */
  readonly maxFailuresPerWindow: number;
  /** Logins (any outcome) allowed per client IP and per API key in one window. */
  readonly maxAttemptsPerWindow: number;
  /** Window length, venue ms. */
  readonly windowMs: number;
  /** Most IPs/keys tracked at once; the oldest windows are forgotten first (memory stays bounded under a spray of addresses). */
  readonly maxTracked?: number;
}

interface Window {
  startMs: number;
  attempts: number;
  failures: number;
}

/**
 * Fixed-window counters of login attempts and failures per IP and per key: brute force on a
 * secret, or a flood of valid logins, is answered 429 with the seconds left instead of being
 * served without bound. Pure apart from the injected clock.
 */
export class LoginLimiter {
  readonly #windows = new Map<string, Window>();
  readonly #maxTracked: number;

  constructor(
    private readonly clock: Clock,
    private readonly limits: LoginLimits,
  ) {
    this.#maxTracked = limits.maxTracked ?? 10_000;
  }

  /** Seconds to wait when `ip` or `apiKey` is over a budget (this attempt is then not counted), else null (counted). */
  admit(ip: string, apiKey: string): number | null {
    const now = this.clock.nowMs();
    const w = [this.#window(`ip:${ip}`, now), this.#window(`key:${apiKey}`, now)];
    const over = w.filter((x) => x.failures >= this.limits.maxFailuresPerWindow || x.attempts >= this.limits.maxAttemptsPerWindow);
    if (over.length > 0) return Math.max(1, Math.ceil(Math.max(...over.map((x) => x.startMs + this.limits.windowMs - now)) / 1000));
    for (const x of w) x.attempts++;
    return null;
  }

  /** Counts a failed login (wrong key or secret) against the IP and the key. */
  failed(ip: string, apiKey: string): void {
    const now = this.clock.nowMs();
    this.#window(`ip:${ip}`, now).failures++;
    this.#window(`key:${apiKey}`, now).failures++;
  }

  /** Tracked windows (bounded by `maxTracked`). */
  get size(): number {
    return this.#windows.size;
  }

  #window(id: string, now: number): Window {
    let w = this.#windows.get(id);
    if (w && now - w.startMs >= this.limits.windowMs) {
      this.#windows.delete(id);
      w = undefined;
    }
    if (!w) {
      // Map order is insertion order: the first entries are the oldest windows.
      while (this.#windows.size >= this.#maxTracked) this.#windows.delete(this.#windows.keys().next().value!);
      w = { startMs: now, attempts: 0, failures: 0 };
      this.#windows.set(id, w);
    }
    return w;
  }
}
