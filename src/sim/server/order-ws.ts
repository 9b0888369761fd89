import type { WebSocket } from 'ws';
import { encodeOrderWsEvent, encodeOrderWsReply, type WireOrderWsReply } from '../../wire/index.ts';
import type { Session } from '../auth/auth-service.ts';
import type { VenuePluginContext } from '../plugin.ts';
import type { VenueOrderEvent } from '../types.ts';
import { requireCancel, requireOrderEntry, requirePermission, resolveAccount, type AccountAccess } from './access.ts';
import { HttpError, parseJsonText } from './http-kit.ts';
import { parsePlace, parseRef, parseReplace } from './request-parse.ts';
import { toWireEvent, toWireOrder, toWireStatus, tsTn } from './wire-out.ts';
import type { WsConnectionContext } from './ws-registry.ts';

interface OrderWsParams {
  readonly access: AccountAccess;
  readonly cod: boolean;
  readonly heartbeatTimeoutMs: number | null;
}

function parseParams(ctx: Omit<WsConnectionContext, 'state'>, venue: VenuePluginContext['venue']): OrderWsParams {
  const q = ctx.url.searchParams;
  const access = resolveAccount(venue, ctx.session!, q.get('account_id') ?? undefined);
  requirePermission(access, 'can_read');
  const codRaw = q.get('cancel_on_disconnect');
  if (codRaw !== null && codRaw !== 'true' && codRaw !== 'false') throw new HttpError(400, 'cancel_on_disconnect must be true or false');
  const hbRaw = q.get('client_heartbeat_timeout');
  let hb: number | null = null;
  if (hbRaw !== null) {
    const n = Number(hbRaw);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(hbRaw) || !(n > 0) || n > 300) throw new HttpError(400, 'client_heartbeat_timeout must be a number of seconds in (0, 300]');
    hb = n * 1000;
  }
  return { access, cod: codRaw === 'true', heartbeatTimeoutMs: hb };
}

/** Live order-WS sessions per account, oldest first (for session hand-over on a planned close). */
type SessionRegistry = Map<string, Set<OrderWsSession>>;

/** The order-entry WebSocket at /orders/ws (and the legacy /ws/orders). */
export function registerOrderWs(pctx: VenuePluginContext): void {
  const { venue, ws: registry } = pctx;
  const sessions: SessionRegistry = new Map();
  const handler = {
    accept: (ctx: Omit<WsConnectionContext, 'state'>) => parseParams(ctx, venue),
    onConnection: (socket: WebSocket, ctx: WsConnectionContext) => new OrderWsSession(pctx, socket, ctx.session!, ctx.state as OrderWsParams, sessions),
  };
  registry.register('/orders/ws', handler);
  registry.register('/ws/orders', handler);
}

let sessionSeq = 0;

/**
 * One order-WS connection: login reply, request dispatch, event stream, heartbeats, token expiry,
 * cancel-on-disconnect.
 *
 * Cancel-on-disconnect is per connection (docs/venue-protocol.md §3.1: the orders placed on that
 * connection are canceled when it drops; orders from other connections or from REST stay). The
 * venue says nothing of a session moving to a new connection; our reading, which the
 * client's make-before-break token rollover relies on: when the client closes a connection cleanly
 * (close code 1000) while a newer cod connection of the same user and account is logged in, the
 * session moves to that connection and its orders stay (they are cancelled if *that* one drops).
 * Any other end (network drop, heartbeat deadline, token expiry, no successor) cancels them.
 */
class OrderWsSession {
  readonly #p: VenuePluginContext;
  readonly #ws: WebSocket;
  readonly #session: Session;
  readonly #params: OrderWsParams;
  readonly #connId: string;
  readonly #unsubscribe: () => void;
  #handling = false;
  #buffer: string[] = [];
  #cancelServerHb: () => void = () => undefined;
  #cancelClientHb: () => void = () => undefined;
  #cancelExpiry: () => void = () => undefined;
  /** Set when we close the connection ourselves (its end is then never a client's planned close). */
  #serverClosing = false;
  readonly #seq = ++sessionSeq;
  readonly #sessions: SessionRegistry;

