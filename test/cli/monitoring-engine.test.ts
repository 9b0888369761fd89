import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { snapshotToMetrics } from '../../src/cli/monitoring-engine.ts';
import { Decimal } from '../../src/core/decimal.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { EngineSnapshot, SymbolSnapshot, WorkingOrderView } from '../../src/engine/index.ts';
import { createBotMetrics } from '../../src/obs/metrics.ts';
import { ReadinessTracker } from '../../src/obs/readiness.ts';

/*
 * Gauge semantics (issue 12): `mmbot_open_orders` counts only orders the venue acknowledged and
 * holds, so in a quiet moment it equals the venue's open orders; queued, unacknowledged and
 * unresolved orders have their own gauge, and each budget's learned rate is exported.
 */

const sym = asSymbol('EURUSD-PERP');
const zero = new Decimal(0);
const pnl = { spreadCapture: zero, inventory: zero, fees: zero, funding: zero, rewards: zero, total: zero, realized: zero, unrealized: zero };

let n = 0;
const order = (side: 'buy' | 'sell', status: WorkingOrderView['status'], acked = status !== 'queued' && status !== 'pending-new'): WorkingOrderView =>
  ({ clientOrderId: `c${n++}`, orderId: acked ? `o${n}` : null, symbol: sym, side, priceTicks: 100, qty: 1, filledQty: 0, status, adopted: false, createdMs: 0 }) as unknown as WorkingOrderView;

function snapshot(working: WorkingOrderView[]): EngineSnapshot {
  const s = { symbol: sym, strategyId: 's', desired: null, working, position: { qty: 0, avgPrice: null, markTicks: null }, pnl, tradingState: 'ACTIVE', tradingReason: '', instrumentState: 'OPEN', strategyError: null, lastMarketDataMs: null, bestBidTicks: null, bestAskTicks: null } as unknown as SymbolSnapshot;
  return {
    nowMs: 0,
    running: true,
    tradingState: 'ACTIVE',
    killSwitch: { tripped: false, reason: null, detail: null, sinceMs: null },
    symbols: [s],
    pnl,
    counters: {} as EngineSnapshot['counters'],
    execution: { queued: 3, inFlight: 2, slowedDown: true, budgets: [{ name: 'user-orders', available: 0.5, capacity: 3, ratePerSec: 1.25, configuredCapacity: 20, configuredPerSec: 8 }] },
  } as EngineSnapshot;
}

async function gauge(reg: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const m = await reg.getSingleMetric(name)?.get();
  return m?.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value;
}

describe('snapshotToMetrics', () => {
  it('open_orders counts only acknowledged resting orders; queued, in-flight and unknown ones are separate', async () => {
    const reg = new Registry();
    const metrics = createBotMetrics(reg);
    const working = [
      order('buy', 'open'),
      order('buy', 'pending-replace'),
      order('buy', 'queued'),
      order('buy', 'pending-new'),
      order('sell', 'pending-cancel'),
      order('sell', 'pending-new'),
      order('sell', 'unknown', false),
    ];
    snapshotToMetrics(snapshot(working), metrics, new ReadinessTracker(), null);
    expect(await gauge(reg, 'mmbot_open_orders', { symbol: 'EURUSD-PERP', side: 'buy' })).toBe(2);
    expect(await gauge(reg, 'mmbot_open_orders', { symbol: 'EURUSD-PERP', side: 'sell' })).toBe(1);
    expect(await gauge(reg, 'mmbot_orders_pending', { symbol: 'EURUSD-PERP', state: 'queued' })).toBe(1);
    expect(await gauge(reg, 'mmbot_orders_pending', { symbol: 'EURUSD-PERP', state: 'in_flight' })).toBe(2);
    expect(await gauge(reg, 'mmbot_orders_pending', { symbol: 'EURUSD-PERP', state: 'unknown' })).toBe(1);
    expect(await gauge(reg, 'mmbot_execution_queued_requests', {})).toBe(3);
    expect(await gauge(reg, 'mmbot_execution_in_flight_requests', {})).toBe(2);
    expect(await gauge(reg, 'mmbot_rate_limiter_rate_per_second', { budget: 'user-orders' })).toBe(1.25);
    expect(await gauge(reg, 'mmbot_rate_limiter_capacity_requests', { budget: 'user-orders' })).toBe(3);
  });
});
