import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoutes } from '../../obs/health-server.ts';
import { actorOf, authMessage, checkBearer } from './auth.ts';
import { routeAction } from './action-routes.ts';
import type { ConsoleController } from './controller.ts';

/** What the routes need. */
export interface ConsoleRoutesDeps {
  readonly controller: Pick<ConsoleController, 'act' | 'unauthorized' | 'rejected'>;
  readonly token: string;
  readonly readsRequireToken: boolean;
  /** The read model (GET /api/v1/state, and each `state` event of the stream). */
  state(): unknown;
  /** The chart series (GET /api/v1/history, and the stream's first `history` event). */
  history(): unknown;
  /** Registers a listener called when something the page should show at once happened; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Bounds of the event stream (defaults: STREAM_DEFAULTS). */
  readonly stream?: Partial<StreamLimits>;
  /** Where stream refusals and drops are reported (one line each). */
  readonly log?: { warn(obj: object, msg?: string): void };
}

/** Bounds of `/api/v1/events`. */
export interface StreamLimits {
  /**
   * Open streams at most; the next one is answered 503 (monitoring.control.max_stream_clients).
   * Streams without the token share a quarter of them (`anonymousStreamCap`), so the rest stays
   * for the operator: 32 anonymous `curl -N` cannot lock the token holder's page out.
   */
  readonly maxClients: number;
  /** A client whose unsent data passes this is dropped: it stopped reading (a stalled tab, a flood). */
  readonly maxBufferBytes: number;
  /** A state is pushed at least this often. */
  readonly intervalMs: number;
}

/** 32 streams, 1 MiB unsent each (some 50 states), a state a second. */
export const STREAM_DEFAULTS: StreamLimits = { maxClients: 32, maxBufferBytes: 1024 * 1024, intervalMs: 1_000 };

/** Streams without a valid token at most (when a token is configured): a quarter of `maxClients`, at least one. */
export const anonymousStreamCap = (maxClients: number): number => Math.max(1, Math.floor(maxClients / 4));

/** Console responses may not be framed by any page (clickjacking of the action buttons). */
const NO_FRAMING = { 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' } as const;

/** Changes (a fill, an action) are pushed after this much quiet, coalescing bursts. */
const STREAM_DEBOUNCE_MS = 100;
const MAX_BODY_BYTES = 64 * 1024;

let page: string | undefined;
const pageHtml = (): string => (page ??= readFileSync(new URL('./page.html', import.meta.url), 'utf8'));

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...NO_FRAMING, ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/** A body refused for its size: answered 413, not a reset connection. */
class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new BodyTooLarge(`body of ${declared} bytes is over the ${MAX_BODY_BYTES}-byte limit`));
      return;
    }
    let size = 0;
    let over = false;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        // Answered at once (413); the rest is read and discarded so the client sees the answer
        // rather than a reset, and the connection closes after it.
        over = true;
        chunks.length = 0;
        reject(new BodyTooLarge(`body over the ${MAX_BODY_BYTES}-byte limit`));
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (over) return;
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      try {
        const v: unknown = JSON.parse(text);
        if (v === null || typeof v !== 'object' || Array.isArray(v)) reject(new Error('body must be a JSON object'));
        else resolve(v as Record<string, unknown>);
      } catch (e) {
        reject(new Error(`body is not JSON: ${e instanceof Error ? e.message : String(e)}`));
      }
    });
    req.on('error', reject);
  });
}

/**
 * The console's routes on the metrics server: `GET /` (the page), `GET /api/v1/state`,
 * `GET /api/v1/history`, `GET /api/v1/events` (server-sent events: `history` once, then `state`
 * every second and at once after fills and actions), and the actions (POST, bearer token required):
 * `/api/v1/strategies/<id>/pause|resume|flatten|params`, `/api/v1/cancel-all`,
 * `/api/v1/kill-switch/trip` (body `{ detail? }`), `/api/v1/kill-switch/reset`, `/api/v1/reload`.
 */