  constructor(p: VenuePluginContext, ws: WebSocket, session: Session, params: OrderWsParams, sessions: SessionRegistry) {
    this.#p = p;
    this.#ws = ws;
    this.#session = session;
    this.#params = params;
    this.#sessions = sessions;
    const venue = p.venue;
    this.#connId = `ws-${venue.ids.ulid()}`;
    const peers = sessions.get(params.access.accountId) ?? new Set<OrderWsSession>();
    sessions.set(params.access.accountId, peers.add(this));
    this.#unsubscribe = venue.onOrderEvent(params.access.accountId, (e) => this.#onEvent(e));
    const open = [...venue.accounts.account(params.access.accountId)!.open].map((o) => toWireOrder(venue, o));
    this.#send(encodeOrderWsReply({ rid: 0, res: { li: session.userId, o: open.length === 0 ? null : open, cod: params.cod } }));
    this.#armServerHeartbeat();
    this.#armClientDeadline();
    this.#armExpiry();
    ws.on('message', (data) => this.#onMessage(String(data)));
    ws.on('close', (code: number) => this.#onClose(code));
    ws.on('error', () => undefined);
  }

  #send(text: string): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(text);
  }

  #onEvent(e: VenueOrderEvent): void {
    const text = encodeOrderWsEvent(toWireEvent(this.#p.venue, e));
    if (this.#handling) this.#buffer.push(text);
    else this.#send(text);
  }

  #armServerHeartbeat(): void {
    const every = this.#p.config.server_heartbeat_ms;
    this.#cancelServerHb = this.#p.ioClock.setTimer(every, () => {
      this.#send(encodeOrderWsEvent({ t: 'h', ...tsTn(this.#p.venue.clock.nowNs()) }));
      this.#armServerHeartbeat();
    });
  }

