import type { SymbolView } from './contract.ts';
import { Ewma } from './estimators/ewma.ts';
import { TradeIntensity, type IntensityFit } from './estimators/intensity.ts';
import { EwmaVolatility } from './estimators/volatility.ts';

/** Options of {@link MarketCalibrator} (engine ms). */
export interface CalibratorOptions {
  /** Half-life of the volatility weights (default 5 minutes). */
  readonly volHalfLifeMs?: number;
  /** Mid sampling step of the volatility estimate (default 1 s). */
  readonly volSampleMs?: number;
  /** Mid increments before σ is trusted (default 30). */
  readonly volMinSamples?: number;
  /** Half-life of the trade-intensity counts (default 30 minutes). */
  readonly intensityHalfLifeMs?: number;
  /** Public trades before A and k are fitted (default 50). */
  readonly intensityMinTrades?: number;
  /** Half-life of the fast volatility estimate that catches jumps and volatile spells (default 30 s). */
  readonly fastVolHalfLifeMs?: number;
  /** Half-life of the observed touch spread (default 1 minute). */
  readonly spreadHalfLifeMs?: number;
  /** Contracts per lot (the quoter's order size): a print of q contracts counts q / lotSize arrivals (default 1). */
  readonly lotSize?: number;
}

/**
 * The online calibration the model strategies share: σ of the mid (ticks/√s), the fill intensity
 * λ(δ) = A·e^(−kδ) **per side** and the observed touch spread (ticks).
 *
 * Intensity: each public print counts its size in the quoter's lots (`lotSize` contracts) as arrivals
 * at δ = how far it reached from the **pre-trade reference** (the previous call's mid, or the fair
 * value the quoter set with `setReference`): price − ref for buys (they lift asks), ref − price for
 * sells (they hit bids). A quote δ from the reference is filled by the prints that reached δ or
 * further, so the quoter applies the models' depths from that same reference. A sweep counts at the
 * depth it reached (not at the post-trade mid's distance, which makes it look shallow). A is in lots
 * per second per side, the rate the models expect; k in 1/tick.
 * Feed it each call's view with `observe`; O(trades since the previous call), no allocation.
 */
export class MarketCalibrator {
  readonly vol: EwmaVolatility;
  /** Short half-life σ: reacts within seconds to a jump or a volatile spell. */
  readonly fastVol: EwmaVolatility;
  /** Long-run σ (the intensity half-life): the holding-horizon risk is measured with it. */
  readonly longVol: EwmaVolatility;
  /** Both sides' prints (the shape k of λ; A per side is half its A). */
  readonly intensity: TradeIntensity;
  /** Sell prints: the rate at which our bids would be hit. */
  readonly bidIntensity: TradeIntensity;
  /** Buy prints: the rate at which our asks would be lifted. */
  readonly askIntensity: TradeIntensity;
  readonly spread: Ewma;
  readonly #lotSize: number;
  #ref = Number.NaN;

