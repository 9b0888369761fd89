import { grownColumn } from './ring.ts';

/** Options of {@link ShrunkRegression} (engine ms). */
export interface ShrunkRegressionOptions {
  /** Signals regressed on: 1 (one signal) or 3 (e.g. touch, order-flow and trade-flow imbalance). */
  readonly features: 1 | 3;
  /** y = price(t + horizonMs) − price(t). */
  readonly horizonMs: number;
  /** Sampling step of (features, price) (default 1 s). */
  readonly sampleMs?: number;
  /** Half-life of the regression weights. */
  readonly halfLifeMs: number;
  /** Matured samples before any coefficient is used. */
  readonly minSamples: number;
  /** t-statistic a coefficient must exceed to count (default 2; shrink factor 1 − z²/t²). */
  readonly zScore?: number;
  /** Names the estimator in errors. */
  readonly name: string;
}

/**
 * Online regression through the origin of the price move over the next `horizonMs` on signals
 * sampled at the same instant: β = (XᵀWX)⁻¹XᵀWy with weights halving every `halfLifeMs`. Each
 * coefficient is shrunk toward 0 by its own significance, β·max(0, 1 − z²/t²), its variance
 * inflated by horizonMs/sampleMs because overlapping horizons make consecutive samples dependent:
 * signals that predict nothing get 0, so a calm or efficient market predicts no move. Counts how
 * often the prediction's sign was right (`hitRate`, out of sample: each sample is scored with the
 * coefficients in force when it was taken). O(1) amortised per call, allocation-free after warm-up.
 * The one estimator behind `PredictiveRegression` (one signal) and `MidPredictor` (three).
 */
export class ShrunkRegression {
  readonly horizonMs: number;
  readonly sampleMs: number;
  readonly #n: number;
  readonly #decayPerMs: number;
  readonly #minSamples: number;
  readonly #z2: number;
  // Pending samples: time, price, prediction made then, features (row-major).
  #t: Float64Array;
  #p: Float64Array;
  #pred: Float64Array;
  #x: Float64Array;
  #head = 0;
  #size = 0;
  #nextSampleMs = -Infinity;
  // Decayed XᵀWX, XᵀWy, yᵀWy, Σw.
  readonly #sxx: Float64Array;
  readonly #sxy: Float64Array;
  #syy = 0;
  #w = 0;
  #samples = 0;
  #lastMs = Number.NaN;
  readonly #beta: Float64Array;
  readonly #inv = new Float64Array(9);
  #hits = 0;
  #scored = 0;

  /** @throws RangeError on non-positive horizon, step or half-life. */
  constructor(o: ShrunkRegressionOptions) {
    const sampleMs = o.sampleMs ?? 1000;
    if (!(o.horizonMs > 0) || !(sampleMs > 0) || !(o.halfLifeMs > 0)) throw new RangeError(`${o.name}: horizon, sample step and half-life must be positive (got ${o.horizonMs}, ${sampleMs}, ${o.halfLifeMs})`);
    const n = o.features;
    this.#n = n;
    this.horizonMs = o.horizonMs;
    this.sampleMs = sampleMs;
    this.#decayPerMs = Math.LN2 / o.halfLifeMs;
    this.#minSamples = o.minSamples;
    this.#z2 = (o.zScore ?? 2) ** 2;
    this.#sxx = new Float64Array(n * n);
    this.#sxy = new Float64Array(n);
    this.#beta = new Float64Array(n);
    const cap = Math.ceil(o.horizonMs / sampleMs) + 4;
    this.#t = new Float64Array(cap);
    this.#p = new Float64Array(cap);
    this.#pred = new Float64Array(cap);
    this.#x = new Float64Array(cap * n);
  }