  #armClientDeadline(): void {
    this.#cancelClientHb();
    const ms = this.#params.heartbeatTimeoutMs;
    if (ms === null) return;
    // Only client heartbeats re-arm this deadline; on expiry the session ends like a disconnect.
    this.#cancelClientHb = this.#p.ioClock.setTimer(ms, () => this.#closeByServer(4000, 'client heartbeat timeout'));
  }

  /** The venue ends the session when the token of its upgrade expires (venue clock). */
  #armExpiry(): void {
    if (!this.#p.config.tokens.close_order_ws_on_expiry) return;
    const venue = this.#p.venue;
    this.#cancelExpiry = venue.clock.setTimer(Math.max(0, this.#session.expiresMs - venue.clock.nowMs()), () => this.#closeByServer(4001, 'session token expired'));
  }

  #closeByServer(code: number, reason: string): void {
    this.#serverClosing = true;
    this.#ws.close(code, reason);
  }

  /** A newer live cod connection of the same user and account, to hand the session to. */
  #successor(): OrderWsSession | undefined {
    let best: OrderWsSession | undefined;
    for (const s of this.#sessions.get(this.#params.access.accountId) ?? []) {
      if (s === this || !s.#params.cod || s.#serverClosing || s.#session.userId !== this.#session.userId) continue;
      if (s.#seq > this.#seq && s.#ws.readyState === s.#ws.OPEN && (!best || s.#seq > best.#seq)) best = s;
    }
    return best;
  }

  #onClose(code: number): void {
    this.#unsubscribe();
    this.#cancelServerHb();
    this.#cancelClientHb();
    this.#cancelExpiry();
    const peers = this.#sessions.get(this.#params.access.accountId);
    peers?.delete(this);
    if (peers?.size === 0) this.#sessions.delete(this.#params.access.accountId);
    if (!this.#params.cod) return;
    const next = code === 1000 && !this.#serverClosing ? this.#successor() : undefined;
    if (next) this.#p.venue.engine.moveConnection(this.#connId, next.#connId);
    else {
      this.#p.venue.cancelAll(this.#params.access.accountId, { connId: this.#connId }, '', 'cancel on disconnect');
      this.#p.venue.engine.releaseConnection(this.#connId);
    }
  }

  #onMessage(text: string): void {
    let rid = -1;
    this.#handling = true;
    let reply: WireOrderWsReply | null = null;
    try {
      const msg = parseJsonText(text);
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new HttpError(400, 'message must be a JSON object');
      const m = msg as Record<string, unknown>;
      if (typeof m['rid'] !== 'number' || !Number.isInteger(m['rid'])) throw new HttpError(400, 'rid must be an integer');
      rid = m['rid'];
      if (!this.#p.venue.auth.isLive(this.#session.token)) {
        reply = { rid, err: { code: 401, msg: 'session token expired or revoked' } };
        setImmediate(() => this.#closeByServer(4001, 'token revoked'));
      } else {
        const res = this.#dispatch(m);
        reply = res === undefined ? null : ({ rid, res } as WireOrderWsReply);
      }
    } catch (e) {
      const status = e instanceof HttpError ? e.status : 500;
      reply = { rid, err: { code: status, msg: (e as Error).message } };
    }
    if (reply) this.#send(encodeOrderWsReply(reply));
    this.#handling = false;
    const buffered = this.#buffer;
    this.#buffer = [];
    for (const t of buffered) this.#send(t);
  }

  /** Takes one rate-limit token (a method, not a per-message closure: tsx's keepNames makes each closure cost a defineProperty). */
  #limit(): void {
    if (!this.#p.rateLimiter.take(this.#session.userId)) throw new HttpError(429, 'rate limit exceeded; slow down');
  }

  /** Runs one request; returns `res` (undefined = no reply, for heartbeats). */
  #dispatch(m: Record<string, unknown>): Record<string, unknown> | undefined {
    const venue = this.#p.venue;
    const acc = this.#params.access;
    const actor = { userId: this.#session.userId, accountId: acc.accountId, connId: this.#connId };
    switch (m['t']) {
      case 'h':
        this.#armClientDeadline();
        return undefined;
      case 'p': {
        const spec = parsePlace(m);
        requireOrderEntry(venue, acc, spec.symbol, spec.side, spec.qty);
        this.#limit();
        return { oid: venue.place(actor, spec).oid };
      }
      case 'x': {
        const ref = parseRef(m);
        requireCancel(acc);
        this.#limit();
        const r = venue.cancel(actor, ref);
        if (r.status === 'pending') throw new HttpError(409, 'order not yet acknowledged by exchange; retry shortly');
        return { cxl_rx: r.status === 'accepted' };
      }
      case 'X': {
        requireCancel(acc);
        if (m['symbol'] !== undefined && typeof m['symbol'] !== 'string') throw new HttpError(400, 'symbol must be a string');
        this.#limit();
        venue.cancelAll(acc.accountId, typeof m['symbol'] === 'string' ? { symbol: m['symbol'] } : {});
        return {};
      }
      case 'r': {
        const ref = parseRef(m);
        const spec = parseReplace(m);
        const orig = venue.engine.find(acc.accountId, ref);
        if (orig) requireOrderEntry(venue, acc, orig.symbol, orig.side, spec.qty ?? orig.remainingQty);
        this.#limit();
        const r = venue.replace(actor, ref, spec);
        if (r.status === 'pending') throw new HttpError(409, 'order not yet acknowledged by exchange; retry shortly');
        if (r.status !== 'accepted') throw new HttpError(404, 'no matching orders');
        return { oid: r.value.oid };
      }
      case 's': {
        const o = venue.engine.find(acc.accountId, parseRef(m));
        if (!o) throw new HttpError(404, 'no matching orders');
        return { status: toWireStatus(o) };
      }
      case 'o':
        return { orders: [...venue.accounts.account(acc.accountId)!.open].map((o) => toWireOrder(venue, o)) };
      case 'ef': {
        const symbol = m['symbol'];
        if (typeof symbol !== 'string') throw new HttpError(400, 'symbol is required');
        const est = venue.markets.has(symbol) ? venue.fundingEstimate(symbol) : null;
        if (!est) throw new HttpError(404, 'estimated funding rate is not available for this symbol');
        return est;
      }
      default:
        throw new HttpError(400, `unknown request type ${JSON.stringify(m['t'])}`);
    }
  }
}
