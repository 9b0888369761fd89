/** The fitted fill-intensity curve λ(δ) = A·e^(−k·δ): A in 1/s, k in 1/tick, δ in ticks from the mid. */
export interface IntensityFit {
  /** Arrival rate of trades reaching the mid (δ = 0), per second. */
  readonly aPerS: number;
  /** Decay of the rate with distance, per tick. */
  readonly kPerTick: number;
  /** Distance bins used by the regression. */
  readonly bins: number;
}

/** Options of {@link TradeIntensity}. */
export interface TradeIntensityOptions {
  /** Weights of past trades halve every this many engine ms (default 10 minutes). */
  readonly halfLifeMs?: number;
  /** Width of a distance bin in ticks (default 1). */
  readonly binTicks?: number;
  /** Bins kept (distances beyond the last count in it; default 32). */
  readonly maxBins?: number;
  /** Fit only the first this many bins from the first populated one: near the touch (default 8). */
  readonly fitBins?: number;
  /** A bin enters the fit only with at least this many (decayed) trades reaching it (default 5). */
  readonly minBinCount?: number;
  /** Trades needed before a fit is attempted (default 50). */
  readonly minTrades?: number;
}

/** Weights grow as e^(t/τ) (lazy decay); rescale everything before they overflow. */
const RESCALE_AT = 1e150;

/**
 * Online estimate of λ(δ) = A·e^(−k·δ) (docs/strategy-models.md §4.1): each public trade is binned by how far
 * from the mid it printed (δ = price − mid for buys, mid − price for sells, in ticks; a quote at
 * distance δ' ≤ δ would have been reached). λ̂(δ) = (decayed count of trades with distance ≥ δ) /
 * (decayed exposure time), and A, k come from the count-weighted least-squares line of ln λ̂(δ)
 * on δ over the bins from the modal one (the touch) outward (the global fit is biased there; hftbacktest
 * refits near the touch); when every recent print sits at one distance, a half-trade pseudo-count
 * one bin further bounds k. `update` is O(1) and allocation-free (lazy exponential decay); `fit`
 * is O(bins) and cached until the next trade.
 */
export class TradeIntensity {
  readonly #tauMs: number;
  readonly #binTicks: number;
  readonly #fitBins: number;
  readonly #minBinCount: number;
  readonly #minTrades: number;
  /** Per-bin trade weights in inflated units (multiply by e^(−(t−ref)/τ) to read). */
  readonly #counts: Float64Array;
  #refMs = Number.NaN;
  #startMs = Number.NaN;
  #trades = 0;
  #fit: IntensityFit | null = null;
  #fitDirty = true;
  #fitMs = Number.NaN;

