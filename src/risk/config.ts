import { DEFAULT_MD_SANITY_CONFIG, type MdSanityConfig } from './md-sanity.ts';
import type { KillSwitchAction, KillSwitchReason } from './trading-state.ts';

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
  /**
   * Fat-finger guard: no quote further than this many bps from the reference price (the venue's
   * mark, else its index, else the last sane mid). 0 = off.
   */
  readonly maxQuoteDeviationBps: number;
}

/** What one trigger does when it trips (see KillSwitchAction) and whether a pause lifts by itself. */
export interface TriggerPolicy {
  readonly action: KillSwitchAction;
  /** A `pause` ends by itself once the condition has cleared (ignored for `stop` and `manual`). */
  readonly autoResume: boolean;
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
  /**
   * Order-count budgets (places and replaces sent, cancels not counted): at most this many in any
   * rolling 60 s, and per UTC day. The order that would exceed one is never sent: the switch trips
   * (reason `order-budget`) instead. 0 = off.
   */
  readonly maxOrdersPerMinute: number;
  readonly maxOrdersPerDay: number;
  /** Per-trigger action and auto-resume; absent fields take `DEFAULT_TRIGGER_POLICIES`. */
  readonly triggers: Readonly<Partial<Record<KillSwitchReason, Partial<TriggerPolicy>>>>;
}

/** The engine's risk configuration. */
export interface RiskConfig {
  readonly defaults: SymbolRiskLimits;
  /** Overrides by symbol. */
  readonly perSymbol: Readonly<Record<string, Partial<SymbolRiskLimits>>>;
  readonly killSwitch: KillSwitchConfig;
  /** Market-data sanity thresholds; absent = `DEFAULT_MD_SANITY_CONFIG`. */
  readonly marketData?: MdSanityConfig;
}

/** Conservative per-symbol defaults (a demo account, small sizes). */
export const DEFAULT_SYMBOL_RISK_LIMITS: SymbolRiskLimits = Object.freeze({
  maxPosition: 100,
  maxOrderQty: 50,
  maxOrderNotionalUsd: 250_000,
  maxOpenOrders: 20,
  bandMarginTicks: 0,
  maxQuoteDeviationBps: 500,
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
  maxOrdersPerMinute: 0,
  maxOrdersPerDay: 0,
  triggers: Object.freeze({}),
});

/**
 * Default policy per trigger: every trigger pauses. Losses, reject storms and manual trips latch
 * until `mmbot ctl resume`; stale data and lost connection lift by themselves when
 * `autoClearConditions` is set; the order budget lifts by itself once the last minute is back to
 * half its budget (the day budget: at the next UTC day).
 */
export function policyFor(config: KillSwitchConfig, reason: KillSwitchReason): TriggerPolicy {
  const selfClearing = reason === 'stale-market-data' || reason === 'lost-connection';
  const autoResume = selfClearing ? config.autoClearConditions : reason === 'order-budget';
  const o = config.triggers[reason] ?? {};
  // A manual trip is the operator's: it never lifts by itself.
  return { action: o.action ?? 'pause', autoResume: reason === 'manual' ? false : (o.autoResume ?? autoResume) };
}

/** Default risk configuration. */
export const DEFAULT_RISK_CONFIG: RiskConfig = Object.freeze({
  defaults: DEFAULT_SYMBOL_RISK_LIMITS,
  perSymbol: Object.freeze({}),
  killSwitch: DEFAULT_KILL_SWITCH_CONFIG,
  marketData: DEFAULT_MD_SANITY_CONFIG,
});

/** The effective limits for `symbol`: defaults overlaid with its overrides. */
export function limitsFor(config: RiskConfig, symbol: string): SymbolRiskLimits {
  const o = config.perSymbol[symbol];
  return o ? { ...config.defaults, ...o } : config.defaults;
}
