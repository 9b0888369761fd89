import { grownColumn } from './ring.ts';
/** Number of features {@link MidPredictor} regresses on. */
export const MID_FEATURES = 3;

/** Options of {@link MidPredictor} (engine ms). */
export interface MidPredictorOptions {
  /** y = mid(t + horizonMs) − mid(t). */
  readonly horizonMs: number;
  /** Sampling step of (features, mid) (default 1 s). */
  readonly sampleMs?: number;
  /** Half-life of the regression weights. */
  readonly halfLifeMs: number;
  /** Matured samples before any coefficient is used (default 120). */
  readonly minSamples?: number;
  /** t-statistic a coefficient must exceed to count (default 2; shrink factor 1 − z²/t²). */
  readonly zScore?: number;
}

/**
 * Online multiple regression through the origin of the mid's move over the next `horizonMs` on
 * {@link MID_FEATURES} signals sampled at the same instant (e.g. touch imbalance, order-flow
 * imbalance, trade-flow imbalance): β = (XᵀWX)⁻¹XᵀWy with weights halving every `halfLifeMs`. Each
 * coefficient is shrunk toward 0 by its own significance, β·max(0, 1 − z²/t²), its variance
 * inflated by horizonMs/sampleMs because overlapping horizons make consecutive samples dependent
 * (as {@link PredictiveRegression}, which is the one-signal case): features that predict nothing
 * get 0, so a calm or efficient market leaves the fair value at the mid. Also counts how often the
 * prediction's sign was right (`hitRate`, out of sample: each sample is scored with the
 * coefficients in force when it was taken). O(1) amortised per call, allocation-free after warm-up.
 */
export class MidPredictor {
  readonly horizonMs: number;
  readonly sampleMs: number;
  readonly #decayPerMs: number;
  readonly #minSamples: number;
  readonly #z2: number;
  // Pending samples: time, mid, prediction made then, features (row-major).
  #t: Float64Array;
  #p: Float64Array;
  #pred: Float64Array;
  #x: Float64Array;
  #head = 0;
  #size = 0;
  #nextSampleMs = -Infinity;
  // Decayed XᵀWX (upper triangle used), XᵀWy, yᵀWy, Σw.
  readonly #sxx = new Float64Array(MID_FEATURES * MID_FEATURES);
  readonly #sxy = new Float64Array(MID_FEATURES);
  #syy = 0;
  #w = 0;
  #n = 0;
  #lastMs = Number.NaN;
  readonly #beta = new Float64Array(MID_FEATURES);
  readonly #inv = new Float64Array(MID_FEATURES * MID_FEATURES);
  #hits = 0;
  #scored = 0;

  /** @throws RangeError on non-positive horizon, step or half-life. */
  constructor(o: MidPredictorOptions) {
    const sampleMs = o.sampleMs ?? 1000;
    if (!(o.horizonMs > 0) || !(sampleMs > 0) || !(o.halfLifeMs > 0)) throw new RangeError(`MidPredictor: horizon, sample step and half-life must be positive (got ${o.horizonMs}, ${sampleMs}, ${o.halfLifeMs})`);
    this.horizonMs = o.horizonMs;
    this.sampleMs = sampleMs;
    this.#decayPerMs = Math.LN2 / o.halfLifeMs;
    this.#minSamples = o.minSamples ?? 120;
    this.#z2 = (o.zScore ?? 2) ** 2;
    const cap = Math.ceil(o.horizonMs / sampleMs) + 4;
    this.#t = new Float64Array(cap);
    this.#p = new Float64Array(cap);
    this.#pred = new Float64Array(cap);
    this.#x = new Float64Array(cap * MID_FEATURES);
  }

  /** Feeds the features and the mid at `nowMs` (a non-finite value skips the call). */
  observe(x0: number, x1: number, x2: number, mid: number, nowMs: number): void {
    if (!Number.isFinite(x0) || !Number.isFinite(x1) || !Number.isFinite(x2) || !Number.isFinite(mid)) return;
    let matured = false;
    while (this.#size > 0) {
      const i = this.#head;
      if (this.#t[i]! + this.horizonMs > nowMs) break;
      const y = mid - this.#p[i]!;
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
    this.#p[j] = mid;
    this.#pred[j] = this.predict(x0, x1, x2);
    this.#x[j * MID_FEATURES] = x0;
    this.#x[j * MID_FEATURES + 1] = x1;
    this.#x[j * MID_FEATURES + 2] = x2;
    this.#size++;
  }

  #add(i: number, y: number, nowMs: number): void {
    const n = MID_FEATURES;
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
    this.#n++;
  }

  #refit(): void {
    const n = MID_FEATURES;
    this.#beta.fill(0);
    if (this.#n < this.#minSamples || !(this.#w > n) || !invert3(this.#sxx, this.#inv)) return;
    let fit = 0;
    for (let a = 0; a < n; a++) {
      let b = 0;
      for (let c = 0; c < n; c++) b += this.#inv[a * n + c]! * this.#sxy[c]!;
      this.#beta[a] = b;
      fit += b * this.#sxy[a]!;
    }
    const resid = Math.max(0, this.#syy - fit) / (this.#w - n);
    const overlap = Math.max(1, this.horizonMs / this.sampleMs);
    for (let a = 0; a < n; a++) {
      const b = this.#beta[a]!;
      const varB = resid * overlap * this.#inv[a * n + a]!;
      const t2 = varB > 0 ? (b * b) / varB : b !== 0 ? Infinity : 0;
      this.#beta[a] = t2 > this.#z2 ? b * (1 - this.#z2 / t2) : 0;
    }
  }

  #grow(): void {
    this.#x = grownColumn(this.#x, this.#head, this.#size, MID_FEATURES);
    this.#t = grownColumn(this.#t, this.#head, this.#size);
    this.#p = grownColumn(this.#p, this.#head, this.#size);
    this.#pred = grownColumn(this.#pred, this.#head, this.#size);
    this.#head = 0;
  }

  /** The shrunk coefficient of feature `i` (mid units per unit of the feature). */
  beta(i: number): number {
    return this.#beta[i] ?? 0;
  }

  /** Matured samples so far. */
  get samples(): number {
    return this.#n;
  }

  /** Share of matured samples with a non-zero prediction and move whose sign the prediction got right (NaN before any). */
  get hitRate(): number {
    return this.#scored > 0 ? this.#hits / this.#scored : Number.NaN;
  }

  /** Samples the hit rate counts. */
  get scored(): number {
    return this.#scored;
  }

  /** Predicted mid move over the horizon. */
  predict(x0: number, x1: number, x2: number): number {
    return this.#beta[0]! * x0 + this.#beta[1]! * x1 + this.#beta[2]! * x2;
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
