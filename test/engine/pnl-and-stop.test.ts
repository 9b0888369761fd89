import { describe, expect, it } from 'vitest';
import { Decimal, MmError } from '../../src/core/index.ts';
import type { Fill } from '../../src/domain/index.ts';
import type { AccountReader } from '../../src/engine/index.ts';
import { DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { ScriptedStrategy, XAU, bookEv, harness, quotes } from './harness.ts';

describe('fills, fees and funding', () => {
  it('estimates a fill fee from the liquidity flag, then settles it from REST fills', async () => {
    const s = new ScriptedStrategy();
    const rest: (Fill & { fee: Decimal })[] = [];
    const accounts: AccountReader = { fills: () => Promise.resolve(rest), positions: () => Promise.resolve(new Map()) };
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

  it('settles fees when the venue clock runs ahead of ours (skew, or a local venue at clock_speed > 1)', async () => {
    const s = new ScriptedStrategy();
    const rest: (Fill & { fee: Decimal })[] = [];
    const ranges: [number, number][] = [];
    const accounts: AccountReader = {
      fills: (from, to) => {
        ranges.push([from, to]);
        return Promise.resolve(rest.filter((f) => f.tsEvent >= from && f.tsEvent < to));
      },
      positions: () => Promise.resolve(new Map()),
    };
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }], { fees: { maker: 0.0002, taker: 0.0025 } }, { accounts });
    const ahead = h.clock.nowMs() + 3_600_000;
    // The venue stamps its events an hour ahead of our clock.
    (h.gw as unknown as { clock: { nowMs(): number } }).clock = { nowMs: () => h.clock.nowMs() + 3_600_000 };
    s.next = quotes(XAU, 20000, 20010, 5);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 5);
    await h.settle();
    const [fill] = h.of('fill');
    rest.push({ tradeId: fill!.tradeId, orderId: bid.orderId, accountId: bid.accountId, symbol: XAU, side: 'buy', priceTicks: 20000, qty: 5, aggressor: false, tsEvent: ahead, fee: new Decimal('0') });
    await h.advance(6_000, 250);
    expect(ranges.length).toBeGreaterThan(0);
    expect(h.of('fee-settled')).toHaveLength(1);
    expect(h.engine.snapshot().pnl.fees.toNumber()).toBe(0);
  });

  it('books funding on the position held (deduped)', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }]);
    s.next = quotes(XAU, 20000, null, 2);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open()[0]!.orderId }, 2);
    await h.settle();
    const at = h.clock.nowMs();
    const settlement = { symbol: XAU, rate: new Decimal('0.0001'), amount: new Decimal('0.2'), benchmarkPrice: new Decimal(2000), settlementPrice: new Decimal(2000), tsEvent: at };
    h.market$.next({ type: 'funding', settlement, tsEvent: at, tsRecv: at });
    h.market$.next({ type: 'funding', settlement, tsEvent: at, tsRecv: at + 1 });
    await h.settle();
    const ev = h.of('funding');
    expect(ev).toHaveLength(1);
    expect(ev[0]!.amount.toNumber()).toBeCloseTo(-0.4, 12); // long 2 pays 0.2 each
    expect(h.engine.snapshot().symbols[0]!.pnl.funding.toNumber()).toBeCloseTo(-0.4, 12);
  });

  it('books a settlement seen late on the position held at the settlement instant, not on receipt', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }]);
    s.next = quotes(XAU, 20000, 20010, 2);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open().find((o) => o.side === 'buy')!.orderId }, 2); // long 2
    await h.settle();
    await h.advance(1_000, 100);
    const settledAt = h.clock.nowMs();
    await h.advance(1_000, 100);
    h.gw.fill({ orderId: h.gw.open().find((o) => o.side === 'sell')!.orderId }, 2); // flat after the settlement
    await h.settle();
    expect(h.engine.snapshot().symbols[0]!.position.qty).toBe(0);
    const settlement = { symbol: XAU, rate: new Decimal('0.0001'), amount: new Decimal('0.2'), benchmarkPrice: new Decimal(2000), settlementPrice: new Decimal(2000), tsEvent: settledAt };
    h.market$.next({ type: 'funding', settlement, tsEvent: settledAt, tsRecv: h.clock.nowMs() });
    await h.settle();
    const [ev] = h.of('funding');
    expect(ev!.position).toBe(2);
    expect(ev!.amount.toNumber()).toBeCloseTo(-0.4, 12);
    // The kill switch and the status line read the same total.
    expect(h.engine.snapshot().pnl.funding.toNumber()).toBeCloseTo(-0.4, 12);
  });

  it('books the venue\'s funding transactions (exact cash, deduped by event id) into PnL', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }], { risk: { ...DEFAULT_RISK_CONFIG, killSwitch: { ...DEFAULT_RISK_CONFIG.killSwitch, maxDrawdownUsd: 5 } } });
    s.next = quotes(XAU, 20000, null, 2);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open()[0]!.orderId }, 2);
    await h.settle();
    const pay = { symbol: XAU, eventId: 'E-1', amount: new Decimal('-0.37'), tsEvent: h.clock.nowMs() };
    h.fundingPayments$.next(pay);
    h.fundingPayments$.next(pay);
    await h.settle();
    expect(h.of('funding')).toHaveLength(1);
    expect(h.of('funding')[0]).toMatchObject({ position: 2 });
    expect(h.engine.snapshot().pnl.funding.toNumber()).toBeCloseTo(-0.37, 12);
    // A large funding debit counts towards the kill switch's drawdown like any other loss.
    h.fundingPayments$.next({ symbol: XAU, eventId: 'E-2', amount: new Decimal('-10'), tsEvent: h.clock.nowMs() });
    await h.advance(1_000, 100);
    expect(h.engine.snapshot().killSwitch.tripped).toBe(true);
    expect(h.engine.snapshot().killSwitch.reason).toBe('drawdown');
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

describe('stop and the final PnL', () => {
  it('settles fees still estimated from the venue before stop resolves, so the final report is the venue\'s', async () => {
    const s = new ScriptedStrategy();
    const rest: (Fill & { fee: Decimal })[] = [];
    const accounts: AccountReader = { fills: () => Promise.resolve(rest), positions: () => Promise.resolve(new Map()) };
    // Estimated maker rate 0.0002, the venue charges makers nothing (the demo's venue schedule).
    const h = await harness([{ id: 's', symbol: XAU, strategy: s }], { fees: { maker: 0.0002, taker: 0.0025 } }, { accounts });
    s.next = quotes(XAU, 20000, 20010, 5);
    h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
    await h.settle();
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 5);
    await h.settle();
    const [fill] = h.of('fill');
    expect(h.engine.snapshot().pnl.fees.toNumber()).toBeCloseTo(-2, 12);
    rest.push({ tradeId: fill!.tradeId, orderId: bid.orderId, accountId: bid.accountId, symbol: XAU, side: 'buy', priceTicks: 20000, qty: 5, aggressor: false, tsEvent: h.clock.nowMs(), fee: new Decimal('0') });
    const stopped = h.engine.stop({ timeoutMs: 2_000 });
    await h.advance(3_000, 50);
    await stopped;
    expect(h.engine.snapshot().pnl.fees.toNumber()).toBe(0);
    expect(h.of('fee-settled')).toHaveLength(1);
  });
});
