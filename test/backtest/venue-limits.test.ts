/**
 * The replay exchange as a venue: its order-entry rate limit (429 past the budget, as the local
 * venue and docs/venue-rules.md §10), queries paying a round trip, and the engine's back-off meeting those 429s
 * exactly as live (the executor is the live one).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import type { PlaceOrder } from '../../src/domain/intents.ts';
import { ActionQueue } from '../../src/backtest/action-queue.ts';
import { LatencyModel } from '../../src/backtest/latency-model.ts';
import { feeSchedule } from '../../src/backtest/ledger.ts';
import { queueModel } from '../../src/backtest/queue-model.ts';
import { ReplayExchange } from '../../src/backtest/replay-exchange.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';
import { testInstrument } from '../record/fixtures.ts';

function venue(rateLimit: { burst: number; perSecond: number } | null) {
  const clock = new VirtualClock(0);
  const actions = new ActionQueue();
  const ex = new ReplayExchange({
    instruments: [testInstrument('TEST-PERP', '0.01', 1)], minTick: [900], maxTick: [1100], clock, actions,
    latency: new LatencyModel({ entry: 1, response: 2 }, 1), queue: queueModel({ kind: 'risk-averse' }), fees: feeSchedule('0', '0.0002'),
    seed: 7, rateLimit, onOrderEvent: () => undefined, onSettled: () => undefined,
  });
  ex.applyBook(0, true, new Float64Array([990, 10, 1010, 10]), 0, 1, 1);
  const runUntil = (t: number): void => {
    while (actions.peekTime() <= t) {
      const at = actions.peekTime();
      clock.advanceTo(Math.max(clock.nowMs(), at));
      ex.now = Math.max(ex.now, at);
      actions.runNext();
    }
    clock.advanceTo(Math.max(clock.nowMs(), t));
  };
  let cid = 1;
  const place = (priceTicks: number) => {
    const intent: PlaceOrder = { kind: 'place', symbol: asSymbol('TEST-PERP'), side: 'buy', priceTicks, qty: 1, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(cid++), tag: null };
    return ex.place(intent).then((r) => r.orderId as string, (e: unknown) => (e instanceof MmError ? e.code : 'other'));
  };
  return { ex, clock, runUntil, place };
}

describe('venue order-entry rate limit', () => {
  it('answers 429 (RATE_LIMITED, nothing done) once the burst is spent, refills on exchange time; queries are free', async () => {
    const v = venue({ burst: 3, perSecond: 2 });
    const answers = [v.place(980), v.place(981), v.place(982), v.place(983)];
    void v.ex.openOrders(); // a query: no token
    v.runUntil(10);
    expect((await Promise.all(answers)).map((a) => (a.startsWith('O-') ? 'ok' : a))).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED']);
    expect(v.ex.open[0]!.length).toBe(3);
    expect(v.ex.rateLimited).toBe(1);
    v.runUntil(400); // 0.4 s × 2/s = 0.8 token: still empty
    const early = v.place(984);
    v.runUntil(450);
    expect(await early).toBe('RATE_LIMITED');
    v.runUntil(1_000);
    const later = v.place(985);
    v.runUntil(1_100);
    expect(await later).toMatch(/^O-/);
    const unlimited = venue(null);
    const many = Array.from({ length: 200 }, (_, k) => unlimited.place(900 + k));
    unlimited.runUntil(10);
    expect((await Promise.all(many)).every((a) => a.startsWith('O-'))).toBe(true);
  });

  it('status and open-orders answer one round trip later, with the state at arrival', async () => {
    const v = venue(null);
    const id = v.place(980);
    const open = v.ex.openOrders(); // sent at 0 with the place: arrives after it (FIFO), answered at 1 + 2
    let at = -1;
    void open.then(() => (at = v.clock.nowMs()));
    v.runUntil(2.5);
    expect(at).toBe(-1);
    v.runUntil(3);
    await open;
    expect(at).toBe(3);
    expect((await open).map((o) => o.orderId)).toEqual([await id]);
  });
});

describe('the engine against the emulated limit', () => {
  it('gets 429s when its own budget is looser than the venue\'s and backs off as live', async () => {
    const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
    const START = 1_700_000_000_000;
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: START, source: 'synthetic' }), [inst],
      syntheticMarket({ instrument: inst, seed: 5, events: 6_000, startMs: START, midTicks: 11380, levels: 10, meanGapMs: 5, tickerEveryMs: 1000 }));
    const run = async (rateLimit: { burst: number; perSecond: number } | null) => {
      const def = await loadStrategy('fixed-spread');
      const strategy = def.create(parseStrategyParams(def, { levels: 3, halfSpreadTicks: 1, size: 10, maxPosition: 1000 }));
      return runBacktest({
        data: col, strategies: [{ id: 'fs', symbol: inst.symbol, strategy }], risk: DEFAULT_RISK_CONFIG,
        execution: { ...DEFAULT_EXECUTION_CONFIG, budgets: [{ name: 'loose', capacity: 500, refillPerSec: 500, costs: { place: 1, replace: 1, cancel: 1, 'cancel-all': 1 } }] },
        orderManager: { ...DEFAULT_ORDER_MANAGER_CONFIG, minOrderLifetimeMs: 0 }, settings: defaultSettings({ rateLimit, orderLatency: { entry: 1, response: 1 } }), createEngine,
      });
    };
    const limited = await run({ burst: 5, perSecond: 2 });
    const free = await run(null);
    expect(limited.exchange.rateLimited).toBeGreaterThan(0);
    expect(limited.engine.counters.backoffs).toBeGreaterThan(0);
    expect(free.exchange.rateLimited).toBe(0);
    expect(free.engine.counters.backoffs).toBe(0);
    const sent = (r: typeof free) => Object.values(r.engine.counters.intentsSent).reduce((a, b) => a + b, 0);
    expect(sent(limited)).toBeLessThan(sent(free));
  });
});
