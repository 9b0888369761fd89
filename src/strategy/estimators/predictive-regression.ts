import { grownColumn } from './ring.ts';
/** Options of {@link PredictiveRegression} (engine ms). */
export interface PredictiveRegressionOptions {
  /** How far ahead the response is measured: y = price(t + horizonMs) − price(t). */
  readonly horizonMs: number;
  /** Sampling step of (x, price) pairs (default 1 s). */
  readonly sampleMs?: number;
  /** Half-life of the regression weights. */
  readonly halfLifeMs: number;
  /** Matured samples before the slope is used (default 60). */
  readonly minSamples?: number;
  /** t-statistic the slope must exceed before it counts at all (default 2: shrink factor 1 − z²/t²). */
  readonly zScore?: number;
}

/**
 * Online predictive regression through the origin of the price move over the next `horizonMs` on a
 * signal x sampled at the same instant: y = β·x + ε, β = Σw·x·y / Σw·x² with weights halving every
 * `halfLifeMs`. The slope is shrunk toward 0 by its own significance, β·max(0, 1 − z²/t²), where t
 * is β over its standard error, the error variance inflated by horizonMs/sampleMs because
 * overlapping horizons make consecutive samples dependent: a signal that predicts nothing (calm
 * markets, noise) gets β ≈ 0, one that does is used at its measured strength. Units: x as given, y
 * in the price's unit (e.g. ticks). O(1) amortised per call, allocation-free after warm-up.
 */
export class PredictiveRegression {
  readonly horizonMs: number;
  readonly sampleMs: number;
  readonly #decayPerMs: number;
  readonly #minSamples: number;
  readonly #z2: number;
  // Pending samples (time, x, price) in a ring; capacity covers the horizon.
  #t: Float64Array;
  #x: Float64Array;
  #p: Float64Array;
  #head = 0;
  #size = 0;
  #nextSampleMs = -Infinity;
  #sxx = 0;
  #sxy = 0;
  #syy = 0;
  #w = 0;
  #n = 0;
  #lastMs = Number.NaN;
  #beta = 0;

  /** @throws RangeError on non-positive horizon, step or half-life. */
  constructor(o: PredictiveRegressionOptions) {
    const sampleMs = o.sampleMs ?? 1000;
    if (!(o.horizonMs > 0) || !(sampleMs > 0) || !(o.halfLifeMs > 0)) throw new RangeError(`PredictiveRegression: horizon, sample step and half-life must be positive (got ${o.horizonMs}, ${sampleMs}, ${o.halfLifeMs})`);
    this.horizonMs = o.horizonMs;
    this.sampleMs = sampleMs;
    this.#decayPerMs = Math.LN2 / o.halfLifeMs;
    this.#minSamples = o.minSamples ?? 60;
    this.#z2 = (o.zScore ?? 2) ** 2;
    const cap = Math.ceil(o.horizonMs / sampleMs) + 4;
    this.#t = new Float64Array(cap);
    this.#x = new Float64Array(cap);
    this.#p = new Float64Array(cap);
  }

  /** Feeds the signal `x` and the price at `nowMs` (non-finite values are ignored). */
  observe(x: number, price: number, nowMs: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(price)) return;
    // Mature every pending sample whose horizon has passed, against the current price.
    let matured = false;
    while (this.#size > 0) {
      const i = this.#head;
      if (this.#t[i]! + this.horizonMs > nowMs) break;
      this.#add(this.#x[i]!, price - this.#p[i]!, nowMs);
      this.#head = (i + 1) % this.#t.length;
      this.#size--;
      matured = true;
    }
    if (matured) this.#refit();
    if (nowMs < this.#nextSampleMs) return;
    this.#nextSampleMs = nowMs + this.sampleMs;
    if (this.#size === this.#t.length) this.#grow();
    const j = (this.#head + this.#size) % this.#t.length;
    this.#t[j] = nowMs;
    this.#x[j] = x;
    this.#p[j] = price;
    this.#size++;
  }

  #add(x: number, y: number, nowMs: number): void {
    if (!Number.isNaN(this.#lastMs) && nowMs > this.#lastMs) {
      const f = Math.exp(-this.#decayPerMs * (nowMs - this.#lastMs));
      this.#sxx *= f;
      this.#sxy *= f;
      this.#syy *= f;
      this.#w *= f;
    }
    this.#lastMs = nowMs;
    this.#sxx += x * x;
    this.#sxy += x * y;
    this.#syy += y * y;
    this.#w += 1;
    this.#n++;
  }

  #refit(): void {
    if (this.#n < this.#minSamples || !(this.#sxx > 0) || !(this.#w > 1)) {
      this.#beta = 0;
      return;
    }
    const b = this.#sxy / this.#sxx;
    const resid = Math.max(0, this.#syy - b * this.#sxy) / (this.#w - 1);
    // Overlapping horizons: about horizon/step consecutive samples share each move.
    const overlap = Math.max(1, this.horizonMs / this.sampleMs);
    const varB = (resid * overlap) / this.#sxx;
    const t2 = varB > 0 ? (b * b) / varB : b !== 0 ? Infinity : 0;
    this.#beta = t2 > this.#z2 ? b * (1 - this.#z2 / t2) : 0;
  }

  #grow(): void {
    this.#t = grownColumn(this.#t, this.#head, this.#size);
    this.#x = grownColumn(this.#x, this.#head, this.#size);
    this.#p = grownColumn(this.#p, this.#head, this.#size);
    this.#head = 0;
  }

  /** The shrunk slope β (price units per unit of x; 0 until `minSamples` matured or when not significant). */
  get beta(): number {
    return this.#beta;
  }

  /** Matured samples so far. */
  get samples(): number {
    return this.#n;
  }

  /** Predicted move over the horizon for signal `x`: β·x. */
  predict(x: number): number {
    return this.#beta * x;
  }
}