  constructor(o: CalibratorOptions = {}) {
    this.vol = new EwmaVolatility(o.volHalfLifeMs ?? 300_000, o.volSampleMs ?? 1000, o.volMinSamples ?? 30);
    this.fastVol = new EwmaVolatility(o.fastVolHalfLifeMs ?? 30_000, o.volSampleMs ?? 1000, o.volMinSamples ?? 30);
    this.longVol = new EwmaVolatility(Math.max(o.intensityHalfLifeMs ?? 1_800_000, o.volHalfLifeMs ?? 300_000), o.volSampleMs ?? 1000, o.volMinSamples ?? 30);
    // Half-tick bins: mids sit on the tick or half-tick grid, so each print distance gets its bin.
    // Counts are in lots: a bin needs 3 lots, a fit 50 prints.
    const opts = { halfLifeMs: o.intensityHalfLifeMs ?? 1_800_000, binTicks: 0.5, maxBins: 64, fitBins: 10, minBinCount: 3, minTrades: o.intensityMinTrades ?? 50 };
    this.intensity = new TradeIntensity(opts);
    this.bidIntensity = new TradeIntensity({ ...opts, minTrades: Math.ceil(opts.minTrades / 2) });
    this.askIntensity = new TradeIntensity({ ...opts, minTrades: Math.ceil(opts.minTrades / 2) });
    this.spread = new Ewma(o.spreadHalfLifeMs ?? 60_000);
    this.#lotSize = o.lotSize ?? 1;
    if (!(this.#lotSize > 0)) throw new RangeError(`calibrator lot size must be positive, got ${this.#lotSize}`);
  }

  /** Updates every estimate from `view` at `nowMs`; returns the mid in ticks, or null without a two-sided book. */
  observe(view: SymbolView, nowMs: number): number | null {
    const b = view.book?.bids[0];
    const a = view.book?.asks[0];
    const ref = this.#ref;
    if (!Number.isNaN(ref)) {
      const trades = view.trades;
      for (let i = 0; i < trades.length; i++) {
        const t = trades[i]!;
        const buy = t.aggressor === 'buy';
        const d = buy ? t.priceTicks - ref : ref - t.priceTicks;
        const lots = t.qty / this.#lotSize;
        this.intensity.onTrade(d, nowMs, lots);
        (buy ? this.askIntensity : this.bidIntensity).onTrade(d, nowMs, lots);
      }
    }
    if (!b || !a) return null;
    const mid = (a.priceTicks + b.priceTicks) / 2;
    this.intensity.start(nowMs);
    this.bidIntensity.start(nowMs);
    this.askIntensity.start(nowMs);
    this.vol.update(mid, nowMs);
    this.fastVol.update(mid, nowMs);
    this.longVol.update(mid, nowMs);
    this.spread.update(a.priceTicks - b.priceTicks, nowMs);
    this.#ref = mid;
    return mid;
  }

  /**
   * The reference the next prints' depths are measured from (ticks): the quoter's fair value, from
   * which it applies the models' depths. Default: the mid of the last `observe`.
   */
  setReference(refTicks: number): void {
    if (Number.isFinite(refTicks)) this.#ref = refTicks;
  }

  /** σ in ticks/√s, NaN until enough samples (or when the mid has not moved at all). */
  get sigma(): number {
    const s = this.vol.sigmaPerSqrtS;
    return s > 0 ? s : Number.NaN;
  }

  /**
   * σ now, ticks/√s: the larger of the regular and the fast estimate, so a jump or a volatile spell
   * widens within seconds and the widening decays with the regular half-life (NaN until ready).
   */
  get sigmaNow(): number {
    const s = this.sigma;
    const f = this.fastVol.sigmaPerSqrtS;
    return f > s ? f : s;
  }

  /** Long-run σ in ticks/√s (half-life: the intensity's), NaN until enough samples. */
  get sigmaLong(): number {
    const s = this.longVol.sigmaPerSqrtS;
    return s > 0 ? s : Number.NaN;
  }

  /**
   * λ(δ) per side at `nowMs`: A (lots/s) is half the two-sided rate, k the decay of both sides'
   * prints together (twice the data of a side). Null until enough prints at two or more depths.
   */
  fit(nowMs: number): IntensityFit | null {
    const f = this.intensity.fit(nowMs);
    return f === null ? null : { aPerS: f.aPerS / 2, kPerTick: f.kPerTick, bins: f.bins };
  }

  /** λ(δ) of one side alone (bid: sell prints; ask: buy prints), null until it has enough prints. */
  sideFit(side: 'bid' | 'ask', nowMs: number): IntensityFit | null {
    return (side === 'bid' ? this.bidIntensity : this.askIntensity).fit(nowMs);
  }

  /** Average touch spread in ticks (NaN before the first book). */
  get observedSpreadTicks(): number {
    return this.spread.value;
  }
}
