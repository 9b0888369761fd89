import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { codeForHttpStatus, MmError } from '../core/errors.ts';
import { Stage, stamp, stampWritten } from '../core/stage-stamps.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { OrderEvent } from '../domain/events.ts';
import type { FundingEstimate } from '../domain/funding.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Order, OrderStatus } from '../domain/order.ts';
import type { WireOrderWsReply, WireOrderWsRequest } from '../wire/index.ts';
import { DEFAULT_RECONNECT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { orderRef, placeBody, replaceBody } from './intent-wire.ts';
import { orderOpError, type OrderOp } from './order-errors.ts';
import { ReconnectingSocket } from './reconnecting-socket.ts';
import { SessionRollover } from './order-ws-rollover.ts';
import { RidCorrelator } from './rid-correlator.ts';
import { wsSocketFactory, type SocketFactory } from './socket.ts';
import type { DistributiveOmit, StreamConnection } from './stream-types.ts';
import { BearerUpgrade, type TokenSource } from './ws-bearer.ts';
import { heartbeatEveryMs, heartbeatTimeoutS, orderWsUrl, type OrderWsUpgradeOptions } from './order-ws-upgrade.ts';
import { replyCancelAccepted, replyFundingEstimate, replyOpenOrders, replyOrderId, replyStatus } from './order-ws-replies.ts';
import { decodeOrderWsFrame, encodeOrderRequest, frameSkipped, mapOrder, mapOrderEvent } from './wire-port.ts';

/** Options of the order-entry WebSocket client. */
export interface OrderWsClientOptions extends OrderWsUpgradeOptions {
  /** `ws://host:port` (the `/orders/ws` path is appended). */
  readonly wsUrl: string;
  readonly clock: Clock;
  readonly tokens: TokenSource;
  readonly instruments: InstrumentCatalog;
  /** Reply deadline per request, ms (default 5 s). */
  readonly requestTimeoutMs?: number;
  /** Deadline for the login reply after the upgrade, ms (default 5 s). */
  readonly loginTimeoutMs?: number;
  /** No frame at all for this long → reconnect, ms (default 60 s; 0 = off). */
  readonly idleTimeoutMs?: number;
  readonly reconnect?: BackoffPolicy;
  /**
   * Make-before-break rollover once the session's token has lived this fraction of its lifetime
   * (default 0.75; the token manager refreshes at 0.6, the venue closes the socket at 1.0).
   */
  readonly rolloverAtFraction?: number;
  readonly socketFactory?: SocketFactory;
  readonly random?: () => number;
}

/** Counters for metrics, health and tests. */
export interface OrderWsStats {
  framesIn: number;
  malformed: number;
  unmapped: number;
  lateReplies: number;
  heartbeatsSent: number;
  logins: number;
  requests: number;
  /** Queries asked again on the new session because a rollover closed the old one before their reply. */
  rolloverRetries: number;
}

/** Requests that change nothing at the venue, so sending them again is safe. */
const READ_ONLY_OPS: ReadonlySet<OrderOp> = new Set<OrderOp>(['status', 'open-orders', 'estimated-funding']);

type Reply = WireOrderWsReply;
/** Requests the client builds: the wire request without rid. */
type RequestBody = DistributiveOmit<WireOrderWsRequest, 'rid'>;

/**
 * The order-entry WebSocket: bearer upgrade with cancel-on-disconnect, login snapshot, rid-matched
 * requests with deadlines, heartbeats, reconnect with jittered backoff and a resync (the venue's
 * open orders) after every login. Requests while not logged in fail fast with DISCONNECTED.
 */
export class OrderWsClient {
  readonly stats: OrderWsStats = { framesIn: 0, malformed: 0, unmapped: 0, lateReplies: 0, heartbeatsSent: 0, logins: 0, requests: 0, rolloverRetries: 0 };
  readonly #o: OrderWsClientOptions;
  readonly #socket: ReconnectingSocket;
  readonly #rids: RidCorrelator<Reply>;
  readonly #events = new Subject<OrderEvent>();
  readonly #resync = new Subject<readonly Order[]>();
  readonly #errors = new Subject<MmError>();
  readonly #connection: BehaviorSubject<StreamConnection>;
  #loggedIn = false;
  readonly #bearer: BearerUpgrade;
  #cancelLoginTimer: (() => void) | undefined;
  #cancelHeartbeat: (() => void) | undefined;
  #login: { readonly loginId: string; readonly cancelOnDisconnect: boolean } | undefined;
  readonly #rollover: SessionRollover;

  constructor(opts: OrderWsClientOptions) {
    this.#o = opts;
    this.#rids = new RidCorrelator<Reply>(opts.clock);
    this.#bearer = new BearerUpgrade(opts.tokens);
    this.#connection = new BehaviorSubject<StreamConnection>({ stream: 'orders', connected: false, tsRecv: opts.clock.nowMs(), reason: 'not started' });
    this.#socket = new ReconnectingSocket({
      name: 'orders',
      clock: opts.clock,
      factory: opts.socketFactory ?? wsSocketFactory,
      prepare: () => this.#prepare(),
      backoff: opts.reconnect ?? DEFAULT_RECONNECT_BACKOFF,
      random: opts.random ?? Math.random,
      connectTimeoutMs: 10_000,
      idleTimeoutMs: opts.idleTimeoutMs ?? 60_000,
      onOpen: () => this.#onOpen(),
      onFrame: (text) => this.#onFrame(text),
      onDown: (info) => {
        this.#bearer.refused(info.httpStatus);
        if (info.httpStatus !== undefined && info.httpStatus !== 401 && info.httpStatus >= 400 && info.httpStatus < 500) {
          // 403 (account not allowed) or 400 (malformed account id) will not heal by itself: say so loudly.
          this.#errors.next(new MmError(codeForHttpStatus(info.httpStatus), `order WS upgrade refused with HTTP ${info.httpStatus}; retrying with backoff`, { status: info.httpStatus, accountId: this.#o.accountId }));
        }
        this.#onDown(info.reason);
      },
    });
    this.#rollover = new SessionRollover({
      clock: opts.clock,
      socket: this.#socket,
      bearer: this.#bearer,
      url: () => orderWsUrl(this.#o.wsUrl, this.#o),
      isLogin: (text) => {
        const d = decodeOrderWsFrame(text);
        return d.ok && !('t' in d.value) && d.value.rid === 0 && !!d.value.res && 'li' in d.value.res;
      },
      onOldFrame: (text) => this.#onFrame(text),
      inFlightAtSwitch: () => {
        const rids = this.#rids.pendingRids();
        return {
          settled: () => rids.every((rid) => !this.#rids.isPending(rid)),
          abandon: () => {
            for (const rid of rids) {
              this.#rids.reject(rid, new MmError('TIMEOUT', `the order session rolled over before the reply to rid ${rid}; the outcome is unknown`, { rid, sent: true, rolledOver: true }));
            }
          },
        };
      },
      onRolled: () => undefined,
      atFraction: opts.rolloverAtFraction,
      loginTimeoutMs: opts.loginTimeoutMs ?? 5_000,
    });
  }

  /** Planned make-before-break session rollovers completed (no cancel-on-disconnect), and attempts that failed. */
  get rollovers(): { readonly done: number; readonly failed: number } {
    return { done: this.#rollover.rollovers, failed: this.#rollover.failures };
  }

  /** Order lifecycle events, in venue order (hot: subscribe before `start`). */
  get events$(): Observable<OrderEvent> {
    return this.#events.asObservable();
  }

  /** The venue's open orders after every login (first connect and each reconnect). */
  get resync$(): Observable<readonly Order[]> {
    return this.#resync.asObservable();
  }

  /** Logged-in / lost, with the reason (current state replayed on subscribe). */
  get connection$(): Observable<StreamConnection> {
    return this.#connection.asObservable();
  }

  /** Frames that could not be decoded or mapped (counted and skipped), for logs. */
  get errors$(): Observable<MmError> {
    return this.#errors.asObservable();
  }

  /** True while a session is logged in (requests can be sent). */
  get connected(): boolean {
    return this.#loggedIn;
  }

  /** The current session's login id and whether cancel-on-disconnect is active, when logged in. */
  get login(): { readonly loginId: string; readonly cancelOnDisconnect: boolean } | undefined {
    return this.#login;
  }

  /** Sessions lost or attempts failed since start. */
  get reconnects(): number {
    return this.#socket.downs;
  }

  /** Starts connecting. */
  start(): void {
    this.#socket.start();
  }

  /** Closes the session for good; pending requests fail with DISCONNECTED-like TIMEOUT. */
  async stop(): Promise<void> {
    await this.#socket.stop();
    this.#onDown('stopped');
    this.#events.complete();
    this.#resync.complete();
    this.#errors.complete();
    this.#connection.complete();
  }

  /** Forces the session to drop and reconnect (e.g. a heartbeat watchdog tripped upstream). */
  reconnect(reason: string): void {
    this.#socket.reconnect(reason);
  }

  /**
   * Places an order. Resolves when the venue accepted the request (its fate arrives as events).
   * @throws MmError DISCONNECTED (not sent), TIMEOUT (sent, outcome unknown), ORDER_REJECTED,
   * RATE_LIMITED...
   */
  async place(intent: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    stamp(Stage.request);
    const body = { t: 'p' as const, ...placeBody(intent, this.#o.instruments) };
    const res = await this.#request('place', body, { clientOrderId: intent.clientOrderId });
    return { orderId: replyOrderId(res, 'place') };
  }

  /** Replaces (cancel-replace) an order; resolves with the replacement's venue id. */
  async replace(intent: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    stamp(Stage.request);
    const { aid: _aid, ...rest } = replaceBody(intent, this.#o.instruments);
    const res = await this.#request('replace', { t: 'r', ...rest }, { orderId: intent.orderId, clientOrderId: intent.clientOrderId });
    return { orderId: replyOrderId(res, 'replace') };
  }

  /** Requests a cancel; `accepted` is the venue's `cxl_rx` (accepted for processing, not done). */
  async cancel(intent: Pick<CancelOrder, 'orderId' | 'clientOrderId'>): Promise<{ readonly accepted: boolean }> {
    const res = await this.#request('cancel', { t: 'x', ...orderRef(intent.orderId, intent.clientOrderId) });
    return { accepted: replyCancelAccepted(res) };
  }

  /** Cancels every open order (of `symbol` when given). */
  async cancelAll(symbol: Symbol | null): Promise<void> {
    await this.#request('cancel-all', symbol === null ? { t: 'X' } : { t: 'X', symbol });
  }

  /** Order status by venue or client id; null when the venue does not know the order (404). */
  async status(ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }): Promise<OrderStatus | null> {
    try {
      const res = await this.#request('status', { t: 's', ...orderRef(ref.orderId, ref.clientOrderId) });
      return replyStatus(res);
    } catch (e) {
      if (e instanceof MmError && e.code === 'NOT_FOUND') return null;
      throw e;
    }
  }

  /** The account's open orders as the venue sees them now. */
  async openOrders(): Promise<readonly Order[]> {
    return replyOpenOrders(await this.#request('open-orders', { t: 'o' }), this.#o.instruments);
  }

  /** The venue's estimated funding for `symbol` (404 NOT_FOUND when it publishes none). */
  async estimatedFunding(symbol: Symbol): Promise<FundingEstimate> {
    return replyFundingEstimate(await this.#request('estimated-funding', { t: 'ef', symbol }));
  }

  async #request(op: OrderOp, body: RequestBody, ids: Record<string, unknown> = {}): Promise<unknown> {
    try {
      return await this.#requestOnce(op, body, ids);
    } catch (e) {
      // A query that lost its reply to a session rollover changes nothing at the venue: ask again on
      // the new session instead of failing the caller (a mutation's outcome stays unknown: the engine
      // reconciles it).
      if (!READ_ONLY_OPS.has(op) || !(e instanceof MmError) || e.details?.['rolledOver'] !== true || !this.#loggedIn) throw e;
      this.stats.rolloverRetries++;
      return this.#requestOnce(op, body, ids);
    }
  }

  async #requestOnce(op: OrderOp, body: RequestBody, ids: Record<string, unknown>): Promise<unknown> {
    if (!this.#loggedIn) {
      throw new MmError('DISCONNECTED', `${op}: the order session is not connected; nothing was sent`, { op, ...ids });
    }
    const rid = this.#rids.nextRid();
    const text = encodeOrderRequest({ ...body, rid } as WireOrderWsRequest);
    stamp(Stage.encoded);
    const reply = this.#rids.expect(rid, this.#o.requestTimeoutMs ?? 5_000, op);
    this.stats.requests++;
    const sent = this.#socket.send(text);
    stampWritten();
    if (!sent) {
      this.#rids.reject(rid, new MmError('DISCONNECTED', `${op}: the order session dropped; nothing was sent`, { op, ...ids }));
    }
    const r = await reply.catch((e: unknown) => {
      if (e instanceof MmError) throw new MmError(e.code, e.message, { ...e.details, op, ...ids }, { cause: e });
      throw e;
    });
    if (r.err) throw orderOpError(op, r.err.code, r.err.msg, { rid, ...ids });
    return r.res ?? {};
  }

  async #prepare(): Promise<{ url: string; headers: Record<string, string> }> {
    const headers = await this.#bearer.headers();
    return { url: orderWsUrl(this.#o.wsUrl, this.#o), headers };
  }

  #onOpen(): void {
    // The session is usable only once the login reply (rid 0) arrives.
    this.#cancelLoginTimer = this.#o.clock.setTimer(this.#o.loginTimeoutMs ?? 5_000, () => {
      this.#cancelLoginTimer = undefined;
      if (!this.#loggedIn) this.#socket.reconnect('no login reply');
    });
  }

  #onDown(reason: string): void {
    this.#rollover.cancel();
    this.#cancelLoginTimer?.();
    this.#cancelLoginTimer = undefined;
    this.#cancelHeartbeat?.();
    this.#cancelHeartbeat = undefined;
    const wasLoggedIn = this.#loggedIn;
    this.#loggedIn = false;
    this.#login = undefined;
    // Requests already on the wire may or may not have been acted on: TIMEOUT says "outcome unknown".
    this.#rids.rejectAll(
      (rid, what) => new MmError('TIMEOUT', `${what}: the order session dropped before the reply (${reason}); the outcome is unknown`, { rid, sent: true }),
    );
    if (wasLoggedIn) this.#connection.next({ stream: 'orders', connected: false, tsRecv: this.#o.clock.nowMs(), reason });
  }

  #onFrame(text: string): void {
    const tsRecv = this.#o.clock.nowMs();
    this.stats.framesIn++;
    const decoded = decodeOrderWsFrame(text);
    if (!decoded.ok) {
      this.stats.malformed++;
      this.#errors.next(frameSkipped('order WS frame', decoded.error, text));
      return;
    }
    const frame = decoded.value;
    if ('t' in frame) {
      if (frame.t === 'h') return;
      // During a rollover both connections carry the account's events: deliver each once.
      if (!this.#rollover.firstSighting('eid' in frame ? frame.eid : text)) return;
      const ev = mapOrderEvent(frame, this.#o.instruments, tsRecv);
      if (ev instanceof MmError) {
        this.stats.unmapped++;
        this.#errors.next(ev);
        return;
      }
      if (ev !== null) this.#events.next(ev);
      return;
    }
    if (frame.rid === 0 && frame.res && 'li' in frame.res) {
      this.#onLogin(frame.res.li, frame.res.o ?? [], frame.res.cod, tsRecv);
      return;
    }
    if (!this.#rids.resolve(frame.rid, frame)) this.stats.lateReplies++;
  }

  #onLogin(loginId: string, wireOrders: readonly unknown[], cod: boolean, tsRecv: number): void {
    this.#cancelLoginTimer?.();
    this.#cancelLoginTimer = undefined;
    const orders: Order[] = [];
    for (const w of wireOrders) {
      const o = mapOrder(w, this.#o.instruments);
      if (o instanceof MmError) {
        this.stats.unmapped++;
        this.#errors.next(o);
      } else orders.push(o);
    }
    this.#loggedIn = true;
    this.#login = { loginId, cancelOnDisconnect: cod };
    this.stats.logins++;
    this.#rollover.armFor(this.#bearer.last);
    this.#armHeartbeat();
    this.#connection.next({ stream: 'orders', connected: true, tsRecv });
    this.#resync.next(orders);
  }

  #armHeartbeat(): void {
    const hb = heartbeatTimeoutS(this.#o);
    if (hb <= 0) return;
    const everyMs = heartbeatEveryMs(hb);
    const beat = (): void => {
      if (!this.#loggedIn) return;
      if (this.#socket.send(encodeOrderRequest({ rid: this.#rids.nextRid(), t: 'h' }))) this.stats.heartbeatsSent++;
      this.#cancelHeartbeat = this.#o.clock.setTimer(everyMs, beat);
    };
    this.#cancelHeartbeat = this.#o.clock.setTimer(everyMs, beat);
  }
}
