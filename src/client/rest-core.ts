import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';
import type { Result } from '../core/result.ts';
import { backoffDelayMs, DEFAULT_RETRY_BACKOFF, parseRateLimitHints, sleepOn, type BackoffPolicy } from './backoff.ts';
import { decodeError, httpError, tooLargeError, transportError, type RequestContext } from './http-errors.ts';
import { RequestTimedOut, ResponseTooLarge, type HttpResponse, type HttpTransport } from './http-transport.ts';
import type { TokenManager } from './token-manager.ts';
import { encodeQuery, parseJson } from './wire-port.ts';

/**
 * A query-string value; arrays are joined with commas (the venue's list convention), and a wire
 * enum the decoder kept as `{ unknown: raw }` is sent as its raw string.
 */
export type QueryValue = string | number | bigint | boolean | readonly string[] | { readonly unknown: string } | null | undefined;

/** What a decoder reports when a body does not match the wire type. */
export interface BodyDecodeError {
  readonly path: string;
  readonly message: string;
}

/** One REST call, described as data. */
export interface CallSpec<T> {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** A JSON body; `bodyText` (already encoded by wire/, e.g. u64 cids as integers) wins over it. */
  readonly body?: unknown;
  readonly bodyText?: string;
  /** False only for POST /api/authenticate and public reads. */
  readonly auth: boolean;
  /**
   * True when repeating the request cannot do harm (reads, cancels, cancel-all): only these are
   * retried on retryable failures. Place and replace are never repeated blind.
   */
  readonly safe: boolean;
  readonly decode: (body: unknown) => Result<T, BodyDecodeError>;
}

/** Counters for tests, metrics and health. */
export interface RestStats {
  requests: number;
  retries: number;
  unauthorized: number;
  reauthentications: number;
  failures: number;
}

/** Options of the REST core. */
export interface RestCoreOptions {
  readonly transport: HttpTransport;
  readonly clock: Clock;
  readonly tokens?: TokenManager;
  readonly retry?: BackoffPolicy;
  /** Retries after the first attempt for safe requests (default 4). */
  readonly maxRetries?: number;
  /** Per-attempt deadline, ms (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** Uniform [0, 1) source for jitter (default Math.random). */
  readonly random?: () => number;
  /**
   * A Retry-After longer than this is not waited out: the error is thrown at once (with
   * `details.retryAfterMs`) so the caller decides (default 10 s).
   */
  readonly maxRetryAfterMs?: number;
}

/** Builds `path?query` with the venue's conventions (lists comma-joined, absent values dropped). */
export function withQuery(path: string, query?: Readonly<Record<string, QueryValue>>): string {
  const qs = query ? encodeQuery(query) : '';
  return qs === '' ? path : `${path}?${qs}`;
}

/**
 * The request engine under every REST method: bearer token, one re-authentication on 401, error
 * mapping to the catalog, and retries with exponential backoff + jitter (honouring Retry-After)
 * for safe requests only.
 */
export class RestCore {
  readonly stats: RestStats = { requests: 0, retries: 0, unauthorized: 0, reauthentications: 0, failures: 0 };
  readonly #o: RestCoreOptions;
  readonly #retry: BackoffPolicy;
  readonly #random: () => number;

  constructor(opts: RestCoreOptions) {
    this.#o = opts;
    this.#retry = opts.retry ?? DEFAULT_RETRY_BACKOFF;
    this.#random = opts.random ?? Math.random;
  }

  /**
   * Performs `spec`.
   * @throws MmError with a catalog code; `retryable` ones are TIMEOUT / NETWORK_ERROR (outcome
   * unknown for unsafe requests), RATE_LIMITED, VENUE_UNAVAILABLE, SERVER_ERROR, GATEWAY_TIMEOUT...
   */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    const ctx: RequestContext = { method: spec.method, path: spec.path };
    const path = withQuery(spec.path, spec.query);
    const body = spec.bodyText ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    const maxRetries = spec.safe ? (this.#o.maxRetries ?? 4) : 0;
    let reauthed = false;
    for (let attempt = 0; ; ) {
      const token = spec.auth ? await this.#token() : undefined;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      let res: HttpResponse;
      let failure: MmError;
      this.stats.requests++;
      try {
        res = await this.#o.transport.request({
          method: spec.method,
          path,
          headers,
          ...(body !== undefined ? { body } : {}),
          timeoutMs: this.#o.requestTimeoutMs ?? 10_000,
        });
      } catch (e) {
        if (e instanceof ResponseTooLarge) {
          // The same request would bring the same answer: no retry.
          this.stats.failures++;
          throw tooLargeError(e, ctx);
        }
        failure = transportError(e, ctx, e instanceof RequestTimedOut);
        if (attempt < maxRetries) {
          await this.#wait(attempt++, undefined);
          continue;
        }
        this.stats.failures++;
        throw failure;
      }
      if (res.status === 401 && spec.auth && !reauthed && this.#o.tokens) {
        // A 401 means the venue did not act on the request, so one retry is safe even for a place.
        this.stats.unauthorized++;
        this.stats.reauthentications++;
        reauthed = true;
        await this.#o.tokens.renew(token);
        continue;
      }
      if (res.status === 401) this.stats.unauthorized++;
      if (res.status >= 200 && res.status < 300) return this.#decode(res.text, spec, ctx);
      const { retryAfterMs, rateLimitPerSec } = parseRateLimitHints(res.headers, this.#o.clock.nowMs());
      failure = httpError(res.status, res.text, ctx, retryAfterMs, rateLimitPerSec);
      const waitable = retryAfterMs === undefined || retryAfterMs <= (this.#o.maxRetryAfterMs ?? 10_000);
      if (failure.retryable && attempt < maxRetries && waitable) {
        await this.#wait(attempt++, retryAfterMs);
        continue;
      }
      this.stats.failures++;
      throw failure;
    }
  }

  async #token(): Promise<string> {
    if (!this.#o.tokens) throw new MmError('UNAUTHORIZED', 'this REST client has no credentials; authenticated endpoints are unavailable');
    return this.#o.tokens.token();
  }

  async #wait(attempt: number, retryAfterMs: number | undefined): Promise<void> {
    this.stats.retries++;
    const backoff = backoffDelayMs(this.#retry, attempt, this.#random);
    // Retry-After is the venue telling us when it will have budget: never retry sooner.
    const delay = retryAfterMs !== undefined ? Math.max(retryAfterMs, backoff) : backoff;
    await sleepOn((ms, fn) => this.#o.clock.setTimer(ms, fn), delay);
  }

  #decode<T>(text: string, spec: CallSpec<T>, ctx: RequestContext): T {
    let value: unknown;
    if (text.trim() === '') value = {};
    else {
      try {
        // Order bodies carry u64 cids that a plain JSON.parse would round above 2^53.
        value = parseJson(text);
      } catch (e) {
        throw new MmError('DECODE_FAILED', `${ctx.method} ${ctx.path}: response is not JSON: ${(e as Error).message}`, {
          method: ctx.method,
          path: ctx.path,
        });
      }
    }
    const r = spec.decode(value);
    if (!r.ok) throw decodeError(ctx, r.error);
    return r.value;
  }
}
