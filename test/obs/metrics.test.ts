import { Registry, register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { createBotMetrics } from '../../src/obs/metrics.ts';
import { registerProcessMetrics } from '../../src/obs/process-metrics.ts';
import { createRewardMetrics } from '../../src/obs/reward-metrics.ts';
import { promtoolCheckMetrics } from '../monitoring/promtool.ts';
import { needs } from '../setup/system-deps.ts';

async function value(reg: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const m = await reg.getSingleMetric(name)?.get();
  const v = m?.values.find((x) => Object.entries(labels).every(([k, val]) => x.labels[k] === val));
  return v?.value;
}

/** Every bot, process and reward metric with a sample value, and the registry's exposition text. */
async function exposition(): Promise<{ reg: Registry; text: string }> {
  const reg = new Registry();
  const m = createBotMetrics(reg);
  const proc = registerProcessMetrics(reg);
  const r = createRewardMetrics(reg);
  m.connection('orders', true);
  m.frames('orders', 3);
  m.decodeError('orders');
  m.marketData('X', Date.now());
  m.tickToIntent(0.0002);
  m.orderRoundTrip('place', 0.004);
  m.intent('place', 'X');
  m.reject('POST_ONLY_WOULD_CROSS', 'venue');
  m.rateLimiterBudget('orders', 7, 20, 1.5);
  m.throttled();
  m.openOrders('X', 'buy', 2);
  m.pendingOrders('X', 'queued', 1);
  m.sessionRollover('orders');
  m.fillMarkout('X', '1s', -0.7);
  m.fillMarkoutRecent('X', '1s', -0.7);
  m.position('X', 1, 100);
  m.pnl('X', 'total', 1);
  m.fundingRate('X', 0.0001);
  r.totals([{ symbol: 'X', status: 'accrued', usd: 1.5 }]);
  r.summary({ accruedTodayUsd: 1.5, awaitingApprovalUsd: 0, paidThisMonthUsd: 0, retainedUsd: 0 });
  r.venueShare('X', 0.4);
  r.estimate('X', { minuteShare: 0.5, epochShare: 0.41, scoreUsd: 1234, expectedUsd: 4.1 });
  r.shareGap('X', 0.01);
  r.poll(true, Date.now());
  const text = await reg.metrics();
  proc.stop();
  return { reg, text };
}

describe('bot metrics', () => {
  it('live on their own registry: two bots do not collide and the global registry stays empty', () => {
    const a = new Registry();
    const b = new Registry();
    createBotMetrics(a);
    createBotMetrics(b);
    expect(globalRegistry.getMetricsAsArray()).toHaveLength(0);
    expect(() => createBotMetrics(a)).toThrow(/already been registered/);
  });

  it('counts reconnects only after the first connect', async () => {
    const reg = new Registry();
    const m = createBotMetrics(reg);
    m.connection('market-data', true);
    expect(await value(reg, 'mmbot_connection_reconnects_total', { stream: 'market-data' })).toBe(0);
    m.connection('market-data', true); // repeated "up" is not a reconnect
    m.connection('market-data', false);
    expect(await value(reg, 'mmbot_connection_up', { stream: 'market-data' })).toBe(0);
    m.connection('market-data', true);
    m.connection('market-data', false);
    m.connection('market-data', true);
    expect(await value(reg, 'mmbot_connection_reconnects_total', { stream: 'market-data' })).toBe(2);
    expect(await value(reg, 'mmbot_connection_up', { stream: 'market-data' })).toBe(1);
  });

  it('reads market-data staleness off the injected clock at scrape time', async () => {
    const clock = new VirtualClock(1_000_000);
    const reg = new Registry();
    const m = createBotMetrics(reg, { clock });
    m.marketData('EURUSD-PERP', 1_000_000);
    clock.advanceBy(2_500);
    expect(await value(reg, 'mmbot_market_data_staleness_seconds', { symbol: 'EURUSD-PERP' })).toBe(2.5);
    m.marketData('EURUSD-PERP', clock.nowMs());
    expect(await value(reg, 'mmbot_market_data_staleness_seconds', { symbol: 'EURUSD-PERP' })).toBe(0);
  });

  it('sets position, notional (absolute), pnl components and kill switch', async () => {
    const reg = new Registry();
    const m = createBotMetrics(reg);
    m.position('X', -3, -300.5);
    m.pnl('X', 'spread_capture', 12.5);
    m.killSwitch(true);
    m.killSwitchTrip('max-drawdown');
    m.reject('', 'venue');
    expect(await value(reg, 'mmbot_position_contracts', { symbol: 'X' })).toBe(-3);
    expect(await value(reg, 'mmbot_notional_usd', { symbol: 'X' })).toBe(300.5);
    expect(await value(reg, 'mmbot_pnl_usd', { symbol: 'X', component: 'spread_capture' })).toBe(12.5);
    expect(await value(reg, 'mmbot_kill_switch_engaged')).toBe(1);
    expect(await value(reg, 'mmbot_kill_switch_trips_total', { reason: 'max-drawdown' })).toBe(1);
    expect(await value(reg, 'mmbot_rejects_total', { reason: 'unknown', source: 'venue' })).toBe(1);
  });

  it('every metric name carries a unit or _total', async () => {
    const { reg } = await exposition();
    const names = reg.getMetricsAsArray().map((x) => x.name);
    const unitless = ['mmbot_connection_up', 'mmbot_open_orders', 'mmbot_orders_pending', 'mmbot_kill_switch_engaged', 'mmbot_ready', 'mmbot_execution_slowed_down', 'mmbot_quote_expected', 'mmbot_orders_counted', 'mmbot_order_budget_limit', 'mmbot_md_suspect'];
    for (const n of names) {
      if (unitless.includes(n)) continue;
      expect(n, n).toMatch(/_(seconds|total|bytes|usd|contracts|ratio|requests|per_second|bps)$/);
    }
  });

  it.skipIf(!needs('prometheus'))('the exposition passes promtool check metrics', async () => {
    const { text } = await exposition();
    const check = await promtoolCheckMetrics(text);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  });
});
