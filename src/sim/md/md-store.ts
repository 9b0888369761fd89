import type { Side } from '../../domain/enums.ts';
import { CandleAggregator } from './candles.ts';

/** One stored trade print. */
export interface StoredTrade {
  readonly priceTicks: number;
  readonly qty: number;
  readonly takerSide: Side;
  readonly tsNs: bigint;
}

/** One stored underlying price. */
export interface StoredUnderlying {
  readonly tsMs: number;
  readonly price: number;
}

/** Session statistics for the ticker (UTC day). */
export interface SessionStats {
  dayStartMs: number;
  openTicks: number | null;
  highTicks: number | null;
  lowTicks: number | null;
}

/** A fixed-capacity ring buffer (oldest overwritten). */
export class Ring<T> {
  readonly #buf: (T | undefined)[];
  #start = 0;
  #len = 0;
  constructor(readonly capacity: number) {
    this.#buf = new Array<T | undefined>(capacity);
  }
  /** Appends, dropping the oldest when full. */
  push(v: T): void {
    const i = (this.#start + this.#len) % this.capacity;
    this.#buf[i] = v;
    if (this.#len < this.capacity) this.#len++;
    else this.#start = (this.#start + 1) % this.capacity;
  }
  /** Number of items. */
  get length(): number {
    return this.#len;
  }
  /** Item `i` counted from the oldest. */
  at(i: number): T | undefined {
    return i < 0 || i >= this.#len ? undefined : this.#buf[(this.#start + i) % this.capacity];
  }
  /** The newest item. */
  last(): T | undefined {
    return this.at(this.#len - 1);
  }
  /** Oldest-first copy. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.#len; i++) out.push(this.at(i)!);
    return out;
  }
}

/** Per-symbol market-data history: trades, candles, underlying prices and session stats. */
export class SymbolHistory {
  readonly trades: Ring<StoredTrade>;
  readonly underlying: Ring<StoredUnderlying>;
  readonly candles = new CandleAggregator();
  readonly session: SessionStats = { dayStartMs: 0, openTicks: null, highTicks: null, lowTicks: null };

  constructor(tradeCapacity: number, underlyingCapacity: number) {
    this.trades = new Ring(tradeCapacity);
    this.underlying = new Ring(underlyingCapacity);
  }

  /** Records a trade; rolls the session at UTC midnight. */
  addTrade(t: StoredTrade): void {
    this.trades.push(t);
    const ms = Number(t.tsNs / 1_000_000n);
    const day = Math.floor(ms / 86_400_000) * 86_400_000;
    const s = this.session;
    if (day !== s.dayStartMs || s.openTicks === null) {
      s.dayStartMs = day;
      s.openTicks = t.priceTicks;
      s.highTicks = t.priceTicks;
      s.lowTicks = t.priceTicks;
    } else {
      s.highTicks = Math.max(s.highTicks!, t.priceTicks);
      s.lowTicks = Math.min(s.lowTicks!, t.priceTicks);
    }
  }
}
