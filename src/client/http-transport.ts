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

/**
 * Thrown by a transport when a response body is over its cap: announced by `content-length`
 * (nothing of it read) or found while reading (reading stopped there, the connection dropped).
 */
export class ResponseTooLarge extends Error {
  constructor(
    readonly limitBytes: number,
    /** The announced length, or the bytes read when the cap was crossed. */
    readonly bytes: number,
    readonly announced: boolean,
  ) {
    super(`response body ${announced ? `announced as ${bytes} bytes` : `over ${limitBytes} bytes (${bytes} read)`}, cap ${limitBytes}`);
    this.name = 'ResponseTooLarge';
  }
}

/**
 * Default cap of one REST response body: the largest real answers (an instrument list, a page of
 * fills or orders) are well under 1 MiB; 16 MiB, the WS frame bound (wire/frame-limits.ts), leaves a
 * wide margin. Uncapped, a 400 MB answer to /api/instruments took the daemon to 1.39 GB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

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
  /** Largest response body read, bytes (default DEFAULT_MAX_RESPONSE_BYTES); over it: ResponseTooLarge. */
  readonly maxResponseBytes?: number;
}

/**
 * A keep-alive connection pool (undici Pool) to one origin. The request deadline runs on the
 * injected clock and aborts the request; undici's own socket timers are only a backstop. Bodies
 * are read up to `maxResponseBytes` and no further (ResponseTooLarge).
 */
export function undiciTransport(baseUrl: string, opts: UndiciTransportOptions): HttpTransport {
  const origin = new URL(baseUrl).origin;
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
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
        const text = await readCapped(res.body, res.headers['content-length'], maxBytes, ac);
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

/**
 * Reads a body as UTF-8 text, at most `maxBytes`: a larger `content-length` is refused before
 * reading, and a body that grows past the cap (chunked, or lying about its length) stops being read
 * at the chunk that crosses it; the request is aborted so the socket is not reused.
 * @throws ResponseTooLarge
 */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, contentLength: string | string[] | undefined, maxBytes: number, ac: AbortController): Promise<string> {
  const announced = typeof contentLength === 'string' ? Number(contentLength) : NaN;
  if (announced > maxBytes) {
    const err = new ResponseTooLarge(maxBytes, announced, true);
    ac.abort(err);
    body.destroy(err);
    throw err;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      const err = new ResponseTooLarge(maxBytes, total, false);
      ac.abort(err);
      body.destroy(err);
      throw err;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
