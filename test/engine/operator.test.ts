import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_CONFIG, FLATTEN_REASON, FLATTEN_RETRY_MS, PAUSED_REASON } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, XAU, bookEv, harness, quotes, twoStrategies } from './harness.ts';

describe('operator controls', () => {
  it('pause pulls only that strategy\'s quotes; resume brings them back', async () => {
    const { h } = await twoStrategies();
    expect(h.gw.open()).toHaveLength(4);
    h.engine.pauseStrategy('a');
    await h.advance(100);
    expect(h.gw.open().map((o) => o.symbol)).toEqual([XAU, XAU]);
    expect(h.engine.operatorStates().find((s) => s.id === 'a')).toMatchObject({ operatorState: 'HALTED', operatorReason: PAUSED_REASON });
    expect(h.engine.snapshot().symbols.find((s) => s.symbol === EURUSD)!.tradingState).toBe('HALTED');
    // Still paused after more market data.
    h.market$.next(bookEv(EURUSD, 11005, 11007, h.clock.nowMs()));
    await h.advance(100);
    expect(h.gw.open().filter((o) => o.symbol === EURUSD)).toHaveLength(0);
    h.engine.resumeStrategy('a');
    await h.advance(100);
    expect(h.gw.open().filter((o) => o.symbol === EURUSD).map((o) => o.priceTicks).sort()).toEqual([11000, 11010]);
    expect(() => h.engine.pauseStrategy('nope')).toThrow(/no strategy "nope" \(known: a, b\)/);
  });

  it('replaceStrategy swaps the instance: the new one quotes at once, the old one is not called again', async () => {
    const { a, h } = await twoStrategies();
    const fresh = new ScriptedStrategy();
    fresh.next = quotes(EURUSD, 10990, 11020);
    const before = a.calls;
    h.engine.replaceStrategy('a', fresh);
    await h.advance(100);
    h.market$.next(bookEv(EURUSD, 11005, 11007, h.clock.nowMs()));
    await h.advance(100);
    expect(a.calls).toBe(before);
    expect(fresh.calls).toBeGreaterThan(0);
    expect(h.gw.open().filter((o) => o.symbol === EURUSD).map((o) => o.priceTicks).sort()).toEqual([10990, 11020]);
  });

  it('replaceStrategy clears an isolation (the fixed strategy quotes again)', async () => {
    const { a, h } = await twoStrategies();
    a.throwWith = new Error('boom');
    h.market$.next(bookEv(EURUSD, 11005, 11007, h.clock.nowMs()));
    await h.advance(100);
    expect(h.gw.open().filter((o) => o.symbol === EURUSD)).toHaveLength(0);
    const fixed = new ScriptedStrategy();
    fixed.next = quotes(EURUSD, 11001, 11009);
    h.engine.replaceStrategy('a', fixed);
    await h.advance(100);
    expect(h.engine.snapshot().symbols.find((s) => s.symbol === EURUSD)!.strategyError).toBeNull();
    expect(h.gw.open().filter((o) => o.symbol === EURUSD)).toHaveLength(2);
  });

  it('replaceRisk applies new limits live: a smaller max_order_qty trims the ladder at once', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 'a', symbol: EURUSD, strategy: a }]);
    a.next = quotes(EURUSD, 11000, 11010, 5);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.advance(100);
    expect(h.gw.open().map((o) => o.qty)).toEqual([5, 5]);
    h.engine.replaceRisk({ ...DEFAULT_RISK_CONFIG, defaults: { ...DEFAULT_RISK_CONFIG.defaults, maxOrderQty: 3 } });
    await h.advance(100);
    expect(h.gw.open().every((o) => o.qty <= 3)).toBe(true);
  });

  it('flatten halts the symbol and sends one reduce-only IOC at the opposite touch; flat is a no-op', async () => {
    const { h } = await twoStrategies();
    const bid = h.gw.open().find((o) => o.symbol === EURUSD && o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 1);
    await h.advance(100);
    expect(h.engine.snapshot().symbols.find((s) => s.symbol === EURUSD)!.position.qty).toBe(1);
    const r = h.engine.flatten(EURUSD);
    expect(r).toEqual({ sent: true, side: 'sell', qty: 1, priceTicks: 11004, positionQty: 1 });
    await h.advance(100);
    const placed = h.gw.placed.filter((p) => p.symbol === EURUSD).at(-1)!;
    expect(placed).toMatchObject({ side: 'sell', priceTicks: 11004, qty: 1, tif: 'IOC', postOnly: false });
    expect(h.engine.operatorStates().find((s) => s.id === 'a')!.operatorReason).toBe(FLATTEN_REASON);
    // The strategy's own quotes were pulled: only the flatten order is out (the fake venue does not expire IOCs).
    expect(h.gw.open().filter((o) => o.symbol === EURUSD).map((o) => o.clientOrderId)).toEqual([placed.clientOrderId]);
    // A second flatten while that order is out sends nothing more.
    expect(h.engine.flatten(EURUSD)).toEqual({ sent: false, reason: 'already-reducing', positionQty: 1 });
    expect(h.engine.flatten(XAU)).toEqual({ sent: false, reason: 'flat', positionQty: 0 });
    expect(() => h.engine.flatten('BTC-PERP' as typeof EURUSD)).toThrow(/not quoted/);
  });

  it('flatten follows through: after a partly filled IOC expires, the next goes out at the new touch until flat; resume stops it', async () => {
    const { a, b, h } = await twoStrategies();
    a.next = quotes(EURUSD, 11000, 11010, 5);
    b.next = quotes(XAU, 20000, 20010, 5);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.advance(100);
    const bid = h.gw.open().find((o) => o.symbol === EURUSD && o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 5);
    await h.advance(100);
    expect(h.engine.flatten(EURUSD)).toMatchObject({ sent: true, side: 'sell', qty: 5, priceTicks: 11004 });
    await h.advance(100);
    const first = h.gw.placed.filter((p) => p.symbol === EURUSD).at(-1)!;
    h.gw.fill({ clientOrderId: first.clientOrderId }, 2);
    h.gw.expire({ clientOrderId: first.clientOrderId });
    h.market$.next(bookEv(EURUSD, 11002, 11006, h.clock.nowMs()));
    await h.advance(FLATTEN_RETRY_MS + 100, 50);
    const second = h.gw.placed.filter((p) => p.symbol === EURUSD).at(-1)!;
    expect(second.clientOrderId).not.toBe(first.clientOrderId);
    expect(second).toMatchObject({ side: 'sell', priceTicks: 11002, qty: 3, tif: 'IOC' });
    h.gw.fill({ clientOrderId: second.clientOrderId }, 3);
    await h.advance(FLATTEN_RETRY_MS + 100, 50);
    h.market$.next(bookEv(EURUSD, 11001, 11006, h.clock.nowMs()));
    await h.advance(FLATTEN_RETRY_MS + 100, 50);
    // Flat: nothing more is sent, and the strategy stays halted.
    expect(h.engine.snapshot().symbols.find((s) => s.symbol === EURUSD)!.position.qty).toBe(0);
    expect(h.gw.placed.filter((p) => p.symbol === EURUSD).at(-1)!.clientOrderId).toBe(second.clientOrderId);
    expect(h.engine.operatorStates().find((s) => s.id === 'a')!.operatorReason).toBe(FLATTEN_REASON);

    // A flatten the operator resumes out of stops sending, even though the position is not flat.
    const bid2 = h.gw.open().find((o) => o.symbol === XAU && o.side === 'buy')!;
    h.gw.fill({ orderId: bid2.orderId }, 4);
    await h.advance(100);
    expect(h.engine.flatten(XAU)).toMatchObject({ sent: true, qty: 4 });
    await h.advance(100);
    const xauIoc = h.gw.placed.filter((p) => p.symbol === XAU).at(-1)!;
    h.engine.resumeStrategy('b');
    h.gw.expire({ clientOrderId: xauIoc.clientOrderId });
    h.market$.next(bookEv(XAU, 20003, 20006, h.clock.nowMs()));
    await h.advance(FLATTEN_RETRY_MS + 100, 50);
    expect(h.gw.placed.filter((p) => p.symbol === XAU && p.tif === 'IOC')).toHaveLength(1);
  });

  it('cancelAll pulls every order and keeps every strategy paused until resumed', async () => {
    const { h } = await twoStrategies();
    h.engine.cancelAll();
    await h.advance(500, 50);
    expect(h.gw.open()).toHaveLength(0);
    expect(h.engine.operatorStates().every((s) => s.operatorState === 'HALTED')).toBe(true);
    h.engine.resumeStrategy('b');
    await h.advance(100);
    expect(h.gw.open().map((o) => o.symbol)).toEqual([XAU, XAU]);
  });
});
