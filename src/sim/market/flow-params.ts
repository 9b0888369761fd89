import type { Instrument } from '../../domain/instrument.ts';
import type { MakerParams } from './maker-model.ts';
import type { FlowParamsInput, MarketConfig } from './market-config.ts';
import type { PriceProcessParams } from './price-process.ts';
import type { TakerParams } from './taker-model.ts';

/** Resolved synthetic-flow parameters for one instrument. */
export interface ResolvedFlow {
  readonly underlying: PriceProcessParams;
  /** Perp premium over the underlying, bps (what funding charges). */
  readonly basisBps: number;
  /** Number of background maker accounts quoting this symbol. */
  readonly makerAccounts: number;
  readonly makers: MakerParams;
  readonly takers: TakerParams;
}

/** Daily volatility by category when the config does not say (percent). */
const CATEGORY_VOL_PCT: Readonly<Record<string, number>> = { fx: 0.5, metals: 1.2, treasuries: 0.4, energy: 2, energy_etfs: 2, equities: 2 };

/**
 * Merges defaults, then per-symbol overrides, onto built-in values scaled to the instrument
 * (half spread from bps of the price, in whole ticks).
 */
export function resolveFlow(cfg: MarketConfig['market'], ins: Instrument, startPrice: number): ResolvedFlow {
  const d: FlowParamsInput = cfg.defaults;
  const o: FlowParamsInput = cfg.overrides[ins.symbol] ?? {};
  const u = { ...d.underlying, ...o.underlying };
  const m = { ...d.makers, ...o.makers };
  const t = { ...d.takers, ...o.takers };
  const tick = ins.grid.tickSize.toNumber();
  const ticksFromBps = (bps: number): number => Math.max(1, Math.round(((bps / 1e4) * startPrice) / tick));
  const half = m.half_spread_ticks ?? ticksFromBps(m.half_spread_bps ?? 3);
  const minLots = m.min_lots ?? 1;
  return {
    underlying: {
      startPrice,
      dailyVolPct: u.daily_vol_pct ?? CATEGORY_VOL_PCT[ins.category] ?? 1,
      jumpsPerDay: u.jumps_per_day ?? 2,
      jumpSizeBps: u.jump_size_bps ?? 15,
      meanReversionPerDay: u.mean_reversion_per_day ?? 1,
    },
    basisBps: u.basis_bps ?? 1,
    makerAccounts: m.accounts ?? 2,
    makers: {
      levels: m.levels ?? 10,
      halfSpreadTicks: half,
      levelSpacingTicks: m.level_spacing_ticks ?? Math.max(1, Math.round(half / 3)),
      minLots,
      maxLots: Math.max(minLots, m.max_lots ?? 5),
      requoteThresholdTicks: m.requote_threshold_ticks ?? Math.max(1, Math.round(half / 2)),
    },
    takers: {
      ratePerMin: t.rate_per_min ?? 12,
      medianLots: t.median_lots ?? 1,
      sizeSigma: t.size_sigma ?? 0.6,
      maxLots: t.max_lots ?? 20,
      sweepTicks: t.sweep_ticks ?? 0,
      fairSkew: t.fair_skew ?? 0.3,
    },
  };
}
