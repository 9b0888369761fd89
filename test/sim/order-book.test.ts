import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';
import { BookSide, parseVenueConfig, ScaledClock, Venue } from '../../src/sim/index.ts';
import type { SimOrder } from '../../src/sim/index.ts';

function order(oid: string, side: 'buy' | 'sell', priceTicks: number, qty: number): SimOrder {
  return { oid, priceTicks, remainingQty: qty, side, prev: null, next: null, restingLevel: null } as unknown as SimOrder;
}

describe('BookSide', () => {
  it('keeps levels best first and each level FIFO, against a naive model', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 9 })), { maxLength: 200 }),
        (side, ops) => {
          const book = new BookSide(side);
          const model: SimOrder[] = [];
          let n = 0;
          for (const [add, price, qty] of ops) {
            if (add || model.length === 0) {
              const o = order(`o${n++}`, side, price, qty);
              book.add(o);
              model.push(o);
            } else {
              const victim = model.splice((price * 7) % model.length, 1)[0]!;
              book.remove(victim);
            }
          }
          const prices = [...new Set(model.map((o) => o.priceTicks))].sort((a, b) => (side === 'buy' ? b - a : a - b));
          const want = prices.map((p) => ({ priceTicks: p, qty: model.filter((o) => o.priceTicks === p).reduce((s, o) => s + o.remainingQty, 0) }));
          expect(book.levels()).toEqual(want);
          expect([...book.orders()].map((o) => o.oid)).toEqual(prices.flatMap((p) => model.filter((o) => o.priceTicks === p).map((o) => o.oid)));
          expect(book.bestPrice()).toBe(prices[0]);
        },
      ),
    );
  });
});

describe('venue in-process', () => {
  it('price-time priority: better price first, then arrival order, fills at the resting price', () => {
    const v = new Venue({ clock: new VirtualClock(Date.UTC(2026, 8, 24)) });
    const [m1, m2, t] = [v.createInternalAccount('m1'), v.createInternalAccount('m2'), v.createInternalAccount('t')].map((a) => ({ userId: a.userId, accountId: a.id }));
    const spec = (side: 'buy' | 'sell', qty: number, price: string, tif: 'GTC' | 'IOC' = 'GTC') => ({ symbol: 'EURUSD-PERP', side, qty, price, tif, postOnly: false });
    const a = v.placeNow(m1!, spec('sell', 100, '1.1405'));
    const b = v.placeNow(m2!, spec('sell', 100, '1.1403'));
    const c = v.placeNow(m1!, spec('sell', 100, '1.1403'));
    const trades: string[] = [];
    v.onTrade((tr) => trades.push(`${tr.makerOid === b.oid ? 'b' : tr.makerOid === c.oid ? 'c' : 'a'}@${tr.priceTicks}`));
    v.placeNow(t!, spec('buy', 250, '1.1410', 'IOC'));
    expect(trades).toEqual(['b@11403', 'c@11403', 'a@11405']);
    expect(a.remainingQty).toBe(50);
    expect(v.accounts.account(t!.accountId)!.positions.get('EURUSD-PERP')!.signedQty).toBe(250);
  });

  it('a long position closed at a loss realizes PnL excluding fees; a flip re-opens at the fill price', () => {
    const v = new Venue({ clock: new VirtualClock(Date.UTC(2026, 8, 24)) });
    const mk = v.createInternalAccount('mk');
    const maker = { userId: mk.userId, accountId: mk.id };
    const me = { userId: v.defaultUser.id, accountId: v.credentials.account_id };
    const px = (side: 'buy' | 'sell', qty: number, price: string) => ({ symbol: 'EURUSD-PERP', side, qty, price, tif: 'GTC' as const, postOnly: false });
    v.placeNow(maker, px('sell', 100, '1.1388'));
    v.placeNow(me, px('buy', 100, '1.1388'));
    v.placeNow(maker, px('buy', 300, '1.1384'));
    v.placeNow(me, px('sell', 300, '1.1384'));
    const pos = v.accounts.account(me.accountId)!.positions.get('EURUSD-PERP')!;
    expect(pos.signedQty).toBe(-200);
    expect(pos.realizedPnl.toFixed()).toBe('-0.04');
    expect(pos.costBasis.toFixed()).toBe('-227.68');
  });

  it('venue config: defaults, clear errors naming the path and value', () => {
    expect(parseVenueConfig({}).rate_limit).toEqual({ enabled: true, burst: 100, per_second: 10 });
    expect(() => parseVenueConfig({ ack_latency_ms: -5 }, 'v.yaml')).toThrow(/v\.yaml: ack_latency_ms: .*\(got -5\)/);
    expect(() => parseVenueConfig({ instruments: { states: { 'EURUSD-PERP': 'SLEEPING' } } }, 'v.yaml')).toThrow(MmError);
  });

  it('ScaledClock runs venue time faster and scales timers', () => {
    const base = new VirtualClock(1000);
    const c = new ScaledClock(base, 10);
    let fired = false;
    c.setTimer(1000, () => (fired = true));
    base.advanceBy(100);
    expect(c.nowMs()).toBe(2000);
    expect(fired).toBe(true);
  });
});

describe('history retention', () => {
  it('forgets the oldest terminal orders beyond the cap but keeps open ones', async () => {
    const { HISTORY_CAP } = await import('../../src/sim/orders/order-engine.ts');
    const v = new Venue({ clock: new VirtualClock(Date.UTC(2026, 8, 24)), config: parseVenueConfig({ max_open_orders_per_symbol: 10 }) });
    const me = { userId: v.defaultUser.id, accountId: v.credentials.account_id };
    const first = v.placeNow(me, { symbol: 'EURUSD-PERP', side: 'buy', qty: 100, price: '1.1000', tif: 'GTC', postOnly: false });
    for (let i = 0; i < HISTORY_CAP * 1.1 + 5; i++) v.placeNow(me, { symbol: 'EURUSD-PERP', side: 'buy', qty: 1, price: '1.1000', tif: 'GTC', postOnly: false });
    const acct = v.accounts.account(me.accountId)!;
    expect(acct.orderIds.length).toBeLessThanOrEqual(HISTORY_CAP + 10);
    expect(v.order(first.oid)?.state).toBe('ACCEPTED');
  });
});
