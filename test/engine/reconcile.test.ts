import { describe, expect, it } from 'vitest';
import { asClientOrderId, Decimal, MmError } from '../../src/core/index.ts';
import type { Fill } from '../../src/domain/index.ts';
import { DEFAULT_ORDER_MANAGER_CONFIG, type AccountReader } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, XAU, bookEv, harness, quotes } from './harness.ts';

describe('reconciliation', () => {
  it('cancels unknown orders found on the account at start-up (policy cancel)', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, {
      beforeStart: (gw) => {
        gw.addForeign(EURUSD, 'buy', 10990, 4, asClientOrderId(7));
        gw.addForeign(XAU, 'sell', 20000, 1, null);
      },
    });
    await h.advance(200);
    const [rec] = h.of('reconciled');
    expect(rec).toMatchObject({ trigger: 'start', adopted: 0, cancelled: 2, missing: 0 });
    expect(h.gw.open()).toEqual([]);
    expect(h.engine.snapshot().symbols[0]!.working).toEqual([]);
  });

  it('adopts unknown orders on quoted symbols (policy adopt) and keeps the ones the ladder wants', async () => {
    const s = new ScriptedStrategy();
    const h = await harness(
      [{ id: 's', symbol: EURUSD, strategy: s }],
      { orderManager: { ...DEFAULT_ORDER_MANAGER_CONFIG, minOrderLifetimeMs: 0, unknownOrders: 'adopt' } },
      { beforeStart: (gw) => void gw.addForeign(EURUSD, 'buy', 11000, 2, asClientOrderId(99)) },
    );
    expect(h.of('reconciled')[0]).toMatchObject({ adopted: 1, cancelled: 0 });
    const w = h.engine.snapshot().symbols[0]!.working;
    expect(w.map((x) => [x.clientOrderId, x.adopted, x.status])).toEqual([['99', true, 'open']]);
    s.next = quotes(EURUSD, 11000, 11010, 2);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    // The adopted bid matches the ladder: only the ask is placed.
    expect(h.gw.calls('place').map((r) => r.priceTicks)).toEqual([11010]);
    expect(h.gw.calls('cancel')).toHaveLength(0);
    // Moving the ladder replaces the adopted order like any other.
    s.next = quotes(EURUSD, 10999, 11010, 2);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.calls('replace').map((r) => r.priceTicks)).toEqual([10999]);
  });

  it('after a reconnect: resolves orders the venue dropped and recovers missed fills from REST', async () => {
    const s = new ScriptedStrategy();
    const restFills: (Fill & { fee: Decimal })[] = [];
    const accounts: AccountReader = {
      fills: (from, to) => Promise.resolve(restFills.filter((f) => f.tsEvent >= from && f.tsEvent < to)),
      positions: () => Promise.resolve(new Map()),
    };
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, { accounts });
    s.next = quotes(EURUSD, 11000, 11010, 1);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    const [bid, ask] = [...h.gw.open()].sort((a, b) => a.priceTicks - b.priceTicks);
    // The order stream drops. While we are away, the bid fills and the ask is cancelled by the venue.
    h.connection$.next({ stream: 'orders', connected: false, tsRecv: h.clock.nowMs() });
    h.gw.orders.set(bid!.orderId, { ...bid!, state: 'FILLED', filledQty: 1, remainingQty: 0 });
    h.gw.silentlyCancel(ask!.orderId);
    restFills.push({ tradeId: 'T-9', orderId: bid!.orderId, accountId: bid!.accountId, symbol: EURUSD, side: 'buy', priceTicks: 11000, qty: 1, aggressor: false, tsEvent: h.clock.nowMs(), fee: new Decimal('0.00022') });
    await h.advance(500);
    // Nothing is sent while disconnected.
    const placesBefore = h.gw.calls('place').length;
    expect(placesBefore).toBe(2);
    h.connection$.next({ stream: 'orders', connected: true, tsRecv: h.clock.nowMs() });
    h.resync$.next(await h.gw.openOrders());
    await h.advance(300);
    const rec = h.of('reconciled').find((r) => r.trigger === 'resync');
    expect(rec).toMatchObject({ missing: 2, recoveredFills: 1 });
    const fills = h.of('fill');
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ recovered: true, feeSource: 'venue', position: 1 });
    expect(h.engine.snapshot().symbols[0]!.position.qty).toBe(1);
    // Both orders resolved as terminal; the ladder is quoted again.
    expect(h.of('order-resolved').map((e) => e.state).sort()).toEqual(['CANCELED', 'FILLED']);
    expect(h.gw.open().map((o) => o.priceTicks).sort()).toEqual([11000, 11010]);
  });

  it('a resync that fails to reconcile (a malformed venue order) is logged and retried from open orders, never thrown', async () => {
    const s = new ScriptedStrategy();
    const logged: string[] = [];
    const log = { info: () => {}, warn: () => {}, debug: () => {}, error: (_o: unknown, msg: string) => void logged.push(msg), child: () => log } as never;
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { log });
    s.next = quotes(EURUSD, 11000, 11010, 1);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.connection$.next({ stream: 'orders', connected: false, tsRecv: h.clock.nowMs() });
    h.connection$.next({ stream: 'orders', connected: true, tsRecv: h.clock.nowMs() });
    // Before the fix this threw inside the resync$ subscriber: an uncaught error that stops the daemon.
    h.resync$.next([null as never]);
    await h.settle();
    expect(logged).toContain('resync reconciliation failed; querying open orders again');
    await h.advance(6_000, 250);
    expect(h.of('reconciled').filter((r) => r.trigger === 'resync')).toHaveLength(1);
    expect(h.gw.open().map((o) => o.priceTicks).sort()).toEqual([11000, 11010]);
  });

  it('reconciles by itself when a reconnect brings no resync', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    s.next = quotes(EURUSD, 11000, 11010, 1);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.connection$.next({ stream: 'orders', connected: false, tsRecv: h.clock.nowMs() });
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.silentlyCancel(bid.orderId);
    h.connection$.next({ stream: 'orders', connected: true, tsRecv: h.clock.nowMs() });
    await h.advance(4_000, 250);
    expect(h.of('reconciled').filter((r) => r.trigger === 'resync')).toHaveLength(0);
    expect(h.gw.open()).toHaveLength(1);
    await h.advance(3_000, 250);
    expect(h.of('reconciled').filter((r) => r.trigger === 'resync')).toEqual([expect.objectContaining({ missing: 1 })]);
    expect(h.gw.open().map((o) => o.priceTicks).sort()).toEqual([11000, 11010]);
  });

  it('does not hammer a dead order stream: pulls wait for the resync, then go out', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    s.next = quotes(EURUSD, 11000, 11010, 1);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.connection$.next({ stream: 'orders', connected: false, tsRecv: h.clock.nowMs() });
    h.gw.failNext('cancelAll', new MmError('DISCONNECTED', 'down'), 100);
    h.gw.failNext('cancel', new MmError('DISCONNECTED', 'down'), 100);
    h.gw.failNext('status', new MmError('DISCONNECTED', 'down'), 100);
    h.engine.tripKillSwitch('operator');
    const before = h.gw.requests.length;
    await h.advance(5_000, 250);
    expect(h.gw.requests.length - before).toBeLessThanOrEqual(1);
    h.gw.clearFailures();
    h.connection$.next({ stream: 'orders', connected: true, tsRecv: h.clock.nowMs() });
    h.resync$.next(await h.gw.openOrders());
    await h.advance(500, 50);
    expect(h.gw.open()).toEqual([]);
  });
});
