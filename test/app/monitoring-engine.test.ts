import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { engineEventToMetrics, quoteExpected, snapshotToMetrics } from '../../src/app/monitoring-engine.ts';
import { Decimal } from '../../src/core/decimal.ts';
import { asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
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

function snapshot(working: WorkingOrderView[], over: Partial<SymbolSnapshot> = {}, tripped = false): EngineSnapshot {
  const s = { symbol: sym, strategyId: 's', desired: null, working, position: { qty: -42, avgPrice: null, markTicks: null }, maxPosition: 60, pnl, tradingState: 'ACTIVE', tradingReason: '', instrumentState: 'OPEN', strategyError: null, lastMarketDataMs: null, bestBidTicks: null, bestAskTicks: null, ...over } as unknown as SymbolSnapshot;
  return {
    nowMs: 0,
    running: true,
    tradingState: tripped ? 'HALTED' : 'ACTIVE',
    killSwitch: { tripped, reason: tripped ? 'manual' : null, detail: null, sinceMs: null, action: tripped ? 'pause' : null },
    orderBudget: { lastMinute: 57, today: 1234, perMinute: 60, perDay: 10_000 },
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

describe('alert inputs (issue 23)', () => {
  const quotes = { symbol: sym, bids: [{ priceTicks: 99, qty: 1 }], asks: [] };

  it('position cap, should-quote and position-mismatch series', async () => {
    const reg = new Registry();
    const metrics = createBotMetrics(reg);
    snapshotToMetrics(snapshot([], { desired: quotes } as Partial<SymbolSnapshot>), metrics, new ReadinessTracker(), null);
    expect(await gauge(reg, 'mmbot_position_contracts', { symbol: 'EURUSD-PERP' })).toBe(-42);
    expect(await gauge(reg, 'mmbot_position_limit_contracts', { symbol: 'EURUSD-PERP' })).toBe(60);
    expect(await gauge(reg, 'mmbot_quote_expected', { symbol: 'EURUSD-PERP' })).toBe(1);
    expect(await gauge(reg, 'mmbot_orders_counted', { window: 'minute' })).toBe(57);
    expect(await gauge(reg, 'mmbot_order_budget_limit', { window: 'minute' })).toBe(60);
    expect(await gauge(reg, 'mmbot_orders_counted', { window: 'day' })).toBe(1234);
    expect(await gauge(reg, 'mmbot_order_budget_limit', { window: 'day' })).toBe(10_000);
    // The mismatch counter exists at 0 from the first snapshot (so increase() sees the first one).
    expect(await gauge(reg, 'mmbot_position_mismatches_total', { symbol: 'EURUSD-PERP' })).toBe(0);
    const readiness = new ReadinessTracker();
    engineEventToMetrics({ type: 'position-mismatch', symbol: sym, engine: -42, venue: -40, corrected: -40, tsMs: 1 }, metrics, readiness);
    engineEventToMetrics({ type: 'position-mismatch', symbol: sym, engine: -42, venue: -41, corrected: -41, tsMs: 2 }, metrics, readiness);
    expect(await gauge(reg, 'mmbot_position_mismatches_total', { symbol: 'EURUSD-PERP' })).toBe(2);
  });

  it('fills that are not ours are counted by kind (mmbot_unknown_fills_total, issue 35)', async () => {
    const reg = new Registry();
    const metrics = createBotMetrics(reg);
    const readiness = new ReadinessTracker();
    // Both series exist at 0 from the start.
    expect(await gauge(reg, 'mmbot_unknown_fills_total', { kind: 'unknown-order' })).toBe(0);
    expect(await gauge(reg, 'mmbot_unknown_fills_total', { kind: 'other-account' })).toBe(0);
    const ghost = { type: 'unknown-fill', symbol: sym, orderId: asVenueOrderId('O-GHOST'), clientOrderId: null, accountId: 'ACC-1', tradeId: 'T-1', side: 'buy', qty: 5000, priceTicks: 11005, tsMs: 1 } as const;
    engineEventToMetrics({ ...ghost, kind: 'unknown-order' }, metrics, readiness);
    engineEventToMetrics({ ...ghost, kind: 'unknown-order', tradeId: 'T-2' }, metrics, readiness);
    engineEventToMetrics({ ...ghost, kind: 'other-account', accountId: 'ACC-2' }, metrics, readiness);
    expect(await gauge(reg, 'mmbot_unknown_fills_total', { kind: 'unknown-order' })).toBe(2);
    expect(await gauge(reg, 'mmbot_unknown_fills_total', { kind: 'other-account' })).toBe(1);
  });

  it('suspect market data: the gauge follows the snapshot and the events, episodes are counted by kind (issue 35)', async () => {
    const reg = new Registry();
    const metrics = createBotMetrics(reg);
    const readiness = new ReadinessTracker();
    snapshotToMetrics(snapshot([], { marketDataSuspect: null }), metrics, readiness, null);
    expect(await gauge(reg, 'mmbot_md_suspect', { symbol: 'EURUSD-PERP' })).toBe(0);
    engineEventToMetrics({ type: 'market-data-suspect', symbol: sym, kind: 'crossed-book', detail: 'crossed book: bid 1.15 ≥ ask 1.13 for 1000 ms', tsMs: 1 }, metrics, readiness);
    expect(await gauge(reg, 'mmbot_md_suspect', { symbol: 'EURUSD-PERP' })).toBe(1);
    expect(await gauge(reg, 'mmbot_md_suspect_episodes_total', { symbol: 'EURUSD-PERP', kind: 'crossed-book' })).toBe(1);
    engineEventToMetrics({ type: 'market-data-suspect', symbol: sym, kind: null, detail: '', tsMs: 2 }, metrics, readiness);
    expect(await gauge(reg, 'mmbot_md_suspect', { symbol: 'EURUSD-PERP' })).toBe(0);
    snapshotToMetrics(snapshot([], { marketDataSuspect: 'mid-jump' }), metrics, readiness, null);
    expect(await gauge(reg, 'mmbot_md_suspect', { symbol: 'EURUSD-PERP' })).toBe(1);
    expect(await gauge(reg, 'mmbot_md_suspect_episodes_total', { symbol: 'EURUSD-PERP', kind: 'crossed-book' })).toBe(1);
  });

  it('429s and 503s are counted by code', async () => {
    const reg = new Registry();
    const metrics = createBotMetrics(reg);
    const readiness = new ReadinessTracker();
    expect(await gauge(reg, 'mmbot_venue_backoffs_total', { code: 'RATE_LIMITED' })).toBe(0);
    for (const code of ['RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED', 'VENUE_UNAVAILABLE'] as const) engineEventToMetrics({ type: 'backoff', code, pauseMs: 500, tsMs: 0 }, metrics, readiness);
    expect(await gauge(reg, 'mmbot_venue_backoffs_total', { code: 'RATE_LIMITED' })).toBe(3);
    expect(await gauge(reg, 'mmbot_venue_backoffs_total', { code: 'VENUE_UNAVAILABLE' })).toBe(1);
  });

  it('a symbol should quote only when running, not halted, ACTIVE, not isolated and wanting quotes', () => {
    const with_ = (over: Partial<SymbolSnapshot>, tripped = false): boolean => {
      const snap = snapshot([], over, tripped);
      return quoteExpected(snap, snap.symbols[0]!);
    };
    expect(with_({ desired: quotes } as Partial<SymbolSnapshot>)).toBe(true);
    expect(with_({ desired: null })).toBe(false);
    expect(with_({ desired: { symbol: sym, bids: [], asks: [] } } as Partial<SymbolSnapshot>)).toBe(false);
    expect(with_({ desired: quotes } as Partial<SymbolSnapshot>, true)).toBe(false);
    expect(with_({ desired: quotes, tradingState: 'REDUCING' } as Partial<SymbolSnapshot>)).toBe(false);
    expect(with_({ desired: quotes, strategyError: 'boom' } as Partial<SymbolSnapshot>)).toBe(false);
  });
});
