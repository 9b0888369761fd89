import { ShrunkRegression } from './shrunk-regression.ts';

export { invert3 } from './shrunk-regression.ts';

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
 * The mid's move over the next `horizonMs` regressed on {@link MID_FEATURES} signals sampled at the
 * same instant (e.g. touch imbalance, order-flow imbalance, trade-flow imbalance), each coefficient
 * shrunk by its own significance ({@link ShrunkRegression} with three signals): features that
 * predict nothing get 0, so a calm or efficient market leaves the fair value at the mid. `hitRate`:
 * how often the prediction's sign was right, out of sample.
 */
export class MidPredictor {
  readonly #core: ShrunkRegression;
  readonly #row = new Float64Array(MID_FEATURES);

  /** @throws RangeError on non-positive horizon, step or half-life. */
  constructor(o: MidPredictorOptions) {
    this.#core = new ShrunkRegression({ ...o, features: MID_FEATURES, minSamples: o.minSamples ?? 120, name: 'MidPredictor' });
  }

  get horizonMs(): number {
    return this.#core.horizonMs;
  }

  get sampleMs(): number {
    return this.#core.sampleMs;
  }

  /** Feeds the features and the mid at `nowMs` (a non-finite value skips the call). */
  observe(x0: number, x1: number, x2: number, mid: number, nowMs: number): void {
    const r = this.#row;
    r[0] = x0;
    r[1] = x1;
    r[2] = x2;
    this.#core.observe(r, mid, nowMs);
  }

  /** The shrunk coefficient of feature `i` (mid units per unit of the feature). */
  beta(i: number): number {
    return this.#core.beta(i);
  }

  /** Matured samples so far. */
  get samples(): number {
    return this.#core.samples;
  }

  /** Share of matured samples with a non-zero prediction and move whose sign the prediction got right (NaN before any). */
  get hitRate(): number {
    return this.#core.hitRate;
  }

  /** Samples the hit rate counts. */
  get scored(): number {
    return this.#core.scored;
  }

  /** Predicted mid move over the horizon. */
  predict(x0: number, x1: number, x2: number): number {
    return this.#core.beta(0) * x0 + this.#core.beta(1) * x1 + this.#core.beta(2) * x2;
  }
}
