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
}

/**
 * The online calibration the model strategies share: σ of the mid (ticks/√s), λ(δ) = A·e^(−kδ) of
 * public trades against their distance δ **beyond the touch** of the previous call (A in 1/s: the
 * rate of prints at the touch; k in 1/tick: a quote δ behind the touch would have been reached),
 * and the observed touch spread (ticks). Measuring past the touch keeps A meaningful on wide books,
 * where an exponential extrapolated to the mid would be absurd.
 * Feed it each call's view with `observe`; O(trades since the previous call), no allocation.
 */
export class MarketCalibrator {
  readonly vol: EwmaVolatility;
  /** Short half-life σ: reacts within seconds to a jump or a volatile spell. */
  readonly fastVol: EwmaVolatility;
  /** Long-run σ (the intensity half-life): the market risk aversion is set against. */
  readonly longVol: EwmaVolatility;
  readonly intensity: TradeIntensity;
  readonly spread: Ewma;
  #prevMid = Number.NaN;
  #prevHalf = 0;

  constructor(o: CalibratorOptions = {}) {
    this.vol = new EwmaVolatility(o.volHalfLifeMs ?? 300_000, o.volSampleMs ?? 1000, o.volMinSamples ?? 30);
    this.fastVol = new EwmaVolatility(o.fastVolHalfLifeMs ?? 30_000, o.volSampleMs ?? 1000, o.volMinSamples ?? 30);
    this.longVol = new EwmaVolatility(Math.max(o.intensityHalfLifeMs ?? 1_800_000, o.volHalfLifeMs ?? 300_000), o.volSampleMs ?? 1000, o.volMinSamples ?? 30);
    // Half-tick bins: mids sit on the tick or half-tick grid, so each print distance gets its bin.
    this.intensity = new TradeIntensity({ halfLifeMs: o.intensityHalfLifeMs ?? 1_800_000, binTicks: 0.5, maxBins: 64, fitBins: 10, minBinCount: 3, minTrades: o.intensityMinTrades ?? 50 });
    this.spread = new Ewma(o.spreadHalfLifeMs ?? 60_000);
  }

  /** Updates every estimate from `view` at `nowMs`; returns the mid in ticks, or null without a two-sided book. */
  observe(view: SymbolView, nowMs: number): number | null {
    const b = view.book?.bids[0];
    const a = view.book?.asks[0];
    const mid = b && a ? (a.priceTicks + b.priceTicks) / 2 : Number.NaN;
    const prev = this.#prevMid;
    if (!Number.isNaN(prev)) {
      const trades = view.trades;
      for (let i = 0; i < trades.length; i++) {
        const t = trades[i]!;
        const buy = t.aggressor === 'buy';
        // The mid just before the trade lies between the previous call's mid and the current one;
        // take the nearer (a quote re-centred on the new mid was not reached by a print that
        // only looks deep against a stale mid). Distances are measured beyond the touch of the
        // previous call (its half-spread), so A is the rate at the touch and k the decay past it.
        const d = buy ? t.priceTicks - prev : prev - t.priceTicks;
        const dNow = Number.isNaN(mid) ? d : buy ? t.priceTicks - mid : mid - t.priceTicks;
        this.intensity.onTrade(Math.min(d, Math.max(0, dNow)) - this.#prevHalf, nowMs);
      }
    }
    if (!b || !a) return null;
    this.intensity.start(nowMs);
    this.vol.update(mid, nowMs);
    this.fastVol.update(mid, nowMs);
    this.longVol.update(mid, nowMs);
    this.spread.update(a.priceTicks - b.priceTicks, nowMs);
    this.#prevMid = mid;
    this.#prevHalf = (a.priceTicks - b.priceTicks) / 2;
    return mid;
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

  /** The intensity fit at `nowMs`, null until enough trades at two or more distances. */
  fit(nowMs: number): IntensityFit | null {
    return this.intensity.fit(nowMs);
  }

  /** Average touch spread in ticks (NaN before the first book). */
  get observedSpreadTicks(): number {
    return this.spread.value;
  }
}
