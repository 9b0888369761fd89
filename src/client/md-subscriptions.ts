import type { Clock } from '../core/clock.ts';
import type { Symbol } from '../core/ids.ts';
import type { WireMdRequest } from '../wire/index.ts';
import type { DistributiveOmit } from './stream-types.ts';

/** A market-data subscription level as the venue names it. */
export type BookLevelName = 'LEVEL_1' | 'LEVEL_2' | 'LEVEL_3' | 'TRADES';

/** One symbol's book subscription and its health. Mutable: owned by the registry. */
export interface BookSubscription {
  readonly symbol: Symbol;
  readonly level: BookLevelName;
  readonly trades: boolean;
  readonly ticker: boolean;
  /** `pending` until sent on a connection, `awaiting` a snapshot, `live` once one arrived. */
  phase: 'pending' | 'awaiting' | 'live';
  /** Last frame of any kind for the symbol, epoch ms. */
  lastFrameMs: number;
  stale: boolean;
  /** Recoveries since the last snapshot (drives the deadline backoff). */
  recoveries: number;
  cancelDeadline: (() => void) | undefined;
}

/** What the registry needs from its owner. */
export interface MdSubscriptionsDeps {
  readonly clock: Clock;
  readonly snapshotTimeoutMs: number;
  /** Sends a request on the current connection; false when not connected. */
  readonly send: (req: DistributiveOmit<WireMdRequest, 'rid'>) => boolean;
  /** Called when a book is being recovered (its old book must be forgotten). */
  readonly onRecover: (sub: BookSubscription) => void;
}

/**
 * The registry of market-data subscriptions: what to (re)subscribe on every connect, the snapshot
 * deadline per book, and recovery by unsubscribe + subscribe with a growing deadline.
 */
export class MdSubscriptions {
  readonly #d: MdSubscriptionsDeps;
  readonly #books = new Map<string, BookSubscription>();
  readonly #candles = new Map<string, { readonly symbol: Symbol; readonly width: string }>();
  readonly #candleSymbols = new Map<string, number>();

  constructor(deps: MdSubscriptionsDeps) {
    this.#d = deps;
  }

