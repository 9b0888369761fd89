import type { Clock } from '../../core/clock.ts';
import type { WireEstimatedFunding, WireTicker } from '../../wire/index.ts';
import type { Venue } from '../venue.ts';
import type { MarketConfig } from '../market/market-config.ts';
import { MdHub, type MdConnection, type MdSession, type MdSource } from './md-hub.ts';
import { SymbolHistory } from './md-store.ts';
import { tsTn } from './md-frames.ts';

/**
 * Market data for the whole venue: listens to the venue's trades and book changes, keeps history
 * (trades, candles, underlying, session stats), builds tickers, and drives the WS fan-out hub.
 */
export class MarketDataService {
  readonly hub: MdHub;
  readonly history = new Map<string, SymbolHistory>();
  readonly #bbo = new Map<string, { b: number | undefined; a: number | undefined }>();
  readonly #unsub: (() => void)[] = [];
  /** Estimated funding for tickers of supported instruments (the funding service fills it). */
  estimate: (symbol: string) => WireEstimatedFunding | null = () => null;

  constructor(
    readonly venue: Venue,
    readonly cfg: MarketConfig['md'],
    /** Real clock for heartbeats and the ticker throttle. */
    ioClock: Clock = venue.clock,
  ) {
    for (const ins of venue.catalog.all()) this.history.set(ins.symbol, new SymbolHistory(cfg.trade_history, cfg.underlying_history, cfg.underlying_bucket_ms, cfg.candle_history));
    const source: MdSource = {
      hasSymbol: (s) => venue.markets.has(s),
      grid: (s) => venue.markets.get(s)!.instrument.grid,
      levels: (s, depth, withOrders) => {
        const b = venue.books.get(s)!;
        return { bids: b.bids.levels(depth, withOrders), asks: b.asks.levels(depth, withOrders) };
      },
      ticker: (s, tsNs) => this.ticker(s, tsNs),
    };
    this.hub = new MdHub(source, venue.clock, {
      depth: cfg.book_depth,
      deltaMode: cfg.delta_mode,
      tickerIntervalMs: cfg.ticker_interval_ms,
      maxBufferedBytes: cfg.max_buffered_bytes,
    }, ioClock);
    this.#unsub.push(
      venue.onTrade((t) => {
        const h = this.history.get(t.symbol);
        if (!h) return;
        h.addTrade({ priceTicks: t.priceTicks, qty: t.qty, takerSide: t.takerSide, tsNs: t.tsNs });
        const updated = h.candles.onTrade(Number(t.tsNs / 1_000_000n), t.priceTicks, t.qty, t.takerSide);
        this.hub.trade(t.symbol, t.priceTicks, t.qty, t.takerSide, t.tsNs);
        if (this.hub.hasCandleSubscribers(false)) this.hub.candles(t.symbol, updated);
        this.hub.tickerChanged(t.symbol);
      }),
      venue.onBookChange((symbol) => {
        this.hub.bookChanged(symbol);
        this.#trackBbo(symbol);
      }),
    );
    this.#armHeartbeat(ioClock);
  }

  /** Records an underlying (benchmark) price observation. */
  recordUnderlying(symbol: string, tsMs: number, price: number): void {
    this.history.get(symbol)?.underlying.record(tsMs, price);
  }

  /** Attaches a WebSocket-like connection; returns handlers for its frames and its close. */
  attach(conn: MdConnection): { session: MdSession; onMessage(text: string): void; onClose(): void } {
    const session = this.hub.attach(conn);
    return { session, onMessage: (text) => this.hub.handle(session, text), onClose: () => this.hub.detach(session) };
  }

  /** The ticker of `symbol` at `tsNs` (REST and WS share it). */
  ticker(symbol: string, tsNs: bigint = this.venue.clock.nowNs()): WireTicker {
    const m = this.venue.markets.get(symbol)!;
    const grid = m.instrument.grid;
    const h = this.history.get(symbol)!;
    const book = this.venue.books.get(symbol)!;
    const bb = book.bestBid();
    const ba = book.bestAsk();
    const last = h.trades.last();
    const { ts, tn } = tsTn(tsNs);
    const s = h.session;
    const mark = this.venue.mark(symbol)!;
    const ef = m.instrument.estimatedFundingSupported ? this.estimate(symbol) : null;
    return {
      ts,
      tn,
      s: symbol,
      p: last ? grid.toPrice(last.priceTicks) : null,
      q: last ? last.qty : 0,
      o: s.openTicks === null ? null : grid.toPrice(s.openTicks),
      l: s.lowTicks === null ? null : grid.toPrice(s.lowTicks),
      h: s.highTicks === null ? null : grid.toPrice(s.highTicks),
      v: m.volume,
      oi: m.openInterest,
      i: m.state,
      m: mark.toDecimalPlaces(grid.decimals + 2).toFixed(),
      ...(bb !== undefined ? { bp: grid.toPrice(bb) } : {}),
      ...(ba !== undefined ? { ap: grid.toPrice(ba) } : {}),
      pl: grid.toPrice(m.band.lowerTicks),
      pu: grid.toPrice(m.band.upperTicks),
      lsp: m.lastSettlement.toFixed(),
      lst: Math.floor(m.lastSettlementMs / 1000),
      ...(ef ? { ef } : {}),
    };
  }

  /** Stops timers and listeners. */
  close(): void {
    for (const u of this.#unsub.splice(0)) u();
    this.hub.close();
  }

  #trackBbo(symbol: string): void {
    const book = this.venue.books.get(symbol);
    if (!book) return;
    const b = book.bestBid();
    const a = book.bestAsk();
    const prev = this.#bbo.get(symbol);
    if (prev && prev.b === b && prev.a === a) return;
    this.#bbo.set(symbol, { b, a });
    const updated = this.history.get(symbol)!.candles.onBbo(this.venue.clock.nowMs(), b, a);
    if (this.hub.hasCandleSubscribers(true)) this.hub.bboCandles(symbol, updated);
  }

  #armHeartbeat(clock: Clock): void {
    const tick = (): void => {
      this.hub.heartbeat();
      cancel = clock.setTimer(this.cfg.heartbeat_ms, tick);
    };
    let cancel = clock.setTimer(this.cfg.heartbeat_ms, tick);
    this.#unsub.push(() => cancel());
  }
}
