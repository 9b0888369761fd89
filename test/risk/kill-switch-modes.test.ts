import { describe, expect, it } from 'vitest';
import { DEFAULT_KILL_SWITCH_CONFIG, KillSwitch, OrderBudget, policyFor, type KillSwitchConfig } from '../../src/risk/index.ts';

/*
 * Issue 23, build 3: `action: stop | pause` per trigger, pauses that lift by themselves when their
 * condition clears (configurable), and order-count budgets per minute and per UTC day.
 */

const DAY = 86_400_000;
const inputs = (nowMs: number, pnl: number, age: number | null = 0, down: number | null = null) => ({ nowMs, totalPnlUsd: pnl, maxMarketDataAgeMs: age, disconnectedSinceMs: down });
const cfg = (over: Partial<KillSwitchConfig>): KillSwitchConfig => ({ ...DEFAULT_KILL_SWITCH_CONFIG, ...over });

describe('OrderBudget', () => {
  it('admits exactly perMinute orders in any rolling 60 s, refusing (and not counting) the next', () => {
    const b = new OrderBudget(3, 0);
    expect([b.tryTake(1_000), b.tryTake(2_000), b.tryTake(3_000), b.tryTake(4_000)]).toEqual([null, null, null, 'minute']);
    expect(b.counts(4_000)).toEqual({ lastMinute: 3, today: 3 });
    // 61 000 is 60 s after the first: it has left the window, so one more fits, then none.
    expect(b.tryTake(60_999)).toBe('minute');
    expect([b.tryTake(61_000), b.tryTake(61_001)]).toEqual([null, 'minute']);
    expect(b.counts(61_001)).toEqual({ lastMinute: 3, today: 4 });
  });

  it('admits exactly perDay orders per UTC day, and a new day starts from 0', () => {
    const b = new OrderBudget(0, 4);
    // Every 15 s from DAY − 70 s: four fit, the fifth (DAY − 10 s) is over, the sixth (DAY + 5 s) is the next day.
    const taken = Array.from({ length: 7 }, (_, i) => b.tryTake(DAY - 70_000 + i * 15_000));
    expect(taken).toEqual([null, null, null, null, 'day', null, null]);
    expect(b.counts(DAY + 20_000)).toEqual({ lastMinute: 3, today: 2 });
  });

  it('has room again only once the last minute is back to half its budget', () => {
    const b = new OrderBudget(10, 0);
    for (let i = 0; i < 10; i++) expect(b.tryTake(i * 1_000)).toBeNull();
    expect(b.hasRoom(9_000)).toBe(false);
    // At 63 s the orders of 0..3 s have left the window: 6 remain, over half of 10.
    expect(b.counts(63_000).lastMinute).toBe(6);
    expect(b.hasRoom(63_000)).toBe(false);
    expect(b.counts(64_000).lastMinute).toBe(5);
    expect(b.hasRoom(64_000)).toBe(true);
  });
});

