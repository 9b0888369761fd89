/**
 * Exponential backoff with jitter, and `Retry-After` parsing. Pure: randomness and time are passed
 * in, so the same policy drives REST retries and WS reconnects on a virtual clock in tests.
 */

/** How long to wait between attempts: `initialMs × multiplier^attempt`, capped, then jittered. */
export interface BackoffPolicy {
  /** Delay before the first retry, ms. */
  readonly initialMs: number;
  /** Upper bound on any delay, ms. */
  readonly maxMs: number;
  /** Growth factor per attempt (2 doubles). */
  readonly multiplier: number;
  /**
   * Fraction of the delay that is randomised (0 = none, 1 = "full jitter"). With 0.5 the delay is
   * uniform in [d/2, d]: it spreads reconnect storms while keeping a floor.
   */
  readonly jitter: number;
}

/** Defaults for REST retries: 200 ms, doubling, up to 5 s, half jitter. */
export const DEFAULT_RETRY_BACKOFF: BackoffPolicy = { initialMs: 200, maxMs: 5_000, multiplier: 2, jitter: 0.5 };

/** Defaults for WebSocket reconnects: 250 ms, doubling, up to 10 s, half jitter. */
export const DEFAULT_RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 10_000, multiplier: 2, jitter: 0.5 };

/**
 * The delay before retry number `attempt` (0-based), in ms.
 * @param random a uniform sample in [0, 1).
 */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const raw = Math.min(policy.maxMs, policy.initialMs * Math.pow(policy.multiplier, Math.max(0, attempt)));
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  return raw * (1 - jitter) + raw * jitter * random();
}

/**
 * Parses an HTTP `Retry-After` header (delta seconds or an HTTP date) into a delay in ms from
 * `nowMs`; undefined when absent or unparsable. Never negative.
 */
export function parseRetryAfterMs(header: string | readonly string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(v)) return Math.max(0, Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** What a throttling answer's headers say: when to come back, and the advertised sustained limit. */
export interface RateLimitHints {
  readonly retryAfterMs?: number;
  /** Requests per second the venue advertises (`RateLimit-Policy: <quota>;w=<seconds>`). */
  readonly rateLimitPerSec?: number;
}

/**
 * Reads `Retry-After`, else the reset of an exhausted `RateLimit-*` / `X-RateLimit-*` window
 * (`*-Remaining: 0` with `*-Reset` in delta seconds, or epoch seconds when larger than 1e9), and
 * the IETF draft's `RateLimit-Policy: q;w=s` as a sustained rate. Absent or unparsable → omitted.
 */
export function parseRateLimitHints(headers: Readonly<Record<string, string | readonly string[] | undefined>>, nowMs: number): RateLimitHints {
  const one = (name: string): string | undefined => {
    const v = headers[name];
    const s = Array.isArray(v) ? v[0] : v;
    return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
  };
  let retryAfterMs = parseRetryAfterMs(headers['retry-after'], nowMs);
  if (retryAfterMs === undefined) {
    for (const prefix of ['ratelimit', 'x-ratelimit']) {
      const remaining = one(`${prefix}-remaining`);
      const reset = Number(one(`${prefix}-reset`));
      if (remaining !== undefined && Number(remaining) <= 0 && Number.isFinite(reset) && reset >= 0) {
        retryAfterMs = Math.max(0, reset > 1e9 ? reset * 1000 - nowMs : reset * 1000);
        break;
      }
    }
  }
  let rateLimitPerSec: number | undefined;
  const policy = /^\s*([0-9]+(?:\.[0-9]+)?)\s*;\s*w\s*=\s*([0-9]+(?:\.[0-9]+)?)/.exec(one('ratelimit-policy') ?? '');
  if (policy && Number(policy[2]) > 0) rateLimitPerSec = Number(policy[1]) / Number(policy[2]);
  return { ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), ...(rateLimitPerSec !== undefined ? { rateLimitPerSec } : {}) };
}

/** Resolves after `ms` on the injected clock's timer. */
export function sleepOn(setTimer: (ms: number, fn: () => void) => () => void, ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimer(ms, resolve);
  });
}
