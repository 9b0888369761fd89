import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { auctionPrice } from '../../src/sim/orders/auction.ts';
import { limit, setup, type Harness, type OrderWs } from './helpers.ts';

const lv = (priceTicks: number, qty: number) => ({ priceTicks, qty });

describe('auctionPrice (single-price uncross)', () => {
  it('is null when the book does not cross or a side is empty', () => {
    expect(auctionPrice([lv(99, 5)], [lv(100, 5)], 100)).toBeNull();
    expect(auctionPrice([], [lv(100, 5)], 100)).toBeNull();
    expect(auctionPrice([lv(100, 5)], [], 100)).toBeNull();
  });

  it('maximises executed volume', () => {
    // Demand: 10 at ≥ 103, 30 at ≥ 101. Supply: 20 at ≤ 100, 35 at ≤ 102.
    const r = auctionPrice([lv(103, 10), lv(101, 20)], [lv(100, 20), lv(102, 15)], 0);
    // 100: min(30,20)=20; 101: min(30,20)=20; 102: min(10,35)=10; 103: min(10,35)=10.
    expect(r).toMatchObject({ volume: 20 });
    // Both 100 and 101 execute 20 with imbalance 10: the reference (0) is nearer 100.
    expect(r?.priceTicks).toBe(100);
  });

  it('breaks volume ties by the smaller imbalance', () => {
    // Every tick executes 10: 99 and 100 (D15 S10) leave 5, 101 (D10 S10) none, 102 (D10 S20) 10.
    // The smaller imbalance wins over the reference (102).
    const r = auctionPrice([lv(102, 10), lv(100, 5)], [lv(99, 10), lv(102, 10)], 102);
    expect(r).toEqual({ priceTicks: 101, volume: 10, imbalance: 0 });
  });

  it('then takes the price nearest the reference, including the reference itself when it lies between', () => {
    // One bid 10 @ 110, one ask 10 @ 100: every price in [100, 110] executes 10 with no imbalance.
    expect(auctionPrice([lv(110, 10)], [lv(100, 10)], 104)?.priceTicks).toBe(104);
    expect(auctionPrice([lv(110, 10)], [lv(100, 10)], 130)?.priceTicks).toBe(110);
    expect(auctionPrice([lv(110, 10)], [lv(100, 10)], 50)?.priceTicks).toBe(100);
  });

  it('considers ticks between order prices, where the imbalance can be smaller', () => {
    // 100: D20 S10 (imbalance 10); 101..103: D10 S10 (0); 104: D10 S20 (10). The reference is far
    // above, so the nearest balanced tick wins.
    expect(auctionPrice([lv(104, 10), lv(100, 10)], [lv(100, 10), lv(104, 10)], 500)).toEqual({ priceTicks: 103, volume: 10, imbalance: 0 });
    expect(auctionPrice([lv(104, 10), lv(100, 10)], [lv(100, 10), lv(104, 10)], -5)).toEqual({ priceTicks: 101, volume: 10, imbalance: 0 });
  });

  it('agrees with a brute force over every tick of the crossed range', () => {
    const side = fc.array(fc.tuple(fc.integer({ min: 90, max: 110 }), fc.integer({ min: 1, max: 20 })), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(side, side, fc.integer({ min: 80, max: 120 }), (rawBids, rawAsks, ref) => {
        const merge = (xs: [number, number][], dir: 1 | -1) => {
          const m = new Map<number, number>();
          for (const [p, q] of xs) m.set(p, (m.get(p) ?? 0) + q);
          return [...m].map(([p, q]) => lv(p, q)).sort((x, y) => dir * (y.priceTicks - x.priceTicks));
        };
        const bids = merge(rawBids, 1);
        const asks = merge(rawAsks, -1);
        const got = auctionPrice(bids, asks, ref);
        if (bids[0]!.priceTicks < asks[0]!.priceTicks) {
          expect(got).toBeNull();
          return;
        }
        // Lexicographic: more volume, less imbalance, nearer the reference, lower price.
        const key = (x: { priceTicks: number; volume: number; imbalance: number }) => [-x.volume, x.imbalance, Math.abs(x.priceTicks - ref), x.priceTicks];
        const less = (x: number[], y: number[]) => {
          const i = x.findIndex((v, k) => v !== y[k]);
          return i >= 0 && x[i]! < y[i]!;
        };
        let want: { priceTicks: number; volume: number; imbalance: number } | null = null;
        for (let p = asks[0]!.priceTicks; p <= bids[0]!.priceTicks; p++) {
          const d = bids.filter((l) => l.priceTicks >= p).reduce((t, l) => t + l.qty, 0);
          const sup = asks.filter((l) => l.priceTicks <= p).reduce((t, l) => t + l.qty, 0);
          const c = { priceTicks: p, volume: Math.min(d, sup), imbalance: Math.abs(d - sup) };
          if (!want || less(key(c), key(want))) want = c;
        }
        expect(got).toEqual(want);
      }),
    );
  });

  it('prefers the reference between two order prices when it leaves no imbalance', () => {
    // 100: D10 S5 (imbalance 5); 102 (reference): D5 S5 (0); 104: D5 S10 (5). All execute 5.
    expect(auctionPrice([lv(104, 5), lv(100, 5)], [lv(100, 5), lv(104, 5)], 102)).toEqual({ priceTicks: 102, volume: 5, imbalance: 0 });
  });
});

