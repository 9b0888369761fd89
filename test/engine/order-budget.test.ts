import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_CONFIG, type RiskConfig } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

/*
 * Issue 23, build 3: the order-count budget halts quoting before a venue would ban: the order over
 * risk.max_orders_per_minute never reaches the venue; the kill switch trips (reason order-budget),
 * pulls the quotes and keeps the position; the pause lifts by itself once the last minute is back
 * to half its budget (or, latched, on `mmbot ctl resume`).
 */
const risk = (ks: Partial<RiskConfig['killSwitch']>): RiskConfig => ({ ...DEFAULT_RISK_CONFIG, killSwitch: { ...DEFAULT_RISK_CONFIG.killSwitch, staleMarketDataMs: 0, ...ks } });

async function quotingWithBudget(ks: Partial<RiskConfig['killSwitch']>) {
  const a = new ScriptedStrategy();
  const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }], { risk: risk(ks) });
  const t0 = h.clock.nowMs();
  // t0: two places; t0 + 1 s: both replaced; t0 + 2 s: the first replace is the 5th order, the second would be the 6th.
  a.next = quotes(EURUSD, 11000, 11010);
  h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
  await h.settle();
  for (const [bid, ask] of [[11001, 11011], [11002, 11012]] as const) {
    await h.advance(1_000, 100);
    a.next = quotes(EURUSD, bid, ask);
    h.market$.next(bookEv(EURUSD, bid + 4, bid + 6, h.clock.nowMs()));
    await h.settle();
  }
  const ordersSent = (): number => h.gw.calls('place').length + h.gw.calls('replace').length;
  return { a, h, t0, ordersSent };
}

describe('order-count budget (risk.max_orders_per_minute)', () => {
  it('sends exactly the budget, refuses the next order, trips with a clear reason and pulls every quote', async () => {
    const { h, ordersSent } = await quotingWithBudget({ maxOrdersPerMinute: 5 });
    expect(ordersSent()).toBe(5);
    expect(h.gw.calls('place')).toHaveLength(2);
    expect(h.gw.calls('replace')).toHaveLength(3);
    expect(h.of('kill-switch-tripped').map((e) => [e.reason, e.detail, e.action])).toEqual([['order-budget', '5 orders in the last minute: max_orders_per_minute 5 reached', 'pause']]);
    expect(h.gw.open()).toEqual([]);
    const snap = h.engine.snapshot();
    expect(snap.killSwitch).toMatchObject({ tripped: true, reason: 'order-budget', action: 'pause' });
    expect(snap.orderBudget).toEqual({ lastMinute: 5, today: 5, perMinute: 5, perDay: 0 });
    expect(snap.symbols[0]!.tradingReason).toBe('kill switch: order-budget');
  });

  it('the pause lifts by itself once the last minute holds half the budget, and quoting resumes', async () => {
    const { h, t0, ordersSent } = await quotingWithBudget({ maxOrdersPerMinute: 5 });
    // Counted: 2 at t0, 2 at t0 + 1 s, 1 at t0 + 2 s. Half of 5 is 2: room once those of t0 + 1 s leave (t0 + 61 s).
    await h.advance(t0 + 60_500 - h.clock.nowMs(), 250);
    expect(h.of('kill-switch-cleared')).toEqual([]);
    expect(ordersSent()).toBe(5);
    await h.advance(t0 + 61_250 - h.clock.nowMs(), 250);
    expect(h.of('kill-switch-cleared').map((e) => [e.reason, e.tsMs - t0])).toEqual([['order-budget', 61_000]]);
    expect(h.gw.open().map((o) => o.priceTicks).sort()).toEqual([11002, 11012]);
    expect(ordersSent()).toBe(7);
    expect(h.engine.snapshot().orderBudget).toEqual({ lastMinute: 3, today: 7, perMinute: 5, perDay: 0 });
  });

  it('with auto_resume off it stays paused until the operator resumes (reset), keeping the position', async () => {
    const { h, t0, ordersSent } = await quotingWithBudget({ maxOrdersPerMinute: 5, triggers: { 'order-budget': { autoResume: false } } });
    await h.advance(t0 + 120_000 - h.clock.nowMs(), 1_000);
    expect(h.of('kill-switch-cleared')).toEqual([]);
    expect(h.gw.open()).toEqual([]);
    expect(ordersSent()).toBe(5);
    h.engine.resetKillSwitch();
    await h.advance(300, 100);
    expect(h.of('kill-switch-cleared').map((e) => e.reason)).toEqual(['manual-reset']);
    expect(h.gw.open()).toHaveLength(2);
    expect(ordersSent()).toBe(7);
  });

  it('a stop action is announced on the trip event (the daemon stops on it)', async () => {
    const { h } = await quotingWithBudget({ maxOrdersPerMinute: 5, triggers: { 'order-budget': { action: 'stop' } } });
    expect(h.of('kill-switch-tripped').map((e) => [e.reason, e.action])).toEqual([['order-budget', 'stop']]);
    expect(h.gw.open()).toEqual([]);
  });
});
