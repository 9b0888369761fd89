import type { Clock } from '../../core/clock.ts';

/** Budgets of `/api/authenticate` (venue config `auth`). */
export interface LoginLimits {
  /**
   * Failed logins allowed per API key in one window; beyond, every login for that key (the right
   * secret too) is refused 429 until the window ends. Per client IP the same count of failures
   * refuses only further failing logins from it: a valid login is never held up by another
   * process's mistakes on the same host.
   */
  readonly maxFailuresPerWindow: number;
  /** Logins allowed per API key (any outcome) and failing logins per client IP in one window. */
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

/** A refused login: the seconds to wait and which budget refused it. */
export interface LoginRefusal {
  readonly waitS: number;
  readonly by: 'key' | 'ip';
}

/**
 * Fixed-window counters of login attempts and failures per key and per IP: brute force on a key's
 * secret, or a flood of logins, is answered 429 with the seconds left instead of being served
 * without bound. The lockout is per key: on loopback every daemon shares one IP, so 11 bad logins
 * from any local process must not stall the others' token renewals; the per-IP budget only
 * refuses failing logins (a spray over many keys). Pure apart from the injected clock.
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

  /**
   * Admits one login whose credentials are `valid` (checked by the caller) or not: the refusal when
   * `apiKey` is over its budget, or when it fails and `ip` is over its failure budget (this attempt
   * is then not counted), else null (counted, and a failure counted against both).
   */
  admit(ip: string, apiKey: string, valid: boolean): LoginRefusal | null {
    const now = this.clock.nowMs();
    const key = this.#window(`key:${apiKey}`, now);
    if (this.#over(key)) return { waitS: this.#waitS(key, now), by: 'key' };
    if (!valid) {
      const byIp = this.#window(`ip:${ip}`, now);
      if (this.#over(byIp)) return { waitS: this.#waitS(byIp, now), by: 'ip' };
      byIp.attempts++;
      byIp.failures++;
      key.failures++;
    }
    key.attempts++;
    return null;
  }

  #over(w: Window): boolean {
    return w.failures >= this.limits.maxFailuresPerWindow || w.attempts >= this.limits.maxAttemptsPerWindow;
  }

  #waitS(w: Window, now: number): number {
    return Math.max(1, Math.ceil((w.startMs + this.limits.windowMs - now) / 1000));
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
