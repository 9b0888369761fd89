import { Ewma } from './ewma.ts';

/** Common shape of the volatility estimators: σ in price units (ticks) per √second. */
export interface VolatilityEstimator {
  /** Feeds the current price (e.g. the mid, in ticks) at engine time `nowMs`. */
  update(price: number, nowMs: number): void;
  /** σ in price units per √s; NaN until `ready`. */
  readonly sigmaPerSqrtS: number;
  /** Number of price increments behind the estimate. */
  readonly samples: number;
  /** True once `samples` reaches the estimator's minimum. */
  readonly ready: boolean;
}

/**
 * Reads a price at most once per `sampleMs` step and hands out the increment since the previous
 * reading (the first reading only sets the start). Shared by the volatility estimators.
 */
class GridSampler {
  #lastPrice = Number.NaN;
  #lastMs = Number.NaN;
  /** Price change of the last accepted increment. */
  dx = 0;
  /** Duration of the last accepted increment, ms. */
  dtMs = 0;

  constructor(readonly sampleMs: number) {}

  /** True when `price` at `nowMs` completes an increment (then `dx`/`dtMs` hold it). */
  accept(price: number, nowMs: number): boolean {
    if (!Number.isFinite(price)) return false;
    if (Number.isNaN(this.#lastMs)) {
      this.#lastPrice = price;
      this.#lastMs = nowMs;
      return false;
    }
    const dtMs = nowMs - this.#lastMs;
    if (dtMs < this.sampleMs) return false;
    this.dx = price - this.#lastPrice;
    this.dtMs = dtMs;
    this.#lastPrice = price;
    this.#lastMs = nowMs;
    return true;
  }
}

/**
 * EWMA volatility of a price sampled on a fixed grid of `sampleMs` (the price is read at most once
 * per grid step, which keeps the bid–ask bounce of tick-by-tick mids out of the estimate):
 * σ² = Σ wᵢ·Δxᵢ² / Σ wᵢ·Δtᵢ, with weights halving every `halfLifeMs`. Gaps longer than a step
 * count as one increment over their whole duration. O(1) per update, no allocation.
 */
export class EwmaVolatility implements VolatilityEstimator {
  readonly #sq: Ewma;
  readonly #dt: Ewma;
  readonly #grid: GridSampler;
  #samples = 0;

  /**
   * @param halfLifeMs half-life of the weights (engine ms)
   * @param sampleMs sampling step (engine ms)
   * @param minSamples increments needed before `ready`
   */
  constructor(halfLifeMs: number, readonly sampleMs = 1000, readonly minSamples = 20) {
    if (!(sampleMs > 0)) throw new RangeError(`volatility sample step must be positive, got ${sampleMs} ms`);
    this.#sq = new Ewma(halfLifeMs);
    this.#dt = new Ewma(halfLifeMs);
    this.#grid = new GridSampler(sampleMs);
  }

  /** Feeds the price at `nowMs`; only one reading per `sampleMs` step is used. */
  update(price: number, nowMs: number): void {
    const g = this.#grid;
    if (!g.accept(price, nowMs)) return;
    // Both averages share weights, so their ratio is Σw·Δx²/Σw·Δt.
    this.#sq.update(g.dx * g.dx, nowMs);
    this.#dt.update(g.dtMs / 1000, nowMs);
    this.#samples++;
  }

  get sigmaPerSqrtS(): number {
    if (!this.ready) return Number.NaN;
    return Math.sqrt(this.#sq.value / this.#dt.value);
  }

  get samples(): number {
    return this.#samples;
  }

  get ready(): boolean {
    return this.#samples >= this.minSamples;
  }
}

/**
 * Realised volatility over the last `windowSamples` increments of a price sampled every
 * `sampleMs`: σ² = ΣΔx² / ΣΔt over the window (a ring buffer allocated once). O(1) per update.
 */
export class RealizedVolatility implements VolatilityEstimator {
  readonly #sq: Float64Array;
  readonly #dt: Float64Array;
  #head = 0;
  #count = 0;
  #sumSq = 0;
  #sumDtS = 0;
  readonly #grid: GridSampler;
  #sinceResum = 0;

  /** @throws RangeError when the window or step is not positive. */
  constructor(readonly windowSamples: number, readonly sampleMs = 1000, readonly minSamples = Math.min(20, windowSamples)) {
    if (!(windowSamples >= 1) || !(sampleMs > 0)) throw new RangeError(`realised volatility needs a window ≥ 1 and a positive step, got ${windowSamples}, ${sampleMs} ms`);
    this.#sq = new Float64Array(windowSamples);
    this.#dt = new Float64Array(windowSamples);
    this.#grid = new GridSampler(sampleMs);
  }

  /** Feeds the price at `nowMs`; only one reading per `sampleMs` step is used. */
  update(price: number, nowMs: number): void {
    const g = this.#grid;
    if (!g.accept(price, nowMs)) return;
    const sq = g.dx * g.dx;
    const dtS = g.dtMs / 1000;
    const n = this.windowSamples;
    if (this.#count === n) {
      this.#sumSq -= this.#sq[this.#head]!;
      this.#sumDtS -= this.#dt[this.#head]!;
    } else this.#count++;
    this.#sq[this.#head] = sq;
    this.#dt[this.#head] = dtS;
    this.#sumSq += sq;
    this.#sumDtS += dtS;
    this.#head = (this.#head + 1) % n;
    // Running sums drift with floating-point error: recompute them once per window.
    if (++this.#sinceResum >= n) this.#resum();
  }

  #resum(): void {
    let s = 0;
    let t = 0;
    for (let i = 0; i < this.#count; i++) {
      s += this.#sq[i]!;
      t += this.#dt[i]!;
    }
    this.#sumSq = s;
    this.#sumDtS = t;
    this.#sinceResum = 0;
  }

  get sigmaPerSqrtS(): number {
    return this.ready && this.#sumDtS > 0 ? Math.sqrt(Math.max(0, this.#sumSq) / this.#sumDtS) : Number.NaN;
  }

  get samples(): number {
    return this.#count;
  }

  get ready(): boolean {
    return this.#count >= this.minSamples;
  }
}
