import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';

/** Options of the bearer-token lifecycle. */
export interface TokenManagerOptions {
  readonly clock: Clock;
  /** Obtains a fresh token (POST /api/authenticate with `expiration_seconds = lifetimeS`). */
  readonly authenticate: (lifetimeS: number) => Promise<string>;
  /** Lifetime requested from the venue, seconds. */
  readonly lifetimeS: number;
  /**
   * Fraction of the lifetime after which the token is refreshed in the background (the venue SDK
   * refreshes past 50%). Requests never see an expired token: one past `hardExpiryFraction` is
   * treated as absent and fetched synchronously.
   */
  readonly refreshAtFraction?: number;
  /** Called when a background refresh fails (it is retried on the next `token()` call). */
  readonly onRefreshError?: (err: unknown) => void;
}

/**
 * Holds the session token: authenticates lazily, refreshes in the background before expiry on the
 * injected clock, and re-authenticates (once, single-flight) when a request saw 401 with the current
 * token. Concurrent callers share one authenticate call.
 */
export class TokenManager {
  readonly #opts: TokenManagerOptions;
  #token: string | undefined;
  #obtainedMs = 0;
  /** The previous token and when it was obtained (still valid at the venue until it expires). */
  #previous: { readonly token: string; readonly obtainedMs: number } | undefined;
  #inflight: Promise<string> | undefined;
  #cancelRefresh: (() => void) | undefined;
  #closed = false;
  /** Number of successful authentications (initial + refreshes + re-auths). */
  authentications = 0;

  constructor(opts: TokenManagerOptions) {
    if (!(opts.lifetimeS > 0)) throw new MmError('CONFIG_INVALID', `token lifetime must be > 0 s, got ${opts.lifetimeS}`);
    this.#opts = opts;
  }

  /** A token valid for at least the rest of its refresh window; authenticates when needed. */
  token(): Promise<string> {
    if (this.#token !== undefined && !this.#pastHardExpiry()) return Promise.resolve(this.#token);
    return this.#fetch();
  }

  /** The current token without fetching, if any (for synchronous use such as WS headers). */
  peek(): string | undefined {
    return this.#token !== undefined && !this.#pastHardExpiry() ? this.#token : undefined;
  }

  /**
   * Declares `rejected` invalid (the venue answered 401 with it) and returns a fresh token. When a
   * newer token already replaced it, that one is returned without another authenticate call.
   */
  renew(rejected: string | undefined): Promise<string> {
    if (this.#token !== undefined && this.#token !== rejected) return Promise.resolve(this.#token);
    if (this.#token !== undefined) this.#previous = { token: this.#token, obtainedMs: this.#obtainedMs };
    this.#token = undefined;
    return this.#fetch();
  }

  /** When `token` (the current or the previous one) was obtained and when it expires at the venue, epoch ms. */
  validity(token: string): { readonly obtainedMs: number; readonly expiresAtMs: number } | undefined {
    const lifetimeMs = this.#opts.lifetimeS * 1000;
    if (token === this.#token) return { obtainedMs: this.#obtainedMs, expiresAtMs: this.#obtainedMs + lifetimeMs };
    if (token === this.#previous?.token) return { obtainedMs: this.#previous.obtainedMs, expiresAtMs: this.#previous.obtainedMs + lifetimeMs };
    return undefined;
  }

  /** Stops the background refresh timer. */
  close(): void {
    this.#closed = true;
    this.#cancelRefresh?.();
    this.#cancelRefresh = undefined;
  }

  #refreshFraction(): number {
    const f = this.#opts.refreshAtFraction ?? 0.6;
    return Math.min(0.9, Math.max(0.1, f));
  }

  #pastHardExpiry(): boolean {
    // Leave headroom for clock skew and request latency: a token in its last 10% is not handed out.
    const lifetimeMs = this.#opts.lifetimeS * 1000;
    return this.#opts.clock.nowMs() - this.#obtainedMs >= lifetimeMs * 0.9;
  }

  #fetch(): Promise<string> {
    if (this.#inflight) return this.#inflight;
    const p = this.#opts
      .authenticate(this.#opts.lifetimeS)
      .then((token) => {
        if (this.#token !== undefined && this.#token !== token) this.#previous = { token: this.#token, obtainedMs: this.#obtainedMs };
        this.#token = token;
        this.#obtainedMs = this.#opts.clock.nowMs();
        this.authentications++;
        this.#armRefresh();
        return token;
      })
      .finally(() => {
        this.#inflight = undefined;
      });
    this.#inflight = p;
    return p;
  }

  #armRefresh(): void {
    this.#cancelRefresh?.();
    if (this.#closed) return;
    const delayMs = this.#opts.lifetimeS * 1000 * this.#refreshFraction();
    this.#cancelRefresh = this.#opts.clock.setTimer(delayMs, () => {
      this.#cancelRefresh = undefined;
      if (this.#closed) return;
      // Keep the old token usable while the new one is fetched; swap when it arrives.
      this.#fetch().catch((err: unknown) => this.#opts.onRefreshError?.(err));
    });
  }
}
