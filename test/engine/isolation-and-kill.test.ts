import { describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/index.ts';
import { DEFAULT_RISK_CONFIG, type RiskConfig } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, XAU, bookEv, harness, quotes, tickerEv, twoStrategies } from './harness.ts';

const risk = (ks: Partial<RiskConfig['killSwitch']>): RiskConfig => ({ ...DEFAULT_RISK_CONFIG, killSwitch: { ...DEFAULT_RISK_CONFIG.killSwitch, ...ks } });

describe('strategy isolation', () => {
  it('a strategy that throws has its quotes pulled while the others keep quoting', async () => {
    const { a, b, h } = await twoStrategies();
    expect(h.gw.open()).toHaveLength(4);
    b.throwWith = new Error('boom');
    h.market$.next(bookEv(XAU, 20005, 20007, h.clock.nowMs()));
    await h.settle();
    expect(h.of('strategy-error')).toEqual([expect.objectContaining({ strategyId: 'b', symbol: XAU, message: 'boom' })]);
    expect(h.gw.open().every((o) => o.symbol === EURUSD)).toBe(true);
    expect(h.gw.open()).toHaveLength(2);
    // The failed strategy is not called again; the healthy one still requotes.
    const bCalls = b.calls;
    a.next = quotes(EURUSD, 11001, 11011);
    h.market$.next(bookEv(EURUSD, 11005, 11007, h.clock.nowMs()));
    h.market$.next(bookEv(XAU, 20005, 20007, h.clock.nowMs()));
    await h.advance(1_000, 100);
    expect(b.calls).toBe(bCalls);
    expect(h.gw.open().map((o) => o.priceTicks).sort()).toEqual([11001, 11011]);
    const snap = h.engine.snapshot();
    expect(snap.symbols.find((x) => x.symbol === XAU)!.strategyError).toBe('boom');
    expect(snap.counters.strategyErrors).toBe(1);
  });
});

describe('kill switch', () => {
  it('trips on a reject storm, pulls every quote and says why', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }], { risk: risk({ rejectStormCount: 3, rejectStormWindowMs: 10_000 }) });
    a.next = quotes(EURUSD, 11000, 11010);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open()).toHaveLength(2);
    // The ladder moves; every new place is rejected by the venue.
    h.gw.failNext('place', new MmError('ORDER_REJECTED', 'insufficient margin', { reason: 'INSUFFICIENT_MARGIN' }), 10);
    a.next = { symbol: EURUSD, bids: [{ priceTicks: 11000, qty: 1 }, { priceTicks: 10999, qty: 1 }], asks: [{ priceTicks: 11010, qty: 1 }, { priceTicks: 11011, qty: 1 }] };
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.advance(1_000, 100);
    const trips = h.of('kill-switch-tripped');
    expect(trips).toHaveLength(1);
    expect(trips[0]!.reason).toBe('reject-storm');
    expect(h.gw.open()).toEqual([]);
    const snap = h.engine.snapshot();
    expect(snap.killSwitch).toMatchObject({ tripped: true, reason: 'reject-storm' });
    expect(snap.symbols[0]!.tradingState).toBe('HALTED');
    expect(snap.symbols[0]!.tradingReason).toBe('kill switch: reject-storm');
    // Latched: no quoting until reset.
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.advance(500, 100);
    expect(h.gw.open()).toEqual([]);
    h.gw.clearFailures();
    h.engine.resetKillSwitch();
    await h.advance(300, 100);
    expect(h.gw.open()).toHaveLength(4);
  });

  it('trips on stale market data and clears when data returns', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }], { risk: risk({ staleMarketDataMs: 2_000 }) });
    a.next = quotes(EURUSD, 11000, 11010);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open()).toHaveLength(2);
    await h.advance(2_500, 250);
    expect(h.of('kill-switch-tripped').map((e) => e.reason)).toEqual(['stale-market-data']);
    expect(h.gw.open()).toEqual([]);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.advance(500, 250);
    expect(h.of('kill-switch-cleared').map((e) => e.reason)).toEqual(['stale-market-data']);
    expect(h.gw.open()).toHaveLength(2);
  });

  it('trips on a lost connection', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }], { risk: risk({ lostConnectionMs: 1_000, staleMarketDataMs: 0 }) });
    a.next = quotes(EURUSD, 11000, 11010);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.connection$.next({ stream: 'market-data', connected: false, tsRecv: h.clock.nowMs() });
    await h.advance(1_500, 250);
    expect(h.of('kill-switch-tripped').map((e) => e.reason)).toEqual(['lost-connection']);
    expect(h.gw.open()).toEqual([]);
  });

  it('trips on drawdown after a losing fill marked down', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: XAU, strategy: a }], { risk: risk({ maxDrawdownUsd: 50, staleMarketDataMs: 0 }) });
    a.next = quotes(XAU, 20000, 20010, 10);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 10);
    await h.settle();
    // Mark falls 100 ticks × 0.1 = 10 USD per contract → −100 USD on 10 contracts.
    h.market$.next(tickerEv(XAU, h.clock.nowMs(), { markTicks: 19900 }));
    await h.advance(300, 100);
    expect(h.of('kill-switch-tripped').map((e) => e.reason)).toEqual(['drawdown']);
    expect(h.gw.open()).toEqual([]);
    expect(h.engine.snapshot().pnl.unrealized.toNumber()).toBeCloseTo(-100, 6);
  });

  it('a HALTED instrument state pulls quotes; OPEN again resumes', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }]);
    a.next = quotes(EURUSD, 11000, 11010);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.market$.next(tickerEv(EURUSD, h.clock.nowMs(), { state: 'CLOSED' }));
    await h.settle();
    expect(h.gw.open()).toEqual([]);
    expect(h.of('trading-state-changed').at(-1)).toMatchObject({ symbol: EURUSD, to: 'HALTED', reason: 'instrument CLOSED' });
    h.market$.next(tickerEv(EURUSD, h.clock.nowMs(), { state: 'OPEN' }));
    await h.settle();
    expect(h.gw.open()).toHaveLength(2);
  });
});

describe('broken inputs', () => {
  it('an erroring market stream trips the kill switch naming the input', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }]);
    a.next = quotes(EURUSD, 11000, 11010);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.market$.error(new Error('decoder exploded'));
    await h.settle();
    expect(h.of('kill-switch-tripped')).toEqual([expect.objectContaining({ reason: 'manual', detail: 'input market$ failed: decoder exploded' })]);
    expect(h.gw.open()).toEqual([]);
  });
});