export function consoleRoutes(deps: ConsoleRoutesDeps): HttpRoutes {
  const { controller } = deps;
  const limits: StreamLimits = { ...STREAM_DEFAULTS, ...deps.stream };
  let streams = 0;
  let anonymous = 0;
  const readAllowed = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!deps.readsRequireToken) return true;
    const f = checkBearer(req, deps.token);
    if (f === null) return true;
    controller.unauthorized('read', actorOf(req), f === 'acting-disabled' ? 'missing-token' : f);
    json(res, 401, { ok: false, message: authMessage(f === 'acting-disabled' ? 'missing-token' : f) }, { 'www-authenticate': 'Bearer' });
    return false;
  };

  const stream = (req: IncomingMessage, res: ServerResponse): void => {
    const head = { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no', ...NO_FRAMING };
    // HEAD learns the headers and holds nothing: no slot, no timers.
    if (req.method === 'HEAD') {
      res.writeHead(200, head);
      res.end();
      return;
    }
    const withToken = deps.token !== '' && checkBearer(req, deps.token) === null;
    // No token configured: nobody can prove to be the operator, so there is nothing to reserve.
    const anonymousCap = deps.token === '' ? limits.maxClients : anonymousStreamCap(limits.maxClients);
    if (streams >= limits.maxClients || (!withToken && anonymous >= anonymousCap)) {
      const full = streams >= limits.maxClients;
      deps.log?.warn(
        { actor: actorOf(req), streams, anonymous },
        full
          ? `console: event stream refused (503): ${streams} open, the most monitoring.control.max_stream_clients allows`
          : `console: event stream without the token refused (503): ${anonymous} open, the most for streams without the token (a quarter of monitoring.control.max_stream_clients; the rest is kept for the token)`,
      );
      const message = full ? `too many event streams open (${streams}); try again later` : `too many event streams without the token open (${anonymous}); send the control token or try again later`;
      json(res, 503, { ok: false, message }, { 'retry-after': '5' });
      return;
    }
    streams++;
    if (!withToken) anonymous++;
    res.writeHead(200, { ...head, connection: 'keep-alive' });
    let dropped = false;
    const send = (event: string, data: unknown): void => {
      if (dropped) return;
      // A reader that stopped reading leaves its data in our buffer: past the bound it is dropped
      // rather than held (memory) with its descriptor (which /readyz needs).
      if (res.writableLength > limits.maxBufferBytes) {
        dropped = true;
        deps.log?.warn({ actor: actorOf(req), bufferedBytes: res.writableLength }, `console: dropped an event stream that stopped reading (${res.writableLength} bytes unsent, bound ${limits.maxBufferBytes})`);
        res.destroy();
        return;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    send('history', deps.history());
    send('state', deps.state());
    let pending: ReturnType<typeof setTimeout> | undefined;
    const push = (): void => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        send('state', deps.state());
      }, STREAM_DEBOUNCE_MS);
    };
    const timer = setInterval(() => send('state', deps.state()), limits.intervalMs);
    const sampleTimer = setInterval(() => send('history', deps.history()), 30_000);
    const off = deps.onChange(push);
    res.on('close', () => {
      streams--;
      if (!withToken) anonymous--;
      clearInterval(timer);
      clearInterval(sampleTimer);
      clearTimeout(pending);
      off();
    });
  };

  // Every POST: the token first (401 before the path is even parsed or a body read), then the route.
  const act = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const actor = actorOf(req);
    const route = routeAction(path);
    const f = checkBearer(req, deps.token);
    if (f !== null) {
      // Metric labels stay bounded: a path that names no action is counted as "unknown".
      controller.unauthorized(route.ok ? route.action : 'unknown', actor, f);
      json(res, 401, { ok: false, message: authMessage(f) }, { 'www-authenticate': 'Bearer' });
      return;
    }
    if (!route.ok) {
      controller.rejected(actor, route.status, route.message);
      json(res, route.status, { ok: false, message: route.message });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = await readBody(req);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof BodyTooLarge) {
        controller.rejected(actor, 413, message);
        req.resume();
        json(res, 413, { ok: false, message }, { connection: 'close' });
      } else json(res, 400, { ok: false, message });
      return;
    }
    const r = await controller.act(route.action, route.target, body, actor);
    json(res, r.status, r.body);
  };

  return {
    // /metrics shows what state shows (position, PnL, open orders): the same rule guards it.
    authorizeRead: readAllowed,
    async handle(req, res) {
      const path = (req.url ?? '/').split('?')[0]!;
      const method = req.method ?? 'GET';
      if (method === 'GET' || method === 'HEAD') {
        if (path === '/' || path === '/index.html') {
          const html = pageHtml();
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(html), 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'" });
          res.end(method === 'HEAD' ? undefined : html);
          return true;
        }
        if (path === '/api/v1/state') {
          if (readAllowed(req, res)) json(res, 200, deps.state());
          return true;
        }
        if (path === '/api/v1/history') {
          if (readAllowed(req, res)) json(res, 200, deps.history());
          return true;
        }
        if (path === '/api/v1/events') {
          if (readAllowed(req, res)) stream(req, res);
          return true;
        }
        if (path.startsWith('/api/')) {
          json(res, 405, { ok: false, message: `${path}: not a read endpoint (actions are POST)` }, { allow: 'POST' });
          return true;
        }
        return false;
      }
      if (method !== 'POST') {
        if (!path.startsWith('/api/')) return false;
        json(res, 405, { ok: false, message: `method ${method} not allowed` }, { allow: 'GET, POST' });
        return true;
      }
      await act(req, res, path);
      return true;
    },
  };
}