describe('PRE_OPEN → OPEN single-price auction over the order WebSocket', () => {
  let h: Harness;
  let a: OrderWs;
  let b: OrderWs;
  let c: OrderWs;

  beforeAll(async () => {
    h = await setup({ config: { rate_limit: { enabled: false } } });
    a = await h.ws();
    b = await h.ws(`?account_id=${h.account2}`);
    const carol = h.venue.createUser('carol', [{ name: 'carol-main' }]);
    c = await h.ws('', { token: await h.login(carol.key.apiKey, carol.key.apiSecret) });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    for (const x of [a, b, c]) await x.request({ t: 'X' });
    h.venue.setInstrumentState('EURUSD-PERP', 'OPEN');
    h.venue.setSettlement('EURUSD-PERP', new Decimal('1.1400'));
  });

  async function place(ws: OrderWs, msg: Record<string, unknown>): Promise<string> {
    const r = await ws.request(msg);
    expect(r.err).toBeUndefined();
    await ws.event(r.res.oid as string, 'n');
    return r.res.oid as string;
  }

  it('fills every crossing order at one price, in price-time priority, and expires IOC remainders', async () => {
    h.venue.setInstrumentState('EURUSD-PERP', 'PRE_OPEN');
    const a1 = await place(a, limit('S', 100, '1.1395'));
    const b1 = await place(b, limit('S', 100, '1.1400'));
    const a2 = await place(a, limit('S', 200, '1.1400'));
    const c1 = await place(c, limit('B', 300, '1.1410'));
    const c2 = await place(c, { ...limit('B', 100, '1.1398'), tif: 'IOC' });
    // Nothing trades before the open.
    expect([...a.frames, ...b.frames, ...c.frames].some((f) => f.t === 'p' || f.t === 'f')).toBe(false);

    // Executable volume: 300 at 1.1400 and at 1.1410 (imbalance 100 at both); the settlement
    // 1.1400 breaks the tie. At 1.1395/1.1398 only 100 would trade.
    h.venue.setInstrumentState('EURUSD-PERP', 'OPEN');
    const cf = await c.event(c1, 'f');
    const fills = c.eventsFor(c1).filter((f) => f.t === 'p' || f.t === 'f');
    expect(fills.map((f) => [f.xs.q, f.xs.p, f.xs.agg])).toEqual([
      [100, '1.1400', true],
      [100, '1.1400', true],
      [100, '1.1400', true],
    ]);
    expect(cf.o).toMatchObject({ o: 'FILLED', xq: 300, rq: 0 });
    // Price priority (a1 at 1.1395 first), then time at 1.1400: b1 before a2, which keeps 100.
    expect((await a.event(a1, 'f')).xs).toMatchObject({ q: 100, p: '1.1400', agg: false });
    expect((await b.event(b1, 'f')).xs).toMatchObject({ q: 100, p: '1.1400', agg: false });
    const a2p = await a.event(a2, 'p');
    expect(a2p.xs).toMatchObject({ q: 100, p: '1.1400' });
    expect(a2p.o).toMatchObject({ o: 'PARTIALLY_FILLED', rq: 100 });
    expect(a.frames.indexOf(await a.event(a1, 'f'))).toBeLessThan(a.frames.indexOf(a2p));
    // The IOC bid at 1.1398 is below the auction price: it does not trade and expires.
    expect((await c.event(c2, 'x')).o).toMatchObject({ o: 'EXPIRED', xq: 0 });
    // The book is left uncrossed: a2's rest is the best ask, no bids.
    const book = h.venue.books.get('EURUSD-PERP')!;
    expect(book.bestAsk()).toBe(h.venue.catalog.get('EURUSD-PERP')!.grid.toTicks('1.1400'));
    expect(book.bestBid()).toBeUndefined();
    expect(h.venue.markets.get('EURUSD-PERP')!.lastTradeTicks).toBe(book.bestAsk());
  });

  it('applies the later order’s self-trade prevention to a same-account pair', async () => {
    h.venue.setInstrumentState('EURUSD-PERP', 'PRE_OPEN');
    const s = await place(a, limit('S', 100, '1.1400'));
    const buy = await place(a, limit('B', 100, '1.1402'));
    h.venue.setInstrumentState('EURUSD-PERP', 'OPEN');
    const cx = await a.event(buy, 'c');
    expect(cx.txt).toBe('self-trade prevention: incoming order canceled');
    expect(a.eventsFor(s).some((f) => f.t === 'p' || f.t === 'f' || f.t === 'c')).toBe(false);
    const st = await a.request({ t: 's', oid: s });
    expect(st.res.status).toMatchObject({ state: 'ACCEPTED', remaining_quantity: 100 });
  });

  it('runs the auction when a closing auction ends', async () => {
    h.venue.setInstrumentState('EURUSD-PERP', 'MATCH_AND_CLOSE_AUCTION');
    const sell = await place(a, limit('S', 100, '1.1399'));
    const buy = await place(c, limit('B', 100, '1.1401'));
    expect(c.eventsFor(buy).some((f) => f.t === 'f')).toBe(false);
    h.venue.setInstrumentState('EURUSD-PERP', 'CLOSED');
    // Every tick of 1.1399..1.1401 executes 100 with no imbalance: the settlement 1.1400 wins.
    expect((await c.event(buy, 'f')).xs).toMatchObject({ q: 100, p: '1.1400', agg: true });
    expect((await a.event(sell, 'f')).xs).toMatchObject({ q: 100, p: '1.1400', agg: false });
  });
});
