import { describe, expect, it } from 'vitest';
import { Decimal, MmError } from '../../src/core/index.ts';
import type { Fill } from '../../src/domain/index.ts';
import type { AccountReader } from '../../src/engine/index.ts';
import { ScriptedStrategy, XAU, bookEv, harness, quotes } from './harness.ts';

describe('fills, fees and funding', () => {
  it('estimates a fill fee from the liquidity flag, then settles it from REST fills', async () => {
    const s = new ScriptedStrategy();
    const rest: (Fill & { fee: Decimal })[] = [];
    const accounts: AccountReader = { fills: () => Promise.resolve(rest), positions: () => Promise.resolve(new Map([[XAU, 0]])) };
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }], { fees: { maker: 0.0002, taker: 0.0025 } }, { accounts });
    s.next = quotes(XAU, 20000, 20010, 5);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 5);
    await h.settle();
    const [fill] = h.of('fill');
    // 5 × 2000.0 × 0.0002 = 2.0 USD maker fee, estimated.
    expect(fill).toMatchObject({ liquidity: 'maker', feeSource: 'estimated', position: 5 });
    expect(fill!.fee.toNumber()).toBeCloseTo(2, 12);
    let snap = h.engine.snapshot().symbols[0]!;
    expect(snap.pnl.fees.toNumber()).toBeCloseTo(-2, 12);
    // Spread capture: bought 0.5 under the mid (2000.5) on 5 contracts.
    expect(snap.pnl.spreadCapture.toNumber()).toBeCloseTo(2.5, 12);
    rest.push({ tradeId: fill!.tradeId, orderId: bid.orderId, accountId: bid.accountId, symbol: XAU, side: 'buy', priceTicks: 20000, qty: 5, aggressor: false, tsEvent: h.clock.nowMs(), fee: new Decimal('1.5') });
    await h.advance(6_000, 250);
    expect(h.of('fee-settled')).toHaveLength(1);
    snap = h.engine.snapshot().symbols[0]!;
    expect(snap.pnl.fees.toNumber()).toBeCloseTo(-1.5, 12);
    expect(h.of('fill')).toHaveLength(1);
  });

  it('books funding on the position held (deduped)', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }]);
    s.next = quotes(XAU, 20000, null, 2);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open()[0]!.orderId }, 2);
    await h.settle();
    const settlement = { symbol: XAU, rate: new Decimal('0.0001'), amount: new Decimal('0.2'), benchmarkPrice: new Decimal(2000), settlementPrice: new Decimal(2000), tsEvent: 123 };
    h.market$.next({ type: 'funding', settlement, tsEvent: 123, tsRecv: 123 });
    h.market$.next({ type: 'funding', settlement, tsEvent: 123, tsRecv: 124 });
    await h.settle();
    const ev = h.of('funding');
    expect(ev).toHaveLength(1);
    expect(ev[0]!.amount.toNumber()).toBeCloseTo(-0.4, 12); // long 2 pays 0.2 each
    expect(h.engine.snapshot().symbols[0]!.pnl.funding.toNumber()).toBeCloseTo(-0.4, 12);
  });
});

describe('stop', () => {
  it('cancels everything, confirms with the venue and completes events$', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }]);
    s.next = { symbol: XAU, bids: [{ priceTicks: 20000, qty: 1 }, { priceTicks: 19999, qty: 1 }], asks: [{ priceTicks: 20010, qty: 1 }] };
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open()).toHaveLength(3);
    let completed = false;
    h.engine.events$.subscribe({ complete: () => (completed = true) });
    const p = h.engine.stop({ timeoutMs: 3_000 });
    await h.advance(1_000, 50);
    const rep = await p;
    expect(rep).toMatchObject({ confirmed: true, cancelRequested: 3, remaining: [] });
    expect(h.gw.calls('cancelAll')).toHaveLength(1);
    expect(h.gw.open()).toEqual([]);
    expect(completed).toBe(true);
    expect(h.engine.snapshot().running).toBe(false);
  });

  it('reports what is left when the venue will not confirm in time', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }]);
    s.next = quotes(XAU, 20000, null);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    h.gw.autoAck = false;
    // Every cancel fails as if the venue were unreachable.
    h.gw.failNext('cancel', new MmError('DISCONNECTED', 'down'), 1000);
    h.gw.failNext('cancelAll', new MmError('DISCONNECTED', 'down'), 1000);
    const p = h.engine.stop({ timeoutMs: 1_000 });
    await h.advance(1_500, 50);
    const rep = await p;
    expect(rep.confirmed).toBe(false);
    expect(rep.remaining).toHaveLength(1);
  });
});

describe('after stop', () => {
  it('leaves no timers behind on the clock, even with orders it could not confirm', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }]);
    s.next = quotes(XAU, 20000, null);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    h.gw.failNext('cancel', new MmError('TIMEOUT', 'no reply'), 1_000);
    h.gw.failNext('status', new MmError('TIMEOUT', 'no reply'), 1_000);
    const p = h.engine.stop({ timeoutMs: 1_000 });
    await h.advance(1_500, 50);
    expect((await p).confirmed).toBe(false);
    await h.advance(5_000, 500);
    expect(h.clock.pendingTimers()).toBe(0);
  });
});
