import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { engineConfigs } from '../../src/app/live/engine-config.ts';
import { EXECUTION_ENDPOINTS } from '../../src/config/schema.ts';
import { parseConfig } from '../../src/config/index.ts';
import { DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG, ENDPOINTS } from '../../src/engine/index.ts';
import type { StrategyDefinition } from '../../src/strategy/contract.ts';

const def: StrategyDefinition = { name: 's', description: '', params: z.object({}), create: () => ({ quote: () => null }) };
const BASE = 'venue: { mode: embedded-sim }\nbot:\n  strategies: [{ symbol: EURUSD-PERP, strategy: s }]\n';
const parse = (extra: string): ReturnType<typeof parseConfig> => parseConfig(BASE + extra, 'x.yaml', { strategies: () => def });

describe('engineConfigs', () => {
  it('absent sections give exactly the engine defaults', () => {
    const c = engineConfigs(parse(''));
    expect(c.risk).toEqual(DEFAULT_RISK_CONFIG);
    expect(c.execution).toEqual(DEFAULT_EXECUTION_CONFIG);
    expect(c.orderManager).toEqual(DEFAULT_ORDER_MANAGER_CONFIG);
    expect(c.explicitFees).toBeNull();
    expect(c.stopTimeoutMs).toBe(5000);
  });

  it('maps every set field, keeping defaults for the rest', () => {
    const c = engineConfigs(
      parse(`  unknown_orders: adopt
  tick_interval_ms: 100
  fee_rates: { maker: 0, taker: 0.0002 }
risk:
  max_position: 7
  symbols: { EURUSD-PERP: { max_order_qty: 2, band_margin_ticks: 3 } }
  kill_switch: { max_drawdown_usd: 50, auto_clear: false }
execution:
  max_queue: 10
  read_max_wait_ms: 3000
  budgets: [{ name: b, capacity: 5, refill_per_sec: 2, costs: { place: 1, positions: 1, rewards: 2 } }]
  adaptive: { max_idle_ms: 1500, probe_after_ms: 60000 }
order_manager: { size_tolerance: 0.25, tag: null, reprice: rej, stop_timeout_ms: 1500 }
`),
    );
    expect(c.risk.defaults).toEqual({ ...DEFAULT_RISK_CONFIG.defaults, maxPosition: 7 });
    expect(c.risk.perSymbol).toEqual({ 'EURUSD-PERP': { maxOrderQty: 2, bandMarginTicks: 3 } });
    expect(c.risk.killSwitch).toEqual({ ...DEFAULT_RISK_CONFIG.killSwitch, maxDrawdownUsd: 50, autoClearConditions: false });
    expect(c.execution).toEqual({
      ...DEFAULT_EXECUTION_CONFIG,
      maxQueue: 10,
      readMaxWaitMs: 3000,
      budgets: [{ name: 'b', capacity: 5, refillPerSec: 2, costs: { place: 1, positions: 1, rewards: 2 } }],
      adaptive: { ...DEFAULT_EXECUTION_CONFIG.adaptive, maxIdleMs: 1500, probeAfterMs: 60000 },
    });
    expect(c.orderManager).toEqual({ ...DEFAULT_ORDER_MANAGER_CONFIG, sizeTolerance: 0.25, tag: null, reprice: 'rej', unknownOrders: 'adopt', tickIntervalMs: 100 });
    expect(c.explicitFees).toEqual({ maker: 0, taker: 0.0002 });
    expect(c.stopTimeoutMs).toBe(1500);
  });

  it('maps the order-count budgets and the per-trigger actions (issue 23)', () => {
    const c = engineConfigs(
      parse(`risk:
  max_orders_per_minute: 120
  max_orders_per_day: 20000
  kill_switch:
    triggers:
      drawdown: { action: stop }
      order_budget: { action: pause, auto_resume: false }
      lost_connection: { auto_resume: false }
`),
    );
    expect(c.risk.killSwitch).toEqual({
      ...DEFAULT_RISK_CONFIG.killSwitch,
      maxOrdersPerMinute: 120,
      maxOrdersPerDay: 20000,
      triggers: { drawdown: { action: 'stop' }, 'order-budget': { action: 'pause', autoResume: false }, 'lost-connection': { autoResume: false } },
    });
    expect(() => parse('risk: { kill_switch: { triggers: { drawdown: { action: halt } } } }\n')).toThrow(/risk\.kill_switch\.triggers\.drawdown\.action/);
    expect(() => parse('risk: { kill_switch: { triggers: { manual: { action: stop } } } }\n')).toThrow(/risk\.kill_switch\.triggers/);
  });

  it('the config schema knows exactly the execution endpoints', () => {
    expect([...EXECUTION_ENDPOINTS].sort()).toEqual([...ENDPOINTS].sort());
  });
});

describe('engineConfigs: market-data sanity and the fat-finger guard (issue 35)', () => {
  it('maps risk.market_data and max_quote_deviation_bps (per symbol too), defaults for the rest', () => {
    const c = engineConfigs(
      parse(`risk:
  max_quote_deviation_bps: 200
  symbols: { EURUSD-PERP: { max_quote_deviation_bps: 50 } }
  market_data: { crossed_book_ms: 250 }
`),
    );
    expect(c.risk.defaults.maxQuoteDeviationBps).toBe(200);
    expect(c.risk.perSymbol).toEqual({ 'EURUSD-PERP': { maxQuoteDeviationBps: 50 } });
    expect(c.risk.marketData).toEqual({ crossedBookMs: 250, maxMidDeviationBps: 300 });
    expect(DEFAULT_RISK_CONFIG.defaults.maxQuoteDeviationBps).toBe(500);
  });

  it('a negative threshold is refused naming the path and the value', () => {
    expect(() => parse('risk:\n  market_data: { max_mid_deviation_bps: -5 }\n')).toThrow(/risk\.market_data\.max_mid_deviation_bps[\s\S]*-5/);
  });
});
