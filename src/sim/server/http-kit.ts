import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Session } from '../auth/auth-service.ts';
import type { Venue } from '../venue.ts';

/** A failure answered as `{"error": message}` with `status`. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What a route handler receives. */
export interface RouteContext {
  /** The request's headers (an in-process request has no socket behind it). */
  readonly req: { readonly headers: IncomingHttpHeaders };
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Parsed JSON body (u64 `cid` values kept as decimal strings), undefined when none. */
  readonly body: unknown;
  readonly ip: string;
  /** The caller's session; null only on routes registered with `auth: false`. */
  readonly session: Session | null;
  readonly venue: Venue;
}

/** A handler's answer: status and a wire body (encoded with the wire layer's REST encoder). */
export interface RouteResult {
  readonly status: number;
  readonly body: object;
}

/** A route handler; throw HttpError for failures. */
export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/** Route options: `auth: false` for public routes (authenticate, health, instruments). */
export interface RouteOptions {
  readonly auth?: boolean;
}

interface Route {
  readonly handler: RouteHandler;
  readonly auth: boolean;
}

/** Method + exact path router (the venue has no path parameters). */
export class Router {
  readonly #routes = new Map<string, Map<string, Route>>();

  /** Registers a route; re-registering a method+path replaces it (plugins may override). */
  add(method: string, path: string, handler: RouteHandler, opts: RouteOptions = {}): void {
    let byMethod = this.#routes.get(path);
    if (!byMethod) this.#routes.set(path, (byMethod = new Map()));
    byMethod.set(method.toUpperCase(), { handler, auth: opts.auth ?? true });
  }

  /** Shorthand for GET. */
  get(path: string, handler: RouteHandler, opts?: RouteOptions): void {
    this.add('GET', path, handler, opts);
  }

  /** Shorthand for POST. */
  post(path: string, handler: RouteHandler, opts?: RouteOptions): void {
    this.add('POST', path, handler, opts);
  }

  /** Finds a route: the route, 'method' when the path exists under another method, or undefined. */
  match(method: string, path: string): Route | 'method' | undefined {
    const byMethod = this.#routes.get(path);
    if (!byMethod) return undefined;
    return byMethod.get(method.toUpperCase()) ?? 'method';
  }
}

/** 200 with `body`. */
export const ok = (body: object): RouteResult => ({ status: 200, body });

/** Writes an encoded JSON body (`dispatch`'s answer) with its length. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const CID_RE = /"(cid|clord_id)"\s*:\s*(\d{16,})/g;

/**
 * Parses JSON text keeping u64 ids exact: `cid` integers too long for a double are turned into
 * strings before JSON.parse.
 * @throws HttpError 400 on malformed JSON.
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text.replace(CID_RE, '"$1":"$2"'));
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

/** Reads the request body (at most 1 MiB) and parses it as JSON; undefined when empty. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > 1 << 20) throw new HttpError(413, 'request body too large');
    chunks.push(b);
  }
  if (size === 0) return undefined;
  return parseJsonText(Buffer.concat(chunks).toString('utf8'));
}

/** The peer address of a request (IPv4-mapped prefix kept; the allowlist normalises it). */
export const peerIp = (req: IncomingMessage): string => req.socket.remoteAddress ?? '';
