import { ShrunkRegression } from './shrunk-regression.ts';

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
 * Online predictive regression through the origin of the price move over the next `horizonMs` on
 * one signal x sampled at the same instant, y = β·x + ε, its slope shrunk by its own significance
 * ({@link ShrunkRegression} with one signal): a signal that predicts nothing (calm markets, noise)
 * gets β ≈ 0, one that does is used at its measured strength. Units: x as given, y in the price's
 * unit (e.g. ticks).
 */
export class PredictiveRegression {
  readonly #core: ShrunkRegression;
  readonly #row = new Float64Array(1);

  /** @throws RangeError on non-positive horizon, step or half-life. */
  constructor(o: PredictiveRegressionOptions) {
    this.#core = new ShrunkRegression({ ...o, features: 1, minSamples: o.minSamples ?? 60, name: 'PredictiveRegression' });
  }

  get horizonMs(): number {
    return this.#core.horizonMs;
  }

  get sampleMs(): number {
    return this.#core.sampleMs;
  }

  /** Feeds the signal `x` and the price at `nowMs` (non-finite values are ignored). */
  observe(x: number, price: number, nowMs: number): void {
    this.#row[0] = x;
    this.#core.observe(this.#row, price, nowMs);
  }

  /** The shrunk slope β (price units per unit of x; 0 until `minSamples` matured or when not significant). */
  get beta(): number {
    return this.#core.beta(0);
  }

  /** Matured samples so far. */
  get samples(): number {
    return this.#core.samples;
  }

  /** Predicted move over the horizon for signal `x`: β·x. */
  predict(x: number): number {
    return this.#core.beta(0) * x;
  }
}
