/**
 * A time series of prices for one symbol (underlying or trade prints) with time-weighted and
 * volume-weighted averages over windows. Bounded: samples older than `retainMs` are dropped.
 * Prices are plain numbers in quote units (the averages feed Decimal maths at the edge).
 */
export interface PriceSample {
  readonly tsMs: number;
  readonly price: number;
  /** Volume for VWAP (trades); 0 for underlying quotes. */
  readonly qty: number;
}

/** A bounded, append-only price series. */
export class PriceSeries {
  readonly #samples: PriceSample[] = [];
  #head = 0;

  constructor(private readonly retainMs: number) {}

  /** Appends a sample (timestamps must not go backwards; late samples are clamped). */
  push(tsMs: number, price: number, qty = 0): void {
    const last = this.last();
    this.#samples.push({ tsMs: last && tsMs < last.tsMs ? last.tsMs : tsMs, price, qty });
    const cutoff = tsMs - this.retainMs;
    while (this.#head < this.#samples.length - 1 && this.#samples[this.#head + 1]!.tsMs < cutoff) this.#head++;
    if (this.#head > 4096) {
      this.#samples.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /** The latest sample, if any. */
  last(): PriceSample | undefined {
    return this.#samples[this.#samples.length - 1];
  }

  /** Live samples in time order. */
  samples(): readonly PriceSample[] {
    return this.#samples.slice(this.#head);
  }

  /** Samples with fromMs ≤ ts < toMs, in time order. */
  range(fromMs: number, toMs: number): PriceSample[] {
    return this.samples().filter((s) => s.tsMs >= fromMs && s.tsMs < toMs);
  }

  /** The price in force at `tsMs` (last sample at or before it). */
  at(tsMs: number): number | undefined {
    let found: number | undefined;
    for (let i = this.#head; i < this.#samples.length; i++) {
      const s = this.#samples[i]!;
      if (s.tsMs > tsMs) break;
      found = s.price;
    }
    return found;
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
    for (const s of this.range(fromMs, toMs)) {
      if (price !== undefined) {
        acc += price * (s.tsMs - t);
        covered += s.tsMs - t;
      }
      price = s.price;
      t = s.tsMs;
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
    for (const s of this.range(fromMs, toMs)) {
      pq += s.price * s.qty;
      q += s.qty;
    }
    return q > 0 ? pq / q : undefined;
  }
}