  /** Feeds the signals (`row`, `features` of them) and the price at `nowMs` (a non-finite value skips the call). */
  observe(row: ArrayLike<number>, price: number, nowMs: number): void {
    const n = this.#n;
    for (let a = 0; a < n; a++) if (!Number.isFinite(row[a]!)) return;
    if (!Number.isFinite(price)) return;
    let matured = false;
    while (this.#size > 0) {
      const i = this.#head;
      if (this.#t[i]! + this.horizonMs > nowMs) break;
      const y = price - this.#p[i]!;
      const pr = this.#pred[i]!;
      if (pr !== 0 && y !== 0) {
        this.#scored++;
        if (pr > 0 === y > 0) this.#hits++;
      }
      this.#add(i, y, nowMs);
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
    this.#p[j] = price;
    this.#pred[j] = this.predict(row);
    for (let a = 0; a < n; a++) this.#x[j * n + a] = row[a]!;
    this.#size++;
  }

  #add(i: number, y: number, nowMs: number): void {
    const n = this.#n;
    if (!Number.isNaN(this.#lastMs) && nowMs > this.#lastMs) {
      const f = Math.exp(-this.#decayPerMs * (nowMs - this.#lastMs));
      for (let k = 0; k < n * n; k++) this.#sxx[k]! *= f;
      for (let k = 0; k < n; k++) this.#sxy[k]! *= f;
      this.#syy *= f;
      this.#w *= f;
    }
    this.#lastMs = nowMs;
    const o = i * n;
    for (let a = 0; a < n; a++) {
      const xa = this.#x[o + a]!;
      this.#sxy[a]! += xa * y;
      for (let b = 0; b < n; b++) this.#sxx[a * n + b]! += xa * this.#x[o + b]!;
    }
    this.#syy += y * y;
    this.#w += 1;
    this.#samples++;
  }

  #refit(): void {
    this.#beta.fill(0);
    if (this.#samples < this.#minSamples) return;
    const overlap = Math.max(1, this.horizonMs / this.sampleMs);
    if (this.#n === 1) {
      // One signal: the scalar forms (β = Σwxy / Σwx²), not a 1 × 1 inverse, so results stay exact.
      const sxx = this.#sxx[0]!;
      const sxy = this.#sxy[0]!;
      if (!(sxx > 0) || !(this.#w > 1)) return;
      const b = sxy / sxx;
      const resid = Math.max(0, this.#syy - b * sxy) / (this.#w - 1);
      this.#beta[0] = this.#shrunk(b, (resid * overlap) / sxx);
      return;
    }
    const n = this.#n;
    if (!(this.#w > n) || !invert3(this.#sxx, this.#inv)) return;
    let fit = 0;
    for (let a = 0; a < n; a++) {
      let b = 0;
      for (let c = 0; c < n; c++) b += this.#inv[a * n + c]! * this.#sxy[c]!;
      this.#beta[a] = b;
      fit += b * this.#sxy[a]!;
    }
    const resid = Math.max(0, this.#syy - fit) / (this.#w - n);
    for (let a = 0; a < n; a++) this.#beta[a] = this.#shrunk(this.#beta[a]!, resid * overlap * this.#inv[a * n + a]!);
  }

  /** A coefficient shrunk by its t-statistic: b·(1 − z²/t²) when t² > z², else 0. */
  #shrunk(b: number, varB: number): number {
    const t2 = varB > 0 ? (b * b) / varB : b !== 0 ? Infinity : 0;
    return t2 > this.#z2 ? b * (1 - this.#z2 / t2) : 0;
  }

  #grow(): void {
    this.#x = grownColumn(this.#x, this.#head, this.#size, this.#n);
    this.#t = grownColumn(this.#t, this.#head, this.#size);
    this.#p = grownColumn(this.#p, this.#head, this.#size);
    this.#pred = grownColumn(this.#pred, this.#head, this.#size);
    this.#head = 0;
  }

  /** The shrunk coefficient of signal `i` (price units per unit of the signal). */
  beta(i: number): number {
    return this.#beta[i] ?? 0;
  }

  /** Matured samples so far. */
  get samples(): number {
    return this.#samples;
  }

  /** Share of matured samples with a non-zero prediction and move whose sign the prediction got right (NaN before any). */
  get hitRate(): number {
    return this.#scored > 0 ? this.#hits / this.#scored : Number.NaN;
  }

  /** Samples the hit rate counts. */
  get scored(): number {
    return this.#scored;
  }

  /** Predicted price move over the horizon for the signals `row`. */
  predict(row: ArrayLike<number>): number {
    let s = 0;
    for (let a = 0; a < this.#n; a++) s += this.#beta[a]! * row[a]!;
    return s;
  }
}

/** Inverts a symmetric 3×3 matrix (row-major) into `out`; false when (near) singular. */
export function invert3(m: Float64Array, out: Float64Array): boolean {
  const a = m[0]!, b = m[1]!, c = m[2]!, d = m[4]!, e = m[5]!, f = m[8]!;
  const c00 = d * f - e * e;
  const c01 = c * e - b * f;
  const c02 = b * e - c * d;
  const det = a * c00 + b * c01 + c * c02;
  const scale = Math.abs(a * d * f) + 1e-300;
  if (!(Math.abs(det) > 1e-12 * scale)) return false;
  const inv = 1 / det;
  out[0] = c00 * inv;
  out[1] = c01 * inv;
  out[2] = c02 * inv;
  out[3] = c01 * inv;
  out[4] = (a * f - c * c) * inv;
  out[5] = (b * c - a * e) * inv;
  out[6] = c02 * inv;
  out[7] = (b * c - a * e) * inv;
  out[8] = (a * d - b * b) * inv;
  return true;
}
