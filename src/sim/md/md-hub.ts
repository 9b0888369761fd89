import type { Clock } from '../../core/clock.ts';
import type { TickGrid } from '../../domain/tick-grid.ts';
import type { Side } from '../../domain/enums.ts';
import { encodeMdEvent, encodeMdReply, type WireBookLevel, type WireTicker } from '../../wire/index.ts';
import type { TradeCandle, BboCandle } from './candles.ts';
import { sideDelta, tsTn, wireBboCandle, wireCandle, wireLevels, type LevelLike } from './md-frames.ts';
import { parseMdRequest, type MdLevel } from './md-requests.ts';

/** The socket side of one market-data connection. */
export interface MdConnection {
  send(text: string): void;
  /** Bytes queued but not yet written (ws `bufferedAmount`). */
  readonly bufferedAmount: number;
}

/** What the hub reads from the venue. */
export interface MdSource {
  hasSymbol(symbol: string): boolean;
  grid(symbol: string): TickGrid;
  levels(symbol: string, depth: number, withOrders: boolean): { bids: readonly LevelLike[]; asks: readonly LevelLike[] };
  /** The full ticker now (ts/tn set by the caller's clock). */
  ticker(symbol: string, tsNs: bigint): WireTicker;
}

/** Hub knobs. */
export interface MdHubOptions {
  readonly depth: number;
  readonly deltaMode: boolean;
  readonly tickerIntervalMs: number;
  /** A connection with more than this queued is skipped for snapshot frames (counted as dropped). */
  readonly maxBufferedBytes: number;
}

/** Counters for tests and benchmarks. */
export interface MdHubStats {
  framesSent: number;
  framesDropped: number;
  snapshotsEncoded: number;
}

interface BookSub {
  readonly level: MdLevel;
  readonly trades: boolean;
  readonly ticker: boolean;
  /** Delta mode: the next frame must be a full snapshot for this session. */
  needSnapshot: boolean;
}

/** One connected client. */
export class MdSession {
  readonly books = new Map<string, BookSub>();
  readonly candles = new Set<string>();
  readonly bboCandles = new Set<string>();
  constructor(readonly conn: MdConnection) {}
}

interface SymState {
  readonly sessions: Set<MdSession>;
  dirty: boolean;
  lastL1: string;
  prevL2: { b: WireBookLevel[]; a: WireBookLevel[] } | undefined;
  prevL3: { b: WireBookLevel[]; a: WireBookLevel[] } | undefined;
  lastTickerMs: number;
  tickerTimer: (() => void) | undefined;
}

/**
 * Market-data fan-out: subscriptions per connection, one encoded string per (symbol, level, change)
 * sent to every subscriber, L1 only when the touch changes, tickers throttled per symbol, trades,
 * candles and BBO candles. Book changes are coalesced per event-loop turn (microtask).
 */
export class MdHub {
  readonly stats: MdHubStats = { framesSent: 0, framesDropped: 0, snapshotsEncoded: 0 };
  readonly #syms = new Map<string, SymState>();
  readonly #sessions = new Set<MdSession>();
  #flushQueued = false;

  constructor(
    private readonly source: MdSource,
    private readonly clock: Clock,
    private readonly opts: MdHubOptions,
    /** Real-time clock for the ticker throttle (clients see ≤ 1 ticker/s even on a fast venue clock). */
    private readonly ioClock: Clock = clock,
  ) {}

  /** Registers a connection; feed its text frames to `handle`, and call `detach` on close. */
  attach(conn: MdConnection): MdSession {
    const s = new MdSession(conn);
    this.#sessions.add(s);
    return s;
  }

  /** Forgets a closed connection. */
  detach(s: MdSession): void {
    this.#sessions.delete(s);
    for (const sym of s.books.keys()) this.#syms.get(sym)?.sessions.delete(s);
  }