describe('KillSwitch policies', () => {
  it('defaults: every trigger pauses; stale data, lost connection and the order budget lift by themselves; losses, storms and manual latch', () => {
    const c = DEFAULT_KILL_SWITCH_CONFIG;
    expect(['drawdown', 'daily-loss', 'reject-storm', 'stale-market-data', 'lost-connection', 'order-budget', 'manual'].map((r) => policyFor(c, r as never))).toEqual([
      { action: 'pause', autoResume: false },
      { action: 'pause', autoResume: false },
      { action: 'pause', autoResume: false },
      { action: 'pause', autoResume: true },
      { action: 'pause', autoResume: true },
      { action: 'pause', autoResume: true },
      { action: 'pause', autoResume: false },
    ]);
    expect(policyFor(cfg({ autoClearConditions: false }), 'lost-connection')).toEqual({ action: 'pause', autoResume: false });
    expect(policyFor(cfg({ triggers: { manual: { autoResume: true } } }), 'manual')).toEqual({ action: 'pause', autoResume: false });
  });

  it('a stop trigger says stop and never lifts by itself, even when its condition clears', () => {
    const k = new KillSwitch(cfg({ staleMarketDataMs: 1_000, triggers: { 'stale-market-data': { action: 'stop' } } }));
    expect(k.check(inputs(0, 0, 1_001))).toEqual({ kind: 'tripped', reason: 'stale-market-data', detail: 'no market data for 1001 ms > 1000', action: 'stop' });
    expect(k.state()).toEqual({ tripped: true, reason: 'stale-market-data', detail: 'no market data for 1001 ms > 1000', sinceMs: 0, action: 'stop' });
    expect(k.check(inputs(1, 0, 5))).toBeNull();
    expect(k.tripped).toBe(true);
  });

  it('a drawdown pause with auto_resume lifts when the drawdown is back within the limit; without it, it latches until reset', () => {
    const auto = new KillSwitch(cfg({ maxDrawdownUsd: 100, maxDailyLossUsd: 0, triggers: { drawdown: { autoResume: true } } }));
    expect(auto.check(inputs(0, 200))).toBeNull();
    expect(auto.check(inputs(1, 99.5))).toEqual({ kind: 'tripped', reason: 'drawdown', detail: 'drawdown 100.50 USD > 100', action: 'pause' });
    expect(auto.check(inputs(2, 99.9))).toBeNull(); // 100.10 below the peak: still over
    expect(auto.check(inputs(3, 100))).toEqual({ kind: 'cleared', reason: 'drawdown' }); // exactly 100: within
    const latched = new KillSwitch(cfg({ maxDrawdownUsd: 100, maxDailyLossUsd: 0 }));
    latched.check(inputs(0, 200));
    expect(latched.check(inputs(1, 99.5))).toMatchObject({ kind: 'tripped', reason: 'drawdown' });
    expect(latched.check(inputs(2, 250))).toBeNull();
    expect(latched.reset(250)).toBe(true);
    expect(latched.state()).toEqual({ tripped: false, reason: null, detail: null, sinceMs: null, action: null });
  });

  it('a reject-storm pause with auto_resume lifts once the window holds fewer rejects than the storm count', () => {
    const k = new KillSwitch(cfg({ rejectStormCount: 3, rejectStormWindowMs: 1_000, triggers: { 'reject-storm': { autoResume: true } } }));
    k.recordReject(0);
    k.recordReject(100);
    expect(k.recordReject(200)).toMatchObject({ kind: 'tripped', reason: 'reject-storm', action: 'pause' });
    expect(k.check(inputs(999, 0))).toBeNull(); // 3 within the window
    expect(k.check(inputs(1_000, 0))).toEqual({ kind: 'cleared', reason: 'reject-storm' }); // the one at 0 left it
  });

  it('the order budget: the order over max_orders_per_minute is refused and trips; the pause lifts at half the budget', () => {
    const k = new KillSwitch(cfg({ maxOrdersPerMinute: 4, maxOrdersPerDay: 0 }));
    const admitted = [0, 1, 2, 3, 4].map((i) => k.admitOrder(i * 1_000));
    expect(admitted.map((a) => a.ok)).toEqual([true, true, true, true, false]);
    expect(admitted[4]!.transition).toEqual({ kind: 'tripped', reason: 'order-budget', detail: '4 orders in the last minute: max_orders_per_minute 4 reached', action: 'pause' });
    // Tripped: more orders (a flatten...) are refused without another transition.
    expect(k.admitOrder(5_000)).toEqual({ ok: false, transition: null });
    expect(k.orderCounts(5_000)).toEqual({ lastMinute: 4, today: 4, perMinute: 4, perDay: 0 });
    expect(k.check(inputs(60_000, 0))).toBeNull(); // 3 in the last minute (1..3 s): over half of 4
    expect(k.check(inputs(61_000, 0))).toEqual({ kind: 'cleared', reason: 'order-budget' }); // 2 left = half
    expect(k.admitOrder(61_000).ok).toBe(true);
  });

  it('the day budget trips with its own detail, stays paused all day and lifts at the next UTC day', () => {
    const k = new KillSwitch(cfg({ maxOrdersPerMinute: 0, maxOrdersPerDay: 2 }));
    const t0 = 3 * DAY + 1_000;
    expect([k.admitOrder(t0).ok, k.admitOrder(t0 + 1).ok]).toEqual([true, true]);
    expect(k.admitOrder(t0 + 2)).toEqual({ ok: false, transition: { kind: 'tripped', reason: 'order-budget', detail: '2 orders today (UTC): max_orders_per_day 2 reached', action: 'pause' } });
    expect(k.check(inputs(4 * DAY - 1, 0))).toBeNull();
    expect(k.check(inputs(4 * DAY, 0))).toEqual({ kind: 'cleared', reason: 'order-budget' });
  });

  it('an order budget with action stop trips with stop', () => {
    const k = new KillSwitch(cfg({ maxOrdersPerMinute: 1, triggers: { 'order-budget': { action: 'stop' } } }));
    expect(k.admitOrder(0).ok).toBe(true);
    expect(k.admitOrder(1).transition).toMatchObject({ reason: 'order-budget', action: 'stop' });
    expect(k.check(inputs(120_000, 0))).toBeNull();
  });
});
