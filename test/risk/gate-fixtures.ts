import { DEFAULT_SYMBOL_RISK_LIMITS, type RiskView, type SymbolRiskLimits } from '../../src/risk/index.ts';

/** A flat, ACTIVE EURUSD-like view (tick 0.0001, no band, no reference price) with `over` applied. */
export const view = (over: Partial<RiskView> = {}): RiskView => ({
  position: 0,
  tradingState: 'ACTIVE',
  bandLowerTicks: null,
  bandUpperTicks: null,
  referenceTicks: null,
  lingeringBuyQty: 0,
  lingeringSellQty: 0,
  lingeringOrders: 0,
  usdPerTickContract: 0.0001,
  minOrderSize: 1,
  ...over,
});

/** The default per-symbol limits with `over` applied. */
export const limits = (over: Partial<SymbolRiskLimits> = {}): SymbolRiskLimits => ({ ...DEFAULT_SYMBOL_RISK_LIMITS, ...over });

/** A quote level. */
export const L = (p: number, q: number) => ({ priceTicks: p, qty: q });