  /** Handles one client frame; every outcome is answered on the same connection. */
  handle(s: MdSession, text: string): void {
    const parsed = parseMdRequest(text);
    if (!parsed.ok) return this.#reply(s, encodeMdReply({ rid: parsed.error.rid, error: { message: parsed.error.message, code: 400 } }));
    const r = parsed.value;
    if (!this.source.hasSymbol(r.symbol)) {
      return this.#reply(s, encodeMdReply({ rid: r.rid, error: { message: `Symbol ${r.symbol} is not available`, code: 404 } }));
    }
    switch (r.type) {
      case 'subscribe': {
        if (s.books.has(r.symbol)) {
          return this.#reply(s, encodeMdReply({ rid: r.rid, error: { message: `already subscribed to ${r.symbol}; unsubscribe first to change level`, code: 400 } }));
        }
        s.books.set(r.symbol, { level: r.level, trades: r.trades, ticker: r.ticker, needSnapshot: true });
        this.#sym(r.symbol).sessions.add(s);
        this.#reply(s, encodeMdReply({ rid: r.rid, result: { subscribed: r.symbol } }));
        this.#initialFrames(s, r.symbol);
        return;
      }
      case 'unsubscribe': {
        if (!s.books.delete(r.symbol)) return this.#reply(s, encodeMdReply({ rid: r.rid, error: { message: `not subscribed to ${r.symbol}`, code: 400 } }));
        this.#syms.get(r.symbol)?.sessions.delete(s);
        return this.#reply(s, encodeMdReply({ rid: r.rid, result: { unsubscribed: r.symbol } }));
      }
      case 'subscribe_candles':
      case 'unsubscribe_candles':
      case 'subscribe_bbo_candles':
      case 'unsubscribe_bbo_candles': {
        const key = `${r.symbol}:${r.width}`;
        const bbo = r.type.includes('bbo');
        const set = bbo ? s.bboCandles : s.candles;
        if (r.type.startsWith('subscribe')) {
          set.add(key);
          this.#sym(r.symbol);
          return this.#reply(s, encodeMdReply({ rid: r.rid, result: bbo ? { subscribed_bbo_candle: key } : { subscribed_candle: key } }));
        }
        if (!set.delete(key)) return this.#reply(s, encodeMdReply({ rid: r.rid, error: { message: `not subscribed to ${key}`, code: 400 } }));
        return this.#reply(s, encodeMdReply({ rid: r.rid, result: bbo ? { unsubscribed_bbo_candle: key } : { unsubscribed_candle: key } }));
      }
    }
  }

