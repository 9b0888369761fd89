import type { BotConfig } from '../../config/index.ts';
import {
  DEFAULT_EXECUTION_CONFIG,
  DEFAULT_MD_SANITY_CONFIG,
  DEFAULT_ORDER_MANAGER_CONFIG,
  DEFAULT_RISK_CONFIG,
  type ExecutionConfig,
  type FeeRates,
  type OrderManagerConfig,
  type RiskConfig,
  type SymbolRiskLimits,
} from '../../engine/index.ts';

/** The engine configs a BotConfig maps to. */
export interface EngineConfigs {
  readonly risk: RiskConfig;
  readonly execution: ExecutionConfig;
  readonly orderManager: OrderManagerConfig;
  /** `bot.fee_rates` when set (else the account's rates apply: resolveFeeRates). */
  readonly explicitFees: FeeRates | null;
  /** engine.stop() deadline (ms). */
  readonly stopTimeoutMs: number;
}

/** Drops undefined fields so a spread keeps the default for anything the config left out. */
function defined<T extends object>(o: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<{ [K in keyof T]: Exclude<T[K], undefined> }>;
}

type SymbolRiskSection = NonNullable<BotConfig['risk']['symbols']>[string];

function symbolLimits(r: SymbolRiskSection): Partial<SymbolRiskLimits> {
  return defined({
    maxPosition: r.max_position,
    maxOrderQty: r.max_order_qty,
    maxOrderNotionalUsd: r.max_order_notional_usd,
    maxOpenOrders: r.max_open_orders,
    bandMarginTicks: r.band_margin_ticks,
    maxQuoteDeviationBps: r.max_quote_deviation_bps,
  });
}

type TriggerSection = NonNullable<NonNullable<BotConfig['risk']['kill_switch']>['triggers']>;

/** `kill_switch.triggers` (snake_case keys) → the engine's per-reason policies. */
function triggerPolicies(t: TriggerSection): RiskConfig['killSwitch']['triggers'] {
  return Object.fromEntries(
    Object.entries(t)
      .filter(([, p]) => p !== undefined)
      .map(([name, p]) => [name.replaceAll('_', '-'), defined({ action: p!.action, autoResume: p!.auto_resume })]),
  );
}

/**
 * Maps the snake_case config sections onto the engine's configs, overlaying the engine defaults
 * field by field (absent in YAML = the engine's default).
 */
export function engineConfigs(config: BotConfig): EngineConfigs {
  const r = config.risk;
  const k = r.kill_switch ?? {};
  const risk: RiskConfig = {
    defaults: { ...DEFAULT_RISK_CONFIG.defaults, ...symbolLimits(r) },
    perSymbol: Object.fromEntries(Object.entries(r.symbols ?? {}).map(([sym, o]) => [sym, symbolLimits(o)])),
    killSwitch: {
      ...DEFAULT_RISK_CONFIG.killSwitch,
      ...defined({
        maxDrawdownUsd: k.max_drawdown_usd,
        maxDailyLossUsd: k.max_daily_loss_usd,
        rejectStormCount: k.reject_storm_count,
        rejectStormWindowMs: k.reject_storm_window_ms,
        staleMarketDataMs: k.stale_market_data_ms,
        lostConnectionMs: k.lost_connection_ms,
        autoClearConditions: k.auto_clear,
        maxOrdersPerMinute: r.max_orders_per_minute,
        maxOrdersPerDay: r.max_orders_per_day,
      }),
      triggers: triggerPolicies(k.triggers ?? {}),
    },
    marketData: {
      ...DEFAULT_MD_SANITY_CONFIG,
      ...defined({ crossedBookMs: r.market_data?.crossed_book_ms, maxMidDeviationBps: r.market_data?.max_mid_deviation_bps }),
    },
  };

  const e = config.execution;
  const a = e.adaptive ?? {};
  const execution: ExecutionConfig = {
    ...DEFAULT_EXECUTION_CONFIG,
    ...defined({ maxQueue: e.max_queue, maxInFlight: e.max_in_flight, readMaxWaitMs: e.read_max_wait_ms }),
    budgets: e.budgets
      ? e.budgets.map((x) => ({ name: x.name, capacity: x.capacity, refillPerSec: x.refill_per_sec, costs: { ...x.costs } }))
      : DEFAULT_EXECUTION_CONFIG.budgets,
    adaptive: {
      ...DEFAULT_EXECUTION_CONFIG.adaptive,
      ...defined({
        decreaseFactor: a.decrease_factor,
        increasePerSec: a.increase_per_s,
        burstIncreaseMs: a.burst_increase_ms,
        minRatePerSec: a.min_rate_per_s,
        maxIdleMs: a.max_idle_ms,
        unavailablePauseMs: a.unavailable_pause_ms,
        probeAfterMs: a.probe_after_ms,
      }),
    },
  };

  const o = config.order_manager;
  const orderManager: OrderManagerConfig = {
    ...DEFAULT_ORDER_MANAGER_CONFIG,
    ...defined({
      priceToleranceTicks: o.price_tolerance_ticks,
      sizeTolerance: o.size_tolerance,
      minOrderLifetimeMs: o.min_order_lifetime_ms,
      useReplace: o.use_replace,
      postOnly: o.post_only,
      reprice: o.reprice,
      tif: o.tif,
      selfTrade: o.self_trade,
      statusQueryDelayMs: o.status_query_delay_ms,
      cancelRetryMs: o.cancel_retry_ms,
      fillPollMs: o.fill_poll_ms,
      fillRecoveryLookbackMs: o.fill_recovery_lookback_ms,
      positionCheckMs: o.position_check_ms,
      tickIntervalMs: config.bot.tick_interval_ms,
    }),
    // `tag: null` (no tag) must survive the undefined filter.
    ...(o.tag === undefined ? {} : { tag: o.tag }),
    unknownOrders: config.bot.unknown_orders,
  };

  const explicitFees: FeeRates | null = config.bot.fee_rates ? { ...config.bot.fee_rates } : null;
  return { risk, execution, orderManager, explicitFees, stopTimeoutMs: o.stop_timeout_ms };
}
