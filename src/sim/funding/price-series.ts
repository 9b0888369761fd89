/**
 * A time series of prices for one symbol (marks, underlying or trade prints) with time-weighted and
 * volume-weighted averages over windows. Bounded: samples older than `retainMs` before the newest
 * are dropped, except the one still in force at that cutoff (a TWAP from the cutoff needs it).
 * Prices are plain numbers in quote units (the averages feed Decimal maths at the edge).
 */
export interface PriceSample {
  readonly tsMs: number;
  readonly price: number;
  /** Volume for VWAP (trades); 0 for underlying quotes. */
  readonly qty: number;
}

const INITIAL_CAPACITY = 64;

/**
 * A bounded, append-only price series stored column-wise in a ring of Float64Arrays (24 bytes a
 * sample, no object per sample: the venue samples every symbol every second). Lookups by time are
 * binary searches.
 */
export class PriceSeries {
  #ts = new Float64Array(INITIAL_CAPACITY);
  #px = new Float64Array(INITIAL_CAPACITY);
  #qty = new Float64Array(INITIAL_CAPACITY);
  #mask = INITIAL_CAPACITY - 1;
  #head = 0;
  #len = 0;

  /** @param retainMs how far back from the newest sample to keep (the longest window read). */
  constructor(public retainMs: number) {}

  /** Number of live samples. */
  get length(): number {
    return this.#len;
  }

  /** Appends a sample (timestamps must not go backwards; late samples are clamped). */
  push(tsMs: number, price: number, qty = 0): void {
    if (this.#len === this.#mask + 1) this.#grow();
    const lastTs = this.#len > 0 ? this.#tsAt(this.#len - 1) : -Infinity;
    const i = (this.#head + this.#len) & this.#mask;
    this.#ts[i] = tsMs < lastTs ? lastTs : tsMs;
    this.#px[i] = price;
    this.#qty[i] = qty;
    this.#len++;
    const cutoff = tsMs - this.retainMs;
    while (this.#len > 1 && this.#tsAt(1) < cutoff) {
      this.#head = (this.#head + 1) & this.#mask;
      this.#len--;
    }
  }

  /** The latest sample, if any. */
  last(): PriceSample | undefined {
    return this.#len > 0 ? this.#sample(this.#len - 1) : undefined;
  }

  /** The oldest live sample, if any. */
  first(): PriceSample | undefined {
    return this.#len > 0 ? this.#sample(0) : undefined;
  }

  /** Live samples in time order (a copy). */
  samples(): PriceSample[] {
    const out: PriceSample[] = [];
    for (let k = 0; k < this.#len; k++) out.push(this.#sample(k));
    return out;
  }

  /** Samples with fromMs ≤ ts < toMs, in time order. */
  range(fromMs: number, toMs: number): PriceSample[] {
    const out: PriceSample[] = [];
    for (let k = this.#lowerBound(fromMs); k < this.#len && this.#tsAt(k) < toMs; k++) out.push(this.#sample(k));
    return out;
  }

  /** The price in force at `tsMs` (last sample at or before it). */
  at(tsMs: number): number | undefined {
    const k = this.#upperBound(tsMs) - 1;
    return k >= 0 ? this.#pxAt(k) : undefined;
  }

  /**
   * Time-weighted average over [fromMs, toMs): each price holds until the next sample. The price
   * in force at fromMs counts from fromMs. Undefined when no price is known in the window.
   */
  twap(fromMs: number, toMs: number): number | undefined {
    if (toMs <= fromMs) return undefined;
    let price = this.at(fromMs);
    let t = fromMs;
    let acc = 0;
    let covered = 0;
    for (let k = this.#lowerBound(fromMs); k < this.#len; k++) {
      const ts = this.#tsAt(k);
      if (ts >= toMs) break;
      if (price !== undefined) {
        acc += price * (ts - t);
        covered += ts - t;
      }
      price = this.#pxAt(k);
      t = ts;
    }
    if (price !== undefined) {
      acc += price * (toMs - t);
      covered += toMs - t;
    }
    return covered > 0 ? acc / covered : undefined;
  }

  /** Volume-weighted average of samples in [fromMs, toMs); undefined without volume. */
  vwap(fromMs: number, toMs: number): number | undefined {
    let pq = 0;
    let q = 0;
    for (let k = this.#lowerBound(fromMs); k < this.#len; k++) {
      const i = (this.#head + k) & this.#mask;
      if (this.#ts[i]! >= toMs) break;
      pq += this.#px[i]! * this.#qty[i]!;
      q += this.#qty[i]!;
    }
    return q > 0 ? pq / q : undefined;
  }

  #tsAt(k: number): number {
    return this.#ts[(this.#head + k) & this.#mask]!;
  }

  #pxAt(k: number): number {
    return this.#px[(this.#head + k) & this.#mask]!;
  }

  #sample(k: number): PriceSample {
    const i = (this.#head + k) & this.#mask;
    return { tsMs: this.#ts[i]!, price: this.#px[i]!, qty: this.#qty[i]! };
  }

  /** First logical index with ts ≥ t. */
  #lowerBound(t: number): number {
    let lo = 0;
    let hi = this.#len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#tsAt(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First logical index with ts > t. */
  #upperBound(t: number): number {
    let lo = 0;
    let hi = this.#len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#tsAt(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #grow(): void {
    const cap = (this.#mask + 1) * 2;
    this.#ts = unrolled(this.#ts, this.#head, this.#len, cap);
    this.#px = unrolled(this.#px, this.#head, this.#len, cap);
    this.#qty = unrolled(this.#qty, this.#head, this.#len, cap);
    this.#mask = cap - 1;
    this.#head = 0;
  }
}

/** A ring's `len` items from `head` copied to the start of a new array of `cap`. */
function unrolled(src: Float64Array, head: number, len: number, cap: number): Float64Array<ArrayBuffer> {
  const dst = new Float64Array(cap);
  const mask = src.length - 1;
  for (let k = 0; k < len; k++) dst[k] = src[(head + k) & mask]!;
  return dst;
}
