import { Pool } from 'undici';
import type { Clock } from '../core/clock.ts';

/** One HTTP request as the REST client builds it; `path` includes the query string. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Deadline for the whole exchange (headers and body), ms on the injected clock. */
  readonly timeoutMs: number;
}

/** A raw HTTP answer: status, lower-cased headers, body text. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** Thrown by a transport when its own deadline aborted the request (the outcome is unknown). */
export class RequestTimedOut extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = 'RequestTimedOut';
  }
}

/** The I/O edge of the REST client: swap in a fake for unit tests. */
export interface HttpTransport {
  /** Performs the request; rejects with RequestTimedOut on deadline, or the transport error. */
  request(req: HttpRequest): Promise<HttpResponse>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

/** Options of the undici transport. */
export interface UndiciTransportOptions {
  readonly clock: Clock;
  /** Max parallel keep-alive connections to the venue (default 8). */
  readonly connections?: number;
  /** Idle keep-alive time before a pooled socket is closed, ms (default 30 s). */
  readonly keepAliveMs?: number;
}

/**
 * A keep-alive connection pool (undici Pool) to one origin. The request deadline runs on the
 * injected clock and aborts the request; undici's own socket timers are only a backstop.
 */
export function undiciTransport(baseUrl: string, opts: UndiciTransportOptions): HttpTransport {
  const origin = new URL(baseUrl).origin;
  const pool = new Pool(origin, {
    connections: opts.connections ?? 8,
    keepAliveTimeout: opts.keepAliveMs ?? 30_000,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const ac = new AbortController();
      let timedOut = false;
      const cancel = opts.clock.setTimer(req.timeoutMs, () => {
        timedOut = true;
        ac.abort(new RequestTimedOut(req.timeoutMs));
      });
      try {
        const res = await pool.request({
          method: req.method,
          path: req.path,
          headers: req.headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
          signal: ac.signal,
        });
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers, text };
      } catch (e) {
        if (timedOut) throw new RequestTimedOut(req.timeoutMs);
        throw e;
      } finally {
        cancel();
      }
    },
    close: () => pool.close(),
  };
}
