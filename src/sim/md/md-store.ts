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
}

/**
 * Underlying prices for /api/underlying-prices, downsampled: at most one row per `bucketMs` of venue
 * time (the bucket's latest observation with its own timestamp; `bucketMs` 0 keeps every one), the
 * newest `capacity` rows, stored column-wise (16 bytes a row, no object per row).
 */
export class UnderlyingHistory {
  #ts: Float64Array<ArrayBuffer>;
  #px: Float64Array<ArrayBuffer>;
  #start = 0;
  #len = 0;

  constructor(
    readonly capacity: number,
    readonly bucketMs: number,
  ) {
    this.#ts = new Float64Array(Math.min(64, capacity));
    this.#px = new Float64Array(Math.min(64, capacity));
  }

  /** Records an observation: replaces the newest row when both fall in the same bucket. */
  record(tsMs: number, price: number): void {
    if (this.#len > 0 && this.bucketMs > 0) {
      const i = this.#index(this.#len - 1);
      if (Math.floor(this.#ts[i]! / this.bucketMs) === Math.floor(tsMs / this.bucketMs)) {
        this.#ts[i] = tsMs;
        this.#px[i] = price;
        return;
      }
    }
    if (this.#len === this.#ts.length && this.#len < this.capacity) this.#grow();
    if (this.#len === this.#ts.length) {
      // Full at capacity: overwrite the oldest.
      this.#start = (this.#start + 1) % this.#ts.length;
      this.#len--;
    }
    const i = this.#index(this.#len);
    this.#ts[i] = tsMs;
    this.#px[i] = price;
    this.#len++;
  }

  /** Number of rows. */
  get length(): number {
    return this.#len;
  }

  /** The newest observation. */
  last(): StoredUnderlying | undefined {
    if (this.#len === 0) return undefined;
    const i = this.#index(this.#len - 1);
    return { tsMs: this.#ts[i]!, price: this.#px[i]! };
  }

  /** Oldest-first rows. */
  toArray(): StoredUnderlying[] {
    const out: StoredUnderlying[] = [];
    for (let k = 0; k < this.#len; k++) {
      const i = this.#index(k);
      out.push({ tsMs: this.#ts[i]!, price: this.#px[i]! });
    }
    return out;
  }

  #index(k: number): number {
    return (this.#start + k) % this.#ts.length;
  }

  #grow(): void {
    const cap = Math.min(this.capacity, this.#ts.length * 2);
    const ts = new Float64Array(cap);
    const px = new Float64Array(cap);
    for (let k = 0; k < this.#len; k++) {
      ts[k] = this.#ts[this.#index(k)]!;
      px[k] = this.#px[this.#index(k)]!;
    }
    this.#ts = ts;
    this.#px = px;
    this.#start = 0;
  }
}

/** Per-symbol market-data history: trades, candles, underlying prices and session stats. */
export class SymbolHistory {
  readonly trades: Ring<StoredTrade>;
  readonly underlying: UnderlyingHistory;
  readonly candles: CandleAggregator;
  readonly session: SessionStats = { dayStartMs: 0, openTicks: null, highTicks: null, lowTicks: null };

  constructor(tradeCapacity: number, underlyingCapacity: number, underlyingBucketMs = 60_000, candleCapacity = 2_000) {
    this.trades = new Ring(tradeCapacity);
    this.candles = new CandleAggregator(candleCapacity);
    this.underlying = new UnderlyingHistory(underlyingCapacity, underlyingBucketMs);
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