  /** Adds (or changes the level of) a book subscription; sends it now when connected. */
  addBook(symbol: Symbol, level: BookLevelName, trades: boolean, ticker: boolean, connected: boolean): void {
    const prev = this.#books.get(symbol);
    if (prev) {
      prev.cancelDeadline?.();
      // The venue allows one book subscription per symbol: changing level is unsubscribe + subscribe.
      if (connected) this.#d.send({ type: 'unsubscribe', symbol });
    }
    const sub: BookSubscription = { symbol, level, trades, ticker, phase: 'pending', lastFrameMs: this.#d.clock.nowMs(), stale: false, recoveries: 0, cancelDeadline: undefined };
    this.#books.set(symbol, sub);
    if (connected) this.#subscribe(sub);
  }

  /** Removes a book subscription; sends the unsubscribe when connected. */
  removeBook(symbol: string, connected: boolean): void {
    const sub = this.#books.get(symbol);
    if (!sub) return;
    sub.cancelDeadline?.();
    this.#books.delete(symbol);
    if (connected) this.#d.send({ type: 'unsubscribe', symbol });
  }

  /** Adds a candle subscription. */
  addCandles(symbol: Symbol, width: string, connected: boolean): void {
    const key = `${symbol}:${width}`;
    if (this.#candles.has(key)) return;
    this.#candles.set(key, { symbol, width });
    this.#candleSymbols.set(symbol, (this.#candleSymbols.get(symbol) ?? 0) + 1);
    if (connected) this.#d.send({ type: 'subscribe_candles', symbol, width });
  }

  /** Removes a candle subscription. */
  removeCandles(symbol: string, width: string, connected: boolean): void {
    const key = `${symbol}:${width}`;
    if (!this.#candles.delete(key)) return;
    const n = (this.#candleSymbols.get(symbol) ?? 1) - 1;
    if (n <= 0) this.#candleSymbols.delete(symbol);
    else this.#candleSymbols.set(symbol, n);
    if (connected) this.#d.send({ type: 'unsubscribe_candles', symbol, width });
  }

  /** True when some candle subscription exists for `symbol`. */
  hasCandles(symbol: string): boolean {
    return this.#candleSymbols.has(symbol);
  }

  /** Sends every subscription on a fresh connection and arms the snapshot deadlines. */
  replay(nowMs: number): void {
    for (const sub of this.#books.values()) {
      sub.lastFrameMs = nowMs;
      sub.stale = false;
      sub.recoveries = 0;
      this.#subscribe(sub);
    }
    for (const c of this.#candles.values()) this.#d.send({ type: 'subscribe_candles', symbol: c.symbol, width: c.width });
  }

  /** The connection dropped: nothing is live, no deadline runs until the replay. */
  disconnected(): void {
    for (const sub of this.#books.values()) {
      sub.cancelDeadline?.();
      sub.cancelDeadline = undefined;
      sub.phase = 'pending';
    }
  }

  /** Records a frame for `symbol` and returns its subscription (hot path: one map lookup). */
  touch(symbol: string, nowMs: number): BookSubscription | undefined {
    const sub = this.#books.get(symbol);
    if (sub) sub.lastFrameMs = nowMs;
    return sub;
  }

  /** A snapshot arrived: the book is live. */
  snapshotReceived(sub: BookSubscription): void {
    if (sub.phase === 'live') return;
    sub.phase = 'live';
    sub.recoveries = 0;
    sub.cancelDeadline?.();
    sub.cancelDeadline = undefined;
  }

  /** Forces a fresh snapshot: unsubscribe + subscribe, with a longer deadline each time. */
  recover(sub: BookSubscription, _reason: string): void {
    if (this.#books.get(sub.symbol) !== sub) return;
    sub.cancelDeadline?.();
    sub.recoveries++;
    this.#d.onRecover(sub);
    this.#d.send({ type: 'unsubscribe', symbol: sub.symbol });
    this.#subscribe(sub);
  }

  /** Drops a subscription the venue refused with a client error (it would never succeed). */
  dropFailed(kind: string, key: string): void {
    if (kind === 'subscribe') {
      const sub = this.#books.get(key);
      sub?.cancelDeadline?.();
      this.#books.delete(key);
    } else if (kind === 'subscribe_candles') {
      const [symbol, width] = [key.slice(0, key.lastIndexOf(':')), key.slice(key.lastIndexOf(':') + 1)];
      this.removeCandles(symbol, width, false);
    }
  }

  /** The book subscription of `symbol`. */
  book(symbol: string): BookSubscription | undefined {
    return this.#books.get(symbol);
  }

  /** Every book subscription. */
  books(): BookSubscription[] {
    return [...this.#books.values()];
  }

  /** Cancels every deadline. */
  dispose(): void {
    for (const sub of this.#books.values()) sub.cancelDeadline?.();
  }

  #subscribe(sub: BookSubscription): void {
    const req = { type: 'subscribe' as const, symbol: sub.symbol, level: sub.level, ...(sub.trades ? {} : { trades: false }), ...(sub.ticker ? {} : { ticker: false }) };
    if (!this.#d.send(req)) return;
    if (sub.level === 'TRADES') {
      sub.phase = 'live';
      return;
    }
    sub.phase = 'awaiting';
    // Each recovery doubles the wait (capped at 16×): a slow venue is not hammered with resubscribes.
    const timeoutMs = this.#d.snapshotTimeoutMs * Math.pow(2, Math.min(4, sub.recoveries));
    sub.cancelDeadline = this.#d.clock.setTimer(timeoutMs, () => {
      sub.cancelDeadline = undefined;
      if (sub.phase === 'awaiting' && this.#books.get(sub.symbol) === sub) this.recover(sub, 'snapshot deadline');
    });
  }
}
