import type { IncomingHttpHeaders } from 'node:http';
import { encodeErrorBody, encodeRestBody } from '../../wire/index.ts';
import type { Venue } from '../venue.ts';
import { HttpError, type Router } from './http-kit.ts';

/** One request as the router sees it: from the HTTP server, or from an in-process client. */
export interface VenueRequest {
  readonly method: string;
  /** Path with its query string (`/api/ticker?symbol=X`). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  /** Reads and parses the JSON body; undefined when empty. @throws HttpError 400/413. */
  readBody(): Promise<unknown>;
}

/** The answer: status and the encoded JSON body (a wire body or `{"error": message}`). */
export interface VenueAnswer {
  readonly status: number;
  readonly text: string;
}

/**
 * Routes one request (404 unknown path, 405 wrong method, 401/403 auth, handler errors as
 * `{"error"}`): the one code path behind both the HTTP server and in-process clients, so an
 * in-process recording sees the very bodies a socket client would.
 */
export async function dispatch(venue: Venue, router: Router, r: VenueRequest): Promise<VenueAnswer> {
  const method = r.method;
  try {
    const url = new URL(r.url, 'http://localhost');
    const route = router.match(method, url.pathname);
    if (route === undefined) return fail(404, `no endpoint ${method} ${url.pathname}`);
    if (route === 'method') return fail(405, `method ${method} not allowed on ${url.pathname}`);
    let session = null;
    if (route.auth) {
      const a = venue.auth.resolve(r.headers.authorization, r.ip);
      if (!a.ok) return fail(a.error.status, a.error.message);
      session = a.value;
    }
    const body = method === 'GET' || method === 'HEAD' ? undefined : await r.readBody();
    const out = await route.handler({ req: { headers: r.headers }, method, path: url.pathname, query: url.searchParams, body, ip: r.ip, session, venue });
    return { status: out.status, text: encodeRestBody(out.body) };
  } catch (e) {
    if (e instanceof HttpError) return fail(e.status, e.message);
    return fail(500, `internal error: ${(e as Error).message}`);
  }
}

function fail(status: number, message: string): VenueAnswer {
  return { status, text: encodeErrorBody(message) };
}
