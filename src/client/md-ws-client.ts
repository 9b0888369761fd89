import { BehaviorSubject, merge, Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';
import { asSymbol, type Symbol } from '../core/ids.ts';
import type { Book } from '../domain/book.ts';
import type { BookUpdated, CandleUpdated, MarketEvent, TickerUpdated, TradePrinted } from '../domain/events.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import { DEFAULT_RECONNECT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { BookKeeper } from './book-keeper.ts';
import { MdSubscriptions, type BookLevelName, type BookSubscription } from './md-subscriptions.ts';
import { MdPendingRequests, type MdRequestBody } from './md-requests.ts';
import { StaleWatch } from './md-staleness.ts';
import { ReconnectingSocket } from './reconnecting-socket.ts';
import { wsSocketFactory, type SocketFactory } from './socket.ts';
import type { StreamConnection } from './stream-types.ts';
import { BearerUpgrade, type TokenSource } from './ws-bearer.ts';
import { Stage, stamp, stampFrame } from '../core/stage-stamps.ts';
import { decodeMdWsFrame, encodeMdRequest, frameSkipped, mapMdEvent } from './wire-port.ts';

/** Options of the market-data WebSocket client. */
export interface MarketDataWsClientOptions {
  /** `ws://host:port` (the `/md/ws` path is appended). */
  readonly wsUrl: string;
  readonly clock: Clock;
  /** Bearer tokens for the upgrade; omit for an unauthenticated feed. */
  readonly tokens?: TokenSource;
  readonly instruments: InstrumentCatalog;
  /** A book without a snapshot this long after (re)subscribing is recovered, ms (default 3 s). */
  readonly snapshotTimeoutMs?: number;
  /** A subscribed symbol with no frame for this long is reported stale, ms (default 10 s; 0 = off). */
  readonly staleAfterMs?: number;
  /** No frame at all on the socket for this long → reconnect, ms (default 30 s; 0 = off). */
  readonly idleTimeoutMs?: number;
  readonly reconnect?: BackoffPolicy;
  readonly socketFactory?: SocketFactory;
  readonly random?: () => number;
}

/** Stale / fresh transitions of one subscribed symbol. */
export interface StaleState {
  readonly symbol: Symbol;
  readonly stale: boolean;
  /** Time since the last frame of the symbol, ms. */
  readonly silentMs: number;
  readonly tsRecv: number;
}

/** Counters for metrics, health and tests. */
export interface MdStats {
  framesIn: number;
  bookFrames: number;
  /** Book frames that were `st: false` deltas. */
  deltaFrames: number;
  decodeErrors: number;
  unmapped: number;
  suppressed: number;
  recoveries: number;
  subscribeErrors: number;
  staleTransitions: number;
}

/**
 * The market-data WebSocket: a subscription registry replayed on reconnect, books maintained from
 * snapshots (and deltas), a snapshot deadline per book with recovery by unsubscribe + subscribe,
 * per-symbol staleness, and the decoded streams as Observables of domain events.
 */
export class MarketDataWsClient {
  readonly stats: MdStats = { framesIn: 0, bookFrames: 0, deltaFrames: 0, decodeErrors: 0, unmapped: 0, suppressed: 0, recoveries: 0, subscribeErrors: 0, staleTransitions: 0 };
  readonly #o: MarketDataWsClientOptions;
  readonly #socket: ReconnectingSocket;
  readonly #subs: MdSubscriptions;
  readonly #keeper = new BookKeeper();
  readonly #books = new Subject<BookUpdated>();
  readonly #tickers = new Subject<TickerUpdated>();
  readonly #trades = new Subject<TradePrinted>();
  readonly #candles = new Subject<CandleUpdated>();
  readonly #stale = new Subject<StaleState>();
  readonly #errors = new Subject<MmError>();
  readonly #connection: BehaviorSubject<StreamConnection>;
  readonly #requests = new MdPendingRequests();
  readonly #staleness: StaleWatch;
  #open = false;

  constructor(opts: MarketDataWsClientOptions) {
    this.#o = opts;
    this.#connection = new BehaviorSubject<StreamConnection>({ stream: 'market-data', connected: false, tsRecv: opts.clock.nowMs(), reason: 'not started' });
    this.#subs = new MdSubscriptions({
      clock: opts.clock,
      snapshotTimeoutMs: opts.snapshotTimeoutMs ?? 3_000,
      send: (req) => this.#send(req),
      onRecover: (sub) => {
        this.stats.recoveries++;
        this.#keeper.reset(sub.symbol);
      },
    });
    this.#staleness = new StaleWatch({
      clock: opts.clock,
      afterMs: opts.staleAfterMs ?? 10_000,
      books: () => this.#subs.books(),
      onChange: (sub, stale, now) => {
        this.stats.staleTransitions++;
        this.#stale.next({ symbol: sub.symbol, stale, silentMs: now - sub.lastFrameMs, tsRecv: now });
      },
    });
    const bearer = new BearerUpgrade(opts.tokens);
    this.#socket = new ReconnectingSocket({
      name: 'market-data',
      clock: opts.clock,
      factory: opts.socketFactory ?? wsSocketFactory,
      prepare: async () => ({ url: `${opts.wsUrl.replace(/\/+$/, '')}/md/ws`, headers: await bearer.headers() }),
      backoff: opts.reconnect ?? DEFAULT_RECONNECT_BACKOFF,
      random: opts.random ?? Math.random,
      connectTimeoutMs: 10_000,
      idleTimeoutMs: opts.idleTimeoutMs ?? 30_000,
      onOpen: () => this.#onOpen(),
      onFrame: (text) => this.#onFrame(text),
      onDown: (info) => {
        bearer.refused(info.httpStatus);
        this.#onDown(info.reason, info.wasOpen);
      },
    });
  }

  /** Every book change as a full book (`isSnapshot` true: deltas are already applied). */
  get books$(): Observable<BookUpdated> {
    return this.#books.asObservable();
  }
  /** Ticker updates (with the funding estimate `ef` when the venue sends it). */
  get tickers$(): Observable<TickerUpdated> {
    return this.#tickers.asObservable();
  }
  /** Public trade prints. */
  get trades$(): Observable<TradePrinted> {
    return this.#trades.asObservable();
  }
  /** Candle updates of subscribed widths. */
  get candles$(): Observable<CandleUpdated> {
    return this.#candles.asObservable();
  }
  /** All of the above as one MarketEvent stream (the engine's `market$`). */
  get market$(): Observable<MarketEvent> {
    return merge(this.#books, this.#tickers, this.#trades, this.#candles);
  }
  /** A symbol went stale (no frame for `staleAfterMs`) or fresh again. */
  get stale$(): Observable<StaleState> {
    return this.#stale.asObservable();
  }
  /** Connected / lost (current state replayed on subscribe). */
  get connection$(): Observable<StreamConnection> {
    return this.#connection.asObservable();
  }
  /** Frames skipped (undecodable, unmappable) and subscription errors, for logs. */
  get errors$(): Observable<MmError> {
    return this.#errors.asObservable();
  }
  /** True while the socket is open. */
  get connected(): boolean {
    return this.#open;
  }
  /** Sessions lost or attempts failed since start. */
  get reconnects(): number {
    return this.#socket.downs;
  }

  /** The maintained book of `symbol`, when a snapshot has arrived since the last (re)subscribe. */
  book(symbol: string): Book | undefined {
    return this.#keeper.get(symbol);
  }

  /** True when `symbol` has a live book (snapshot received, not recovering). */
  isLive(symbol: string): boolean {
    return this.#subs.book(symbol)?.phase === 'live';
  }

  /** Subscribes a book (and its ticker and trades unless disabled); replayed on every reconnect. */
  subscribeBook(symbol: string, level: 1 | 2 | 3 = 2, opts: { readonly trades?: boolean; readonly ticker?: boolean } = {}): void {
    const name: BookLevelName = level === 1 ? 'LEVEL_1' : level === 3 ? 'LEVEL_3' : 'LEVEL_2';
    this.#keeper.reset(symbol);
    this.#subs.addBook(asSymbol(symbol), name, opts.trades ?? true, opts.ticker ?? true, this.#open);
  }

  /**
   * Renews `symbol`'s book subscription for a fresh snapshot (unsubscribe + subscribe): the daemon
   * asks when the engine finds the book suspect, in case the glitch is in our copy. Returns false
   * when there is no book subscription or the socket is down (the reconnect re-subscribes anyway).
   */
  resyncBook(symbol: string, reason = 'resync asked'): boolean {
    const sub = this.#subs.book(symbol);
    if (sub === undefined || sub.level === 'TRADES' || !this.#open) return false;
    this.#subs.recover(sub, reason);
    return true;
  }

  /** Subscribes trade prints only (level TRADES, no book). */
  subscribeTrades(symbol: string): void {
    this.#subs.addBook(asSymbol(symbol), 'TRADES', true, false, this.#open);
  }

  /** Unsubscribes `symbol` (book, ticker, trades). */
  unsubscribe(symbol: string): void {
    this.#keeper.reset(symbol);
    this.#subs.removeBook(symbol, this.#open);
  }

  /** Subscribes candle updates of `width` for `symbol`. */
  subscribeCandles(symbol: string, width: string): void {
    this.#subs.addCandles(asSymbol(symbol), width, this.#open);
  }

  /** Unsubscribes candle updates. */
  unsubscribeCandles(symbol: string, width: string): void {
    this.#subs.removeCandles(symbol, width, this.#open);
  }

  /** Current book subscriptions (for health and tests). */
  subscriptions(): readonly BookSubscription[] {
    return this.#subs.books();
  }

  /** Starts connecting. */
  start(): void {
    this.#socket.start();
  }

  /** Closes for good and completes every stream. */
  async stop(): Promise<void> {
    await this.#socket.stop();
    this.#onDown('stopped', this.#open);
    this.#subs.dispose();
    for (const s of [this.#books, this.#tickers, this.#trades, this.#candles, this.#stale, this.#errors, this.#connection]) s.complete();
  }

  /** Drops the session and reconnects (for tests and watchdogs). */
  reconnect(reason: string): void {
    this.#socket.reconnect(reason);
  }

  #send(req: MdRequestBody): boolean {
    if (!this.#open) return false;
    return this.#socket.send(encodeMdRequest(this.#requests.add(req)));
  }

  #onOpen(): void {
    this.#open = true;
    this.#requests.clear();
    const now = this.#o.clock.nowMs();
    this.#connection.next({ stream: 'market-data', connected: true, tsRecv: now });
    this.#subs.replay(now);
    this.#staleness.start();
  }

  #onDown(reason: string, wasOpen: boolean): void {
    const was = this.#open;
    this.#open = false;
    this.#staleness.stop();
    this.#keeper.clear();
    this.#subs.disconnected();
    if (was || wasOpen) this.#connection.next({ stream: 'market-data', connected: false, tsRecv: this.#o.clock.nowMs(), reason });
  }

  #onFrame(text: string): void {
    stampFrame();
    const tsRecv = this.#o.clock.nowMs();
    this.stats.framesIn++;
    const decoded = decodeMdWsFrame(text);
    if (!decoded.ok) {
      this.stats.decodeErrors++;
      this.#errors.next(frameSkipped('market-data frame', decoded.error, text));
      this.#resyncAfterBadBook(text, decoded.error.path);
      return;
    }
    const frame = decoded.value;
    if (!('t' in frame)) return this.#onReply(frame.rid, frame.error);
    if (frame.t === 'h' || frame.t === 'bc') return;
    const symbol = frame.t === 'c' ? frame.symbol : frame.s;
    const sub = this.#subs.touch(symbol, tsRecv);
    if (sub === undefined && !this.#subs.hasCandles(symbol)) {
      // Frames for symbols we no longer follow (in flight across an unsubscribe) are dropped.
      this.stats.suppressed++;
      return;
    }
    if (sub) this.#staleness.frame(sub, tsRecv);
    const ev = mapMdEvent(frame, this.#o.instruments, tsRecv);
    if (ev instanceof MmError) {
      this.stats.unmapped++;
      this.#errors.next(ev);
      return;
    }
    if (ev === null) return;
    switch (ev.type) {
      case 'book': {
        this.stats.bookFrames++;
        if (!ev.isSnapshot) this.stats.deltaFrames++;
        if (!sub || sub.level === 'TRADES') return;
        const r = this.#keeper.apply(ev);
        if (r.kind === 'needs-snapshot') {
          this.#subs.recover(sub, 'delta before snapshot');
          return;
        }
        if (ev.isSnapshot) this.#subs.snapshotReceived(sub);
        else if (sub.phase !== 'live') return;
        stamp(Stage.decoded);
        this.#books.next(ev.isSnapshot ? ev : { ...ev, isSnapshot: true, bids: r.book.bids, asks: r.book.asks });
        return;
      }
      case 'ticker':
        this.#tickers.next(ev);
        return;
      case 'trade':
        this.#trades.next(ev);
        return;
      case 'candle':
        this.#candles.next(ev);
        return;
      default:
        return;
    }
  }

  /**
   * A skipped book frame (a level the decoder refused, e.g. a negative price) leaves our book short
   * of what the venue applied: the symbol's subscription is renewed for a fresh snapshot rather
   * than applying later deltas to a book that no longer matches the venue's.
   */
  #resyncAfterBadBook(text: string, path: string): void {
    if (!path.startsWith('$.b') && !path.startsWith('$.a')) return;
    let symbol: unknown;
    try {
      symbol = (JSON.parse(text) as { s?: unknown }).s;
    } catch {
      return;
    }
    if (typeof symbol === 'string') this.resyncBook(symbol, `book frame skipped (${path})`);
  }

  #onReply(rid: number, error: { readonly message: string; readonly code: number } | undefined): void {
    const refusal = this.#requests.settle(rid, error);
    if (!refusal) return;
    this.stats.subscribeErrors++;
    this.#errors.next(refusal.error);
    if (refusal.drop) this.#subs.dropFailed(refusal.drop.kind, refusal.drop.key);
  }
}
