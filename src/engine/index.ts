/**
 * The engine facade: createEngine plus the types the daemon, the backtester and monitoring code
 * against. Strategies never import this (they use src/index.ts).
 */
export { createEngine } from './create-engine.ts';
export type {
  Engine,
  EngineDeps,
  EngineSnapshot,
  EngineCounters,
  KillSwitchEpisode,
  EngineLog,
  KillSwitchSnapshot,
  LocalOrderStatus,
  EngineOperator,
  FlattenResult,
  OperableEngine,
  OrderBudgetSnapshot,
  VenueReads,
  OperatorStrategyState,
  PnlBreakdown,
  PositionSnapshot,
  StopOptions,
  StopReport,
  StrategyBinding,
  SymbolSnapshot,
  WorkingOrderView,
} from './types.ts';
export type * from './events.ts';
export type { AccountReader, ConnectionState, EngineInputs, OrderGateway, RewardUpdate } from './ports.ts';
export {
  DEFAULT_FEE_RATES,
  DEFAULT_ORDER_MANAGER_CONFIG,
  type FeeRates,
  type OrderManagerConfig,
  type UnknownOrderPolicy,
} from './config.ts';
export {
  DEFAULT_EXECUTION_CONFIG,
  DEFAULT_ORDER_BUDGET,
  ENDPOINTS,
  type Endpoint,
  type ReadEndpoint,
  type ExecutionConfig,
  type RateBudget,
} from '../execution/config.ts';
export { DEFAULT_ADAPTIVE_RATE_CONFIG, type AdaptiveRateConfig } from '../execution/adaptive-rate.ts';
export type { BudgetState } from '../execution/executor.ts';
export {
  DEFAULT_RISK_CONFIG,
  DEFAULT_SYMBOL_RISK_LIMITS,
  DEFAULT_KILL_SWITCH_CONFIG,
  limitsFor,
  type KillSwitchConfig,
  type RiskConfig,
  type SymbolRiskLimits,
} from '../risk/config.ts';
export type { KillSwitchReason, TradingState } from '../risk/trading-state.ts';
export { DEFAULT_MD_SANITY_CONFIG, MD_SUSPECT_KINDS, type MdSanityConfig, type MdSuspectKind } from '../risk/md-sanity.ts';
export { DATA_SUSPECT_REASON } from './md-watch.ts';
export { CidFactory } from './cid.ts';
export { FLATTEN_MAX_ORDERS, FLATTEN_REASON, FLATTEN_RETRY_MS, PAUSED_REASON } from './operator.ts';
