/**
 * Risk limits as data. Quantities are whole contracts, money is USD (plain numbers in config,
 * turned into Decimal where it is compared against PnL). Per-symbol overrides replace the defaults
 * field by field.
 */

/** Limits that apply to one symbol. */
export interface SymbolRiskLimits {
  /** Max |position| in contracts, counting working and in-flight orders on the side that grows it. */
  readonly maxPosition: number;
  /** Max contracts in one order. */
  readonly maxOrderQty: number;
  /** Max USD notional of one order (price × qty × multiplier). */
  readonly maxOrderNotionalUsd: number;
  /** Max working orders (both sides, in-flight included) on the symbol. */
  readonly maxOpenOrders: number;
  /**
   * Extra inward margin from the ticker's price band, in ticks: quotes must lie within
   * [lower + margin, upper − margin]. 0 = exactly the venue's band.
   */
  readonly bandMarginTicks: number;
}

/** When the kill switch trips. Any threshold set to 0 disables that trigger. */
export interface KillSwitchConfig {
  /** Trip when total PnL falls this many USD below its running peak. */
  readonly maxDrawdownUsd: number;
  /** Trip when total PnL since the UTC day started is below −this many USD. */
  readonly maxDailyLossUsd: number;
  /** Trip after this many venue rejects within `rejectStormWindowMs` (benign races excluded). */
  readonly rejectStormCount: number;
  readonly rejectStormWindowMs: number;
  /** Trip when a quoted symbol has had no market data for this long (ms). */
  readonly staleMarketDataMs: number;
  /** Trip when the order stream (or market data) has been disconnected for this long (ms). */
  readonly lostConnectionMs: number;
  /**
   * Conditions that clear by themselves (stale data, lost connection) un-trip the switch when they
   * clear; losses, reject storms and manual trips always latch until `resetKillSwitch()`.
   */
  readonly autoClearConditions: boolean;
}

/** The engine's risk configuration. */
export interface RiskConfig {
  readonly defaults: SymbolRiskLimits;
  /** Overrides by symbol. */
  readonly perSymbol: Readonly<Record<string, Partial<SymbolRiskLimits>>>;
  readonly killSwitch: KillSwitchConfig;
}

/** Conservative per-symbol defaults (a demo account, small sizes). */
export const DEFAULT_SYMBOL_RISK_LIMITS: SymbolRiskLimits = Object.freeze({
  maxPosition: 100,
  maxOrderQty: 50,
  maxOrderNotionalUsd: 250_000,
  maxOpenOrders: 20,
  bandMarginTicks: 0,
});

/** Default kill-switch thresholds. */
export const DEFAULT_KILL_SWITCH_CONFIG: KillSwitchConfig = Object.freeze({
  maxDrawdownUsd: 1_000,
  maxDailyLossUsd: 1_000,
  rejectStormCount: 20,
  rejectStormWindowMs: 10_000,
  staleMarketDataMs: 30_000,
  lostConnectionMs: 10_000,
  autoClearConditions: true,
});

/** Default risk configuration. */
export const DEFAULT_RISK_CONFIG: RiskConfig = Object.freeze({
  defaults: DEFAULT_SYMBOL_RISK_LIMITS,
  perSymbol: Object.freeze({}),
  killSwitch: DEFAULT_KILL_SWITCH_CONFIG,
});

/** The effective limits for `symbol`: defaults overlaid with its overrides. */
export function limitsFor(config: RiskConfig, symbol: string): SymbolRiskLimits {
  const o = config.perSymbol[symbol];
  return o ? { ...config.defaults, ...o } : config.defaults;
}
