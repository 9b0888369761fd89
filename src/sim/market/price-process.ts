import type { Rng } from './rng.ts';

/** Parameters of the underlying (benchmark) price process. */
export interface PriceProcessParams {
  /** Starting price in quote units. */
  readonly startPrice: number;
  /** Daily volatility of log returns, in percent (0.5 = 0.5% per day). */
  readonly dailyVolPct: number;
  /** Expected number of jumps per day. */
  readonly jumpsPerDay: number;
  /** Standard deviation of a jump's log return, in bps. */
  readonly jumpSizeBps: number;
  /** Pull back towards startPrice per day (0 = pure random walk); keeps long demos in range. */
  readonly meanReversionPerDay: number;
}

const DAY_MS = 86_400_000;

/**
 * A seeded random walk in log price with occasional jumps (Merton-style), in the instrument's
 * units. `step(dtMs)` advances simulated time; the result is the new underlying price.
 */
export class PriceProcess {
  #logPrice: number;
  readonly #logStart: number;

  constructor(
    private readonly params: PriceProcessParams,
    private readonly rng: Rng,
  ) {
    if (!(params.startPrice > 0)) throw new RangeError(`price process start price must be positive, got ${params.startPrice}`);
    this.#logPrice = Math.log(params.startPrice);
    this.#logStart = this.#logPrice;
  }

  /** The current underlying price. */
  get price(): number {
    return Math.exp(this.#logPrice);
  }

  /** Advances by `dtMs` of simulated time and returns the new price. */
  step(dtMs: number): number {
    if (dtMs <= 0) return this.price;
    const days = dtMs / DAY_MS;
    const sigma = (this.params.dailyVolPct / 100) * Math.sqrt(days);
    let dx = sigma * this.rng.normal();
    dx += this.params.meanReversionPerDay * days * (this.#logStart - this.#logPrice);
    const lambda = this.params.jumpsPerDay * days;
    if (lambda > 0 && this.rng.chance(1 - Math.exp(-lambda))) dx += (this.params.jumpSizeBps / 1e4) * this.rng.normal();
    this.#logPrice += dx;
    return this.price;
  }
}
