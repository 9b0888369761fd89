import type { Observer } from 'rxjs';
import type { MarketEvent } from '../domain/events.ts';
import type { FundingSettlement } from '../domain/funding.ts';
import { othersBook, type OwnRestingOrder } from '../domain/others-book.ts';
import type { ConnectionState } from '../engine/ports.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import { KIND } from '../record/format.ts';
import type { LocalFeed } from './local-feed.ts';

/** Where the bot-side events go (the engine's input subjects). */
export interface FeedSinks {
  readonly market$: Observer<MarketEvent>;
  readonly connection$: Observer<ConnectionState>;
  readonly funding$: Observer<FundingSettlement>;
  /** True when recorded settlements of symbol `s` are forwarded to the engine. */
  readonly forwardFunding: (s: number) => boolean;
}

/**
 * Delivers recorded rows to the bot at their receive time: books through the LocalFeed (top-N,
 * only when changed), trades, tickers and funding as recorded, gaps as a market-data reconnect. With
 * `conflateMs > 0`, books and trades of a symbol are held and flushed once per window: the last
 * trade, then the book as of the window's end.
 */
export class FeedDelivery {
  /** Market events handed to the engine. */
  delivered = 0;
  /** Time of the next pending flush, Infinity when none. */
  nextFlush = Infinity;
  readonly #flushAt: Float64Array;
  readonly #heldTrade: Int32Array;
  readonly #lastBookRow: Int32Array;
  /** The recording bot's own working orders per symbol (its `o` lines), when they are subtracted. */
  readonly #own: (readonly OwnRestingOrder[])[];
  readonly #symIndex: Map<string, number>;

  /**
   * @param subtractOwn the recording bot's own orders (`o` lines) are left out of the books the bot
   * gets, as the exchange side leaves them out of the market: the strategy sees the market without
   * "our" orders, as live (`othersBook`, the same function the engine applies to a venue's book).
   */
  constructor(
    private readonly col: ColumnarRecording,
    private readonly feed: LocalFeed,
    private readonly conflateMs: number,
    private readonly sinks: FeedSinks,
    private readonly subtractOwn = false,
  ) {
    const n = col.instruments.length;
    this.#own = col.instruments.map(() => []);
    this.#symIndex = new Map(col.instruments.map((x, s) => [x.symbol, s]));
    this.#flushAt = new Float64Array(n).fill(Infinity);
    this.#heldTrade = new Int32Array(n).fill(-1);
    this.#lastBookRow = new Int32Array(n).fill(-1);
  }

  /** Delivers row `i` at local time `t` (or holds it for the window). */
  step(i: number, t: number): void {
    const col = this.col;
    switch (col.kind[i]) {
      case KIND.bookDelta:
      case KIND.bookSnapshot: {
        if (this.conflateMs > 0) {
          const s = this.feed.apply(i);
          this.#lastBookRow[s] = i;
          return this.#hold(s, t);
        }
        const ev = this.feed.book(i, t);
        if (ev) this.#emit(ev);
        return;
      }
      case KIND.trade:
        if (this.conflateMs > 0) {
          const s = col.sym[i]!;
          this.#heldTrade[s] = i;
          return this.#hold(s, t);
        }
        return this.#emit(this.feed.trade(i, t));
      case KIND.own:
        if (this.subtractOwn) this.applyOwn(i);
        return;
      default: {
        const ev = col.objects[col.a[i]!]!;
        if (ev.type === 'gap') {
          this.feed.reset(ev.symbol === null ? null : col.sym[i]!);
          this.sinks.connection$.next({ stream: 'market-data', connected: false, tsRecv: t });
          this.sinks.connection$.next({ stream: 'market-data', connected: true, tsRecv: t });
          return;
        }
        const adjusted = ev.tsRecv === t ? ev : { ...ev, tsRecv: t };
        this.#emit(adjusted);
        if (adjusted.type === 'funding' && this.sinks.forwardFunding(col.sym[i]!)) this.sinks.funding$.next(adjusted.settlement);
      }
    }
  }

  /** Takes the recording bot's own orders of own row `i` (replacing that symbol's previous ones). */
  applyOwn(i: number): void {
    const col = this.col;
    const start = col.a[i]!;
    const nb = col.b[i]!;
    const own: OwnRestingOrder[] = [];
    for (let j = start, end = start + nb + col.c[i]!; j < end; j++)
      own.push({ side: j - start < nb ? 'buy' : 'sell', priceTicks: col.levels[2 * j]!, qty: col.levels[2 * j + 1]! });
    this.#own[col.sym[i]!] = own;
  }

  /** Flushes every window that ends at or before `t`. */
  flush(t: number): void {
    this.nextFlush = Infinity;
    const flushAt = this.#flushAt;
    for (let s = 0; s < flushAt.length; s++) {
      if (flushAt[s]! <= t) {
        flushAt[s] = Infinity;
        const tr = this.#heldTrade[s]!;
        if (tr >= 0) {
          this.#heldTrade[s] = -1;
          this.#emit(this.feed.trade(tr, t));
        }
        const row = this.#lastBookRow[s]!;
        const ev = row >= 0 ? this.feed.snapshot(s, this.col.tsEvent[row]!, t) : null;
        if (ev) this.#emit(ev);
      }
      if (flushAt[s]! < this.nextFlush) this.nextFlush = flushAt[s]!;
    }
  }

  #hold(s: number, t: number): void {
    if (this.#flushAt[s] === Infinity) {
      const at = t + this.conflateMs;
      this.#flushAt[s] = at;
      if (at < this.nextFlush) this.nextFlush = at;
    }
  }

  #emit(ev: MarketEvent): void {
    this.delivered++;
    if (ev.type === 'book' && this.subtractOwn) {
      const own = this.#own[this.#symIndex.get(ev.symbol)!];
      if (own && own.length > 0) ev = othersBook(ev, own);
    }
    this.sinks.market$.next(ev);
  }
}
