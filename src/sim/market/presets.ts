import type { FlowParamsInput, MarketPreset } from './market-config.ts';

/**
 * Market presets (`market.preset`): defaults for the flow knobs, under whatever `market.defaults`
 * and `market.overrides` say. Volatility is a multiple of the category's default (`vol_scale`), so
 * one preset suits EURUSD and NVDA alike; impact is per median-size taker order. The figures each
 * preset produces are tabled in README.md (`mmbot sim --preset-report`).
 */
export const PRESETS: Readonly<Record<MarketPreset, FlowParamsInput>> = {
  /** Quiet session: little news, few informed traders; a naive quoter earns its spread. */
  calm: {
    underlying: { vol_scale: 0.6, jumps_per_day: 1, jump_size_bps: 10, volatile_vol_mult: 1.5, calm_mean_min: 90, volatile_mean_min: 3, trends_per_day: 0, correlation: 0.5, basis_noise_bps: 0.2 },
    makers: { reaction_ms: 250, volatile_spread_mult: 1.5, volatile_size_mult: 0.8, jump_spread_mult: 2, jump_recovery_ms: 5_000, churn_per_s: 1.5 },
    takers: { size_sigma: 0.8, max_lots: 40, rate_per_min: 20, informed_share: 0.03, informed_horizon_ms: 5_000, volatile_rate_mult: 1.5, fair_skew: 0.2 },
    impact: { permanent_bps: 0.02, temporary_bps: 0.1, temporary_half_life_ms: 2_000 },
  },
  /** The default: a lively two-way market with some informed flow, volatility clustering and occasional trends. */
  normal: {
    underlying: { vol_scale: 1, jumps_per_day: 8, jump_size_bps: 15, volatile_vol_mult: 2.5, calm_mean_min: 30, volatile_mean_min: 5, trends_per_day: 6, trend_mean_min: 8, trend_bps_per_min: 0.5, correlation: 0.6, basis_noise_bps: 0.3 },
    makers: { reaction_ms: 250, volatile_spread_mult: 2, volatile_size_mult: 0.6, jump_spread_mult: 3, jump_recovery_ms: 10_000, churn_per_s: 4 },
    takers: { size_sigma: 1, max_lots: 40, rate_per_min: 24, informed_share: 0.25, informed_horizon_ms: 5_000, volatile_rate_mult: 2, fair_skew: 0.3 },
    impact: { permanent_bps: 0.3, temporary_bps: 0.4, temporary_half_life_ms: 3_000 },
  },
  /** Heavy informed flow, strong impact and frequent jumps: quoting at the touch without skew loses. */
  toxic: {
    underlying: { vol_scale: 2.5, jumps_per_day: 60, jump_size_bps: 25, volatile_vol_mult: 2.5, calm_mean_min: 10, volatile_mean_min: 8, trends_per_day: 12, trend_mean_min: 6, trend_bps_per_min: 1, correlation: 0.6, basis_noise_bps: 0.5 },
    makers: { reaction_ms: 500, volatile_spread_mult: 2, volatile_size_mult: 0.5, jump_spread_mult: 3, jump_recovery_ms: 15_000, churn_per_s: 4 },
    takers: { size_sigma: 1, max_lots: 40, rate_per_min: 30, informed_share: 0.6, informed_horizon_ms: 10_000, volatile_rate_mult: 2, fair_skew: 0.5 },
    impact: { permanent_bps: 1, temporary_bps: 1, temporary_half_life_ms: 5_000 },
  },
  /** Long directional episodes: inventory built against the trend keeps losing. */
  trending: {
    underlying: { vol_scale: 1, jumps_per_day: 4, jump_size_bps: 15, volatile_vol_mult: 2, calm_mean_min: 30, volatile_mean_min: 5, trends_per_day: 30, trend_mean_min: 20, trend_bps_per_min: 2, correlation: 0.6, basis_noise_bps: 0.3 },
    makers: { reaction_ms: 250, volatile_spread_mult: 2, volatile_size_mult: 0.6, jump_spread_mult: 3, jump_recovery_ms: 10_000, churn_per_s: 3 },
    takers: { size_sigma: 1, max_lots: 40, rate_per_min: 24, informed_share: 0.25, informed_horizon_ms: 10_000, volatile_rate_mult: 2, fair_skew: 0.3 },
    impact: { permanent_bps: 0.15, temporary_bps: 0.3, temporary_half_life_ms: 3_000 },
  },
  /** Frequent large jumps that open volatile spells; makers pull back hard after each one. */
  news: {
    underlying: { vol_scale: 1, jumps_per_day: 150, jump_size_bps: 35, volatile_vol_mult: 4, calm_mean_min: 20, volatile_mean_min: 4, trends_per_day: 6, trend_mean_min: 5, trend_bps_per_min: 1, correlation: 0.7, basis_noise_bps: 0.5 },
    makers: { reaction_ms: 500, volatile_spread_mult: 2.5, volatile_size_mult: 0.4, jump_spread_mult: 5, jump_recovery_ms: 20_000, churn_per_s: 4 },
    takers: { size_sigma: 1.2, max_lots: 40, rate_per_min: 30, informed_share: 0.3, informed_horizon_ms: 3_000, volatile_rate_mult: 3, fair_skew: 0.5 },
    impact: { permanent_bps: 0.2, temporary_bps: 0.5, temporary_half_life_ms: 3_000 },
  },
};