  constructor(opts: TradeIntensityOptions = {}) {
    const halfLifeMs = opts.halfLifeMs ?? 600_000;
    if (!(halfLifeMs > 0)) throw new RangeError(`intensity half-life must be positive, got ${halfLifeMs} ms`);
    this.#tauMs = halfLifeMs / Math.LN2;
    this.#binTicks = opts.binTicks ?? 1;
    if (!(this.#binTicks > 0)) throw new RangeError(`intensity bin width must be positive, got ${this.#binTicks} ticks`);
    this.#counts = new Float64Array(Math.max(2, opts.maxBins ?? 32));
    this.#fitBins = Math.max(2, opts.fitBins ?? 8);
    this.#minBinCount = opts.minBinCount ?? 5;
    this.#minTrades = opts.minTrades ?? 50;
  }

  /** Starts the exposure clock (first market data); trades also start it. */
  start(nowMs: number): void {
    if (Number.isNaN(this.#startMs)) {
      this.#startMs = nowMs;
      this.#refMs = nowMs;
    }
  }

  /**
   * Records a trade that printed `distanceTicks` from the mid at `nowMs`, counting `weight` arrivals
   * (e.g. its size in the quoter's lots, so λ is a rate of lot-sized fills; default 1).
   */
  onTrade(distanceTicks: number, nowMs: number, weight = 1): void {
    if (!Number.isFinite(distanceTicks) || !(weight > 0)) return;
    this.start(nowMs);
    const bin = Math.min(this.#counts.length - 1, Math.floor(Math.max(0, distanceTicks) / this.#binTicks));
    const w = weight * Math.exp((nowMs - this.#refMs) / this.#tauMs);
    this.#counts[bin]! += w;
    this.#trades++;
    this.#fitDirty = true;
    if (w > RESCALE_AT) this.#rescale(nowMs);
  }

  /** Records a trade from its side and prices: `aggressorIsBuy`, trade and mid in ticks, `weight` arrivals. */
  onTradeAt(priceTicks: number, midTicks: number, aggressorIsBuy: boolean, nowMs: number, weight = 1): void {
    this.onTrade(aggressorIsBuy ? priceTicks - midTicks : midTicks - priceTicks, nowMs, weight);
  }

  #rescale(nowMs: number): void {
    const f = Math.exp(-(nowMs - this.#refMs) / this.#tauMs);
    for (let i = 0; i < this.#counts.length; i++) this.#counts[i]! *= f;
    this.#refMs = nowMs;
  }

  /** The decayed weight in distance bin `i` at `nowMs` (arrivals; 0 outside the bins). */
  binCount(i: number, nowMs: number): number {
    const c = this.#counts[i];
    return c === undefined || Number.isNaN(this.#refMs) ? 0 : c * Math.exp(-(nowMs - this.#refMs) / this.#tauMs);
  }

  /** Trades seen so far (prints, whatever their weight). */
  get trades(): number {
    return this.#trades;
  }

  /**
   * The fit as of `nowMs`, or null while there are too few trades or populated bins (or the slope
   * is not a decay). Exposure time decays like the counts, so A is a rate per second of recent
   * time. Cached until the next trade or a different `nowMs`.
   */
  fit(nowMs: number): IntensityFit | null {
    if (this.#trades < this.#minTrades || Number.isNaN(this.#startMs)) return null;
    if (this.#fitDirty || nowMs !== this.#fitMs) {
      this.#fit = this.#regress(nowMs);
      this.#fitDirty = false;
      this.#fitMs = nowMs;
    }
    return this.#fit;
  }

  /** ∫ e^(−(now−t)/τ) dt from the start to now, in seconds. */
  #exposureS(nowMs: number): number {
    return (this.#tauMs / 1000) * (1 - Math.exp(-(nowMs - this.#startMs) / this.#tauMs));
  }

  #regress(nowMs: number): IntensityFit | null {
    const exposureS = this.#exposureS(nowMs);
    if (!(exposureS > 0)) return null;
    const scale = Math.exp(-(nowMs - this.#refMs) / this.#tauMs);
    const n = this.#counts.length;
    // Fit from the modal bin (where most trades print: the touch) outward. Prints inside the usual
    // touch are rare and flatten the curve there (a quote inside the spread sees the touch's flow).
    let first = -1;
    let most = 0;
    for (let i = 0; i < n; i++) if (this.#counts[i]! > most) { most = this.#counts[i]!; first = i; }
    if (first < 0) return null;
    // Cumulative from the far end: trades reaching distance ≥ the bin's lower edge.
    let above = 0;
    for (let i = n - 1; i > first + this.#fitBins - 1; i--) above += this.#counts[i]!;
    let sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, used = 0;
    let beyondFirst = 0;
    for (let i = Math.min(n - 1, first + this.#fitBins - 1); i >= first; i--) {
      if (i === first) beyondFirst = above * scale;
      above += this.#counts[i]!;
      const c = above * scale;
      if (c < this.#minBinCount) continue;
      const x = i * this.#binTicks;
      const y = Math.log(c / exposureS);
      // Var(ln N) ≈ 1/N: weight each point by its count.
      sw += c; sx += c * x; sy += c * y; sxx += c * x * x; sxy += c * x * y;
      used++;
    }
    if (used === 1 && above * scale >= this.#minTrades / 2) {
      // Every recent print at one distance (a wide, stable touch): the decay beyond it is only
      // bounded. A half-trade pseudo-count one bin further keeps k finite and large (the rate
      // falls off sharply past the touch) instead of leaving the model uncalibrated.
      const c = Math.max(beyondFirst, 0.5);
      const x = (first + 1) * this.#binTicks;
      const y = Math.log(c / exposureS);
      sw += c; sx += c * x; sy += c * y; sxx += c * x * x; sxy += c * x * y;
      used++;
    }
    if (used < 2) return null;
    const den = sw * sxx - sx * sx;
    if (!(den > 0)) return null;
    const slope = (sw * sxy - sx * sy) / den;
    const intercept = (sy - slope * sx) / sw;
    if (!(slope < 0)) return null;
    return { aPerS: Math.exp(intercept), kPerTick: -slope, bins: used };
  }
}