  /** Marks a symbol's book as changed; frames go out at the end of this event-loop turn. */
  bookChanged(symbol: string): void {
    const st = this.#syms.get(symbol);
    if (!st || st.sessions.size === 0) return;
    st.dirty = true;
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Something in the ticker changed (trade, mark, funding): send it, throttled. */
  tickerChanged(symbol: string): void {
    const st = this.#syms.get(symbol);
    if (st && st.sessions.size > 0) this.#maybeTicker(symbol, st);
  }

  /** Publishes a trade print to trade subscribers. */
  trade(symbol: string, priceTicks: number, qty: number, takerSide: Side, tsNs: bigint): void {
    const st = this.#syms.get(symbol);
    if (!st || st.sessions.size === 0) return;
    const { ts, tn } = tsTn(tsNs);
    const text = encodeMdEvent({ t: 't', p: this.source.grid(symbol).toPrice(priceTicks), q: qty, s: symbol, d: takerSide === 'buy' ? 'B' : 'S', ts, tn });
    for (const s of st.sessions) if (s.books.get(symbol)?.trades) this.#send(s, text, false);
  }

  /** Publishes in-progress trade candles to their subscribers. */
  candles(symbol: string, updated: readonly TradeCandle[]): void {
    for (const c of updated) {
      const key = `${symbol}:${c.width}`;
      let text: string | undefined;
      for (const s of this.#sessions) {
        if (!s.candles.has(key)) continue;
        text ??= encodeMdEvent({ t: 'c', ...wireCandle(symbol, c, this.source.grid(symbol)) });
        this.#send(s, text, false);
      }
    }
  }

  /** Publishes in-progress BBO candles to their subscribers. */
  bboCandles(symbol: string, updated: readonly BboCandle[]): void {
    for (const c of updated) {
      const key = `${symbol}:${c.width}`;
      let text: string | undefined;
      for (const s of this.#sessions) {
        if (!s.bboCandles.has(key)) continue;
        text ??= encodeMdEvent({ t: 'bc', ...wireBboCandle(symbol, c, this.source.grid(symbol)) });
        this.#send(s, text, false);
      }
    }
  }

  /** True when any session subscribes candles of `symbol:width`. */
  hasCandleSubscribers(bbo: boolean): boolean {
    for (const s of this.#sessions) if ((bbo ? s.bboCandles : s.candles).size > 0) return true;
    return false;
  }

  /** Sends a heartbeat to every session. */
  heartbeat(): void {
    const { ts, tn } = tsTn(this.clock.nowNs());
    const text = encodeMdEvent({ t: 'h', ts, tn });
    for (const s of this.#sessions) this.#send(s, text, true);
  }

  /** Sends the frames of every dirty symbol now. */
  flush(): void {
    this.#flushQueued = false;
    for (const [symbol, st] of this.#syms) {
      if (!st.dirty) continue;
      st.dirty = false;
      this.#publishBook(symbol, st);
    }
  }

  /** Cancels timers (venue shutdown). */
  close(): void {
    for (const st of this.#syms.values()) st.tickerTimer?.();
    this.#sessions.clear();
    this.#syms.clear();
  }

  #sym(symbol: string): SymState {
    let st = this.#syms.get(symbol);
    if (!st) {
      st = { sessions: new Set(), dirty: false, lastL1: '', prevL2: undefined, prevL3: undefined, lastTickerMs: -Infinity, tickerTimer: undefined };
      this.#syms.set(symbol, st);
    }
    return st;
  }

  #initialFrames(s: MdSession, symbol: string): void {
    const sub = s.books.get(symbol)!;
    const nowNs = this.clock.nowNs();
    if (sub.ticker && sub.level !== 'TRADES') this.#send(s, encodeMdEvent({ t: 's', ...this.source.ticker(symbol, nowNs) }), true);
    if (sub.level === 'TRADES') return;
    const { ts, tn } = tsTn(nowNs);
    const grid = this.source.grid(symbol);
    if (sub.level === 'LEVEL_1') {
      const { bids, asks } = this.source.levels(symbol, 1, false);
      this.#send(s, encodeMdEvent({ t: '1', ts, tn, s: symbol, b: wireLevels(bids, grid, false), a: wireLevels(asks, grid, false) }), true);
    } else {
      const l3 = sub.level === 'LEVEL_3';
      const { bids, asks } = this.source.levels(symbol, this.opts.depth, l3);
      const b = wireLevels(bids, grid, l3);
      const a = wireLevels(asks, grid, l3);
      this.#send(s, encodeMdEvent({ t: l3 ? '3' : '2', ts, tn, s: symbol, b, a, st: true }), true);
      if (this.opts.deltaMode) {
        // Deltas are computed against the last published book. With no other subscriber at this
        // level that book may be stale (changes were not published), so restart it from here;
        // with subscribers it is current up to pending changes, which deltas re-apply idempotently.
        const st = this.#sym(symbol);
        let others = false;
        for (const o of st.sessions) if (o !== s && o.books.get(symbol)?.level === sub.level) others = true;
        if (!others) {
          if (l3) st.prevL3 = { b, a };
          else st.prevL2 = { b, a };
        }
      }
    }
    sub.needSnapshot = false;
  }

  #publishBook(symbol: string, st: SymState): void {
    let want1 = false;
    let want2 = false;
    let want3 = false;
    let wantTicker = false;
    for (const s of st.sessions) {
      const sub = s.books.get(symbol);
      if (!sub) continue;
      if (sub.level === 'LEVEL_1') want1 = true;
      else if (sub.level === 'LEVEL_2') want2 = true;
      else if (sub.level === 'LEVEL_3') want3 = true;
      if (sub.ticker && sub.level !== 'TRADES') wantTicker = true;
    }
    const nowNs = this.clock.nowNs();
    const { ts, tn } = tsTn(nowNs);
    const grid = this.source.grid(symbol);
    if (want2) this.#publishLevel(symbol, st, '2', ts, tn, grid);
    if (want3) this.#publishLevel(symbol, st, '3', ts, tn, grid);
    if (want1) {
      const { bids, asks } = this.source.levels(symbol, 1, false);
      const b = wireLevels(bids, grid, false);
      const a = wireLevels(asks, grid, false);
      const key = `${b[0]?.p}:${b[0]?.q}|${a[0]?.p}:${a[0]?.q}`;
      if (key !== st.lastL1) {
        st.lastL1 = key;
        const text = encodeMdEvent({ t: '1', ts, tn, s: symbol, b, a });
        for (const s of st.sessions) if (s.books.get(symbol)?.level === 'LEVEL_1') this.#send(s, text, false);
      }
    }
    if (wantTicker) this.#maybeTicker(symbol, st);
  }

  #publishLevel(symbol: string, st: SymState, t: '2' | '3', ts: number, tn: number, grid: TickGrid): void {
    const l3 = t === '3';
    const level: MdLevel = l3 ? 'LEVEL_3' : 'LEVEL_2';
    const { bids, asks } = this.source.levels(symbol, this.opts.depth, l3);
    const b = wireLevels(bids, grid, l3);
    const a = wireLevels(asks, grid, l3);
    this.stats.snapshotsEncoded++;
    const snapshot = encodeMdEvent({ t, ts, tn, s: symbol, b, a, st: true });
    let delta: string | undefined;
    if (this.opts.deltaMode) {
      const prev = l3 ? st.prevL3 : st.prevL2;
      if (prev) delta = encodeMdEvent({ t, ts, tn, s: symbol, b: sideDelta(prev.b, b), a: sideDelta(prev.a, a), st: false });
      if (l3) st.prevL3 = { b, a };
      else st.prevL2 = { b, a };
    }
    for (const s of st.sessions) {
      const sub = s.books.get(symbol);
      if (!sub || sub.level !== level) continue;
      if (delta !== undefined && !sub.needSnapshot) {
        // A skipped delta would corrupt the client's book: resync with a snapshot next time.
        if (!this.#send(s, delta, false)) sub.needSnapshot = true;
      } else if (this.#send(s, snapshot, false)) sub.needSnapshot = false;
    }
  }

  #maybeTicker(symbol: string, st: SymState): void {
    const now = this.ioClock.nowMs();
    const due = st.lastTickerMs + this.opts.tickerIntervalMs;
    if (now >= due) {
      st.tickerTimer?.();
      st.tickerTimer = undefined;
      st.lastTickerMs = now;
      const text = encodeMdEvent({ t: 's', ...this.source.ticker(symbol, this.clock.nowNs()) });
      for (const s of st.sessions) {
        const sub = s.books.get(symbol);
        if (sub?.ticker && sub.level !== 'TRADES') this.#send(s, text, false);
      }
    } else if (!st.tickerTimer) {
      st.tickerTimer = this.ioClock.setTimer(due - now, () => {
        st.tickerTimer = undefined;
        if (st.sessions.size > 0) this.#maybeTicker(symbol, st);
      });
    }
  }

  #reply(s: MdSession, text: string): void {
    this.#send(s, text, true);
  }

  /** Sends unless the connection is backed up (then counts a drop); `force` ignores backpressure. */
  #send(s: MdSession, text: string, force: boolean): boolean {
    if (!force && s.conn.bufferedAmount > this.opts.maxBufferedBytes) {
      this.stats.framesDropped++;
      return false;
    }
    s.conn.send(text);
    this.stats.framesSent++;
    return true;
  }
}
