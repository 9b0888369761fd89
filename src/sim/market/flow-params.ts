import type { Instrument } from '../../domain/instrument.ts';
import type { MakerParams } from './maker-model.ts';
import type { FlowParamsInput, MarketConfig } from './market-config.ts';
import { PRESETS } from './presets.ts';
import type { TakerParams } from './taker-model.ts';
import type { UnderlyingParams } from './underlying-path.ts';

/** How taker flow moves prices (per median-size order; square root in size). */
export interface ImpactParams {
  /** Permanent move of the underlying, bps. */
  readonly permanentBps: number;
  /** Temporary shift of the makers' quotes, bps, halving every `temporaryHalfLifeMs`. */
  readonly temporaryBps: number;
  readonly temporaryHalfLifeMs: number;
}

/** Resolved synthetic-flow parameters for one instrument. */
export interface ResolvedFlow {
  readonly underlying: UnderlyingParams;
  /** Instruments with the same key share one underlying path (the catalog's product: XAU-PERP and XAU-2026-DEC). */
  readonly underlyingKey: string;
  /** Underlyings in one group move with the configured correlation. */
  readonly correlationGroup: string;
  /** Perp premium over the underlying, bps (what funding charges). */
  readonly basisBps: number;
  /** Sd of the instrument's own mean-reverting basis noise, bps, and its half life, s. */
  readonly basisNoiseBps: number;
  readonly basisHalfLifeS: number;
  /** Number of background maker accounts quoting this symbol. */
  readonly makerAccounts: number;
  readonly makers: MakerParams;
  readonly takers: TakerParams;
  readonly impact: ImpactParams;
}

/** Daily volatility by category when the config does not say (percent). */
const CATEGORY_VOL_PCT: Readonly<Record<string, number>> = { fx: 0.5, metals: 1.2, treasuries: 0.4, energy: 2, energy_etfs: 2, equities: 2 };

/** Default correlation groups by product: related underlyings that move together. */
const PRODUCT_GROUP: Readonly<Record<string, string>> = {
  USO: 'oil',
  BNO: 'oil',
  WTIOIL: 'oil',
  UNG: 'natural_gas',
  XAU: 'precious_metals',
  XAG: 'precious_metals',
  XCU: 'base_metals',
  XAL: 'base_metals',
};

/**
 * Merges, per section, built-in values, then the preset, then `market.defaults`, then the symbol's
 * `market.overrides`, scaled to the instrument (half spread from bps of the price, in whole ticks).
 */
export function resolveFlow(cfg: MarketConfig['market'], ins: Instrument, startPrice: number): ResolvedFlow {
  const pre: FlowParamsInput = PRESETS[cfg.preset];
  const d: FlowParamsInput = cfg.defaults;
  const o: FlowParamsInput = cfg.overrides[ins.symbol] ?? {};
  const u = { ...pre.underlying, ...d.underlying, ...o.underlying };
  const m = { ...pre.makers, ...d.makers, ...o.makers };
  const t = { ...pre.takers, ...d.takers, ...o.takers };
  const im = { ...pre.impact, ...d.impact, ...o.impact };
  const tick = ins.grid.tickSize.toNumber();
  const ticksFromBps = (bps: number): number => Math.max(1, Math.round(((bps / 1e4) * startPrice) / tick));
  const half = m.half_spread_ticks ?? ticksFromBps(m.half_spread_bps ?? 3);
  const minLots = m.min_lots ?? 1;
  return {
    underlying: {
      dailyVolPct: u.daily_vol_pct ?? (CATEGORY_VOL_PCT[ins.category] ?? 1) * (u.vol_scale ?? 1),
      jumpsPerDay: u.jumps_per_day ?? 2,
      jumpSizeBps: u.jump_size_bps ?? 15,
      meanReversionPerDay: u.mean_reversion_per_day ?? 1,
      volatileVolMult: u.volatile_vol_mult ?? 1,
      calmMeanMin: u.calm_mean_min ?? 0,
      volatileMeanMin: u.volatile_mean_min ?? 5,
      trendsPerDay: u.trends_per_day ?? 0,
      trendMeanMin: u.trend_mean_min ?? 10,
      trendBpsPerMin: u.trend_bps_per_min ?? 0,
      correlation: u.correlation ?? 0,
    },
    underlyingKey: ins.product,
    correlationGroup: u.correlation_group ?? PRODUCT_GROUP[ins.product] ?? ins.category,
    basisBps: u.basis_bps ?? 1,
    basisNoiseBps: u.basis_noise_bps ?? 0,
    basisHalfLifeS: u.basis_half_life_s ?? 60,
    makerAccounts: m.accounts ?? 2,
    makers: {
      levels: m.levels ?? 10,
      halfSpreadTicks: half,
      levelSpacingTicks: m.level_spacing_ticks ?? Math.max(1, Math.round(half / 3)),
      minLots,
      maxLots: Math.max(minLots, m.max_lots ?? 5),
      requoteThresholdTicks: m.requote_threshold_ticks ?? Math.max(1, Math.round(half / 2)),
      reactionMs: m.reaction_ms ?? 0,
      volatileSpreadMult: m.volatile_spread_mult ?? 1,
      volatileSizeMult: m.volatile_size_mult ?? 1,
      jumpSpreadMult: m.jump_spread_mult ?? 1,
      jumpRecoveryMs: m.jump_recovery_ms ?? 0,
      churnPerS: m.churn_per_s ?? 0,
    },
    takers: {
      ratePerMin: t.rate_per_min ?? 12,
      medianLots: t.median_lots ?? 1,
      sizeSigma: t.size_sigma ?? 0.6,
      maxLots: t.max_lots ?? 20,
      sweepTicks: t.sweep_ticks ?? 0,
      fairSkew: t.fair_skew ?? 0.3,
      informedShare: t.informed_share ?? 0,
      informedHorizonMs: t.informed_horizon_ms ?? 5_000,
      volatileRateMult: t.volatile_rate_mult ?? 1,
    },
    impact: {
      permanentBps: im.permanent_bps ?? 0,
      temporaryBps: im.temporary_bps ?? 0,
      temporaryHalfLifeMs: im.temporary_half_life_ms ?? 3_000,
    },
  };
}
