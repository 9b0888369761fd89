import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodeErrorBody, MAX_CLIENT_FRAME_BYTES } from '../../wire/index.ts';
import type { AuthFailure, Session } from '../auth/auth-service.ts';
import type { DropFilter } from '../knobs.ts';
import type { Venue } from '../venue.ts';
import { HttpError, peerIp } from './http-kit.ts';

/** What a WS path handler receives once the upgrade is accepted. */
export interface WsConnectionContext {
  readonly req: IncomingMessage;
  readonly url: URL;
  readonly ip: string;
  /** The authenticated session (null only for paths registered with `auth: false`). */
  readonly session: Session | null;
  /** Whatever `accept` returned (e.g. the resolved account). */
  readonly state: unknown;
}

/** A handler for one WS path (`/orders/ws`, `/md/ws`). */
export interface WsPathHandler {
  /** Default true: the upgrade needs a valid bearer token (401 before the upgrade otherwise). */
  readonly auth?: boolean;
  /**
   * Validates the upgrade before it happens (query parameters, account scope). Throw HttpError to
   * refuse with that status (403 / 400); the return value is passed on as `ctx.state`.
   */
  accept?(ctx: Omit<WsConnectionContext, 'state'>): unknown;
  /** Takes over the accepted socket. */
  onConnection(ws: WebSocket, ctx: WsConnectionContext): void;
}

/**
 * Checks the bearer token of an upgrade request (`Authorization: Bearer x` or the bare token):
 * the session, or the failure to answer (401 missing/invalid/expired/revoked, 403 IP not allowed).
 * Every WS path goes through this; sim-market's /md/ws gets it by registering with `auth: true`.
 */
export function authorizeUpgrade(venue: Venue, req: IncomingMessage): { ok: true; session: Session } | { ok: false; error: AuthFailure } {
  const r = venue.auth.resolve(req.headers.authorization, peerIp(req));
  return r.ok ? { ok: true, session: r.value } : { ok: false, error: r.error };
}

function refuse(socket: Duplex, status: number, message: string): void {
  const body = encodeErrorBody(message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

interface Tracked {
  readonly ws: WebSocket;
  readonly path: string;
  readonly userId: string | null;
}

/** Options of the WS registry. */
export interface WsRegistryOptions {
  /** Largest accepted client frame (default MAX_CLIENT_FRAME_BYTES); a bigger one closes the socket with 1009. */
  readonly maxPayloadBytes?: number;
  /** Where a refused oversize frame is reported, one line per connection (default stderr). */
  readonly warn?: (line: string) => void;
}

/** WS path registry and upgrade dispatcher; tracks sockets for the drop-connections knob and shutdown. */
export class WsRegistry {
  readonly #handlers = new Map<string, WsPathHandler>();
  readonly #wss: WebSocketServer;
  readonly #open = new Set<Tracked>();
  readonly #venue: Venue;
  readonly #warn: (line: string) => void;

  constructor(venue: Venue, options: WsRegistryOptions = {}) {
    this.#venue = venue;
    this.#wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: options.maxPayloadBytes ?? MAX_CLIENT_FRAME_BYTES });
    this.#warn = options.warn ?? ((line) => void process.stderr.write(`${line}\n`));
  }

  /** Registers (or replaces) the handler of `path`. */
  register(path: string, handler: WsPathHandler): void {
    this.#handlers.set(path, handler);
  }

  /** Handles an HTTP upgrade: auth, `accept`, then the handler. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = this.#handlers.get(url.pathname);
    if (!handler) return refuse(socket, 404, `no WebSocket endpoint at ${url.pathname}`);
    let session: Session | null = null;
    if (handler.auth !== false) {
      const a = authorizeUpgrade(this.#venue, req);
      if (!a.ok) return refuse(socket, a.error.status, a.error.message);
      session = a.session;
    }
    const base = { req, url, ip: peerIp(req), session };
    let state: unknown;
    try {
      state = handler.accept?.(base);
    } catch (e) {
      if (e instanceof HttpError) return refuse(socket, e.status, e.message);
      return refuse(socket, 500, (e as Error).message);
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const tracked: Tracked = { ws, path: url.pathname, userId: session?.userId ?? null };
      this.#open.add(tracked);
      ws.on('close', () => this.#open.delete(tracked));
      // ws reports a frame over maxPayload as one error and closes with 1009: counted and logged
      // here once for the connection (handlers may listen to 'error' too).
      ws.on('error', (e: Error & { code?: string }) => {
        if (e.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return;
        this.#warn(`venue: ${url.pathname} connection from ${base.ip} closed with 1009: ${e.message}`);
      });
      handler.onConnection(ws, { ...base, state });
    });
  }

  /** Terminates matching sockets abruptly (the drop-connections knob); returns how many. */
  drop(filter: DropFilter): number {
    let n = 0;
    for (const t of [...this.#open]) {
      if (filter.path !== undefined && t.path !== filter.path) continue;
      if (filter.userId !== undefined && t.userId !== filter.userId) continue;
      t.ws.terminate();
      n++;
    }
    return n;
  }

  /** Closes every socket (shutdown). */
  closeAll(): void {
    for (const t of this.#open) t.ws.terminate();
    this.#open.clear();
    this.#wss.close();
  }
}
