import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asAccountId, asClientOrderId, asExecutionId, asSymbol, asUserId, asVenueOrderId } from '../../src/core/ids.ts';
import { ORDER_STATES, type Order, type OrderEvent } from '../../src/domain/index.ts';
import {
  decodeOrderWsFrame,
  encodeOrderWsEvent,
  toDomainInstrument,
  toDomainOrder,
  toMarketEvent,
  toOrderEvent,
  toWireBookFrame,
  toWireInstrument,
  toWireOrder,
  toWireOrderEvent,
  decodeMdWsFrame,
  encodeMdEvent,
  msToTsTn,
  tsTnToMs,
  type WireOrder,
} from '../../src/wire/index.ts';
import { domainInstruments, fixtureCatalog, unwrap, wireInstruments } from './helpers.ts';

const catalog = fixtureCatalog();
const instruments = domainInstruments();

describe('tick conversion round-trips for every fixture instrument', () => {
  it('covers all 29 instruments', () => expect(instruments).toHaveLength(29));

  it.each(instruments.map((i) => [i.symbol, i] as const))('%s: ticks → price → ticks, and grid prices from the wire tick size', (_s, inst) => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (t) => {
        const p = inst.grid.toPrice(t);
        expect(inst.grid.toTicks(p)).toBe(t);
        expect(inst.grid.toDecimal(t).eq(p)).toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(inst.grid.toTicks(inst.grid.tickSize.toFixed())).toBe(1);
  });

  it('price_scale = 1 / tick_size for every fixture instrument', () => {
    for (const w of wireInstruments()) expect(unwrap(toDomainInstrument(w)).grid.tickSize.mul(w.price_scale).toNumber()).toBe(1);
  });

  it('domain → wire → domain instrument is stable', () => {
    for (const inst of instruments) {
      const back = unwrap(toDomainInstrument(toWireInstrument(inst)));
      expect({ ...back, grid: back.grid.tickSize.toString() }).toEqual({ ...inst, grid: inst.grid.tickSize.toString() });
    }
  });
});

const symbols = instruments.map((i) => i.symbol);
const domainOrder: fc.Arbitrary<Order> = fc.record({
  orderId: fc.string({ minLength: 1, maxLength: 10 }).map(asVenueOrderId),
  clientOrderId: fc.option(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((b) => asClientOrderId(b)), { nil: null }),
  accountId: fc.constant(asAccountId('acct')),
  userId: fc.option(fc.constant(asUserId('user')), { nil: null }),
  symbol: fc.constantFrom(...symbols).map(asSymbol),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  priceTicks: fc.integer({ min: 1, max: 10_000_000 }),
  qty: fc.nat({ max: 1e6 }),
  filledQty: fc.nat({ max: 1e6 }),
  remainingQty: fc.nat({ max: 1e6 }),
  state: fc.constantFrom(...ORDER_STATES),
  tif: fc.constantFrom('GTC' as const, 'IOC' as const, 'DAY' as const),
  postOnly: fc.boolean(),
  reprice: fc.constantFrom('rej' as const, 'bo' as const, 'tbl' as const),
  tag: fc.option(fc.stringMatching(/^[a-z0-9]{1,10}$/), { nil: null }),
  rejectReason: fc.constant(null),
  text: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
  createdMs: fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((s) => s * 1000 + 123),
});

describe('order mapping', () => {
  it('domain → wire → text → wire → domain is the identity', () => {
    fc.assert(
      fc.property(domainOrder, (o) => {
        const grid = catalog.get(o.symbol)!.grid;
        const w = toWireOrder(o, grid);
        const text = encodeOrderWsEvent({ t: 'n', ts: 1, tn: 0, eid: 'E', o: w });
        const decoded = unwrap(decodeOrderWsFrame(text)) as { o: WireOrder };
        expect(unwrap(toDomainOrder(decoded.o, catalog))).toEqual(o);
      }),
      { numRuns: 200 },
    );
  });

  it('domain order events → wire → domain', () => {
    const events = fc.tuple(domainOrder, domainOrder, fc.integer({ min: 0, max: 2 ** 40 })).map(([o, o2, ms]): OrderEvent[] => [
      { type: 'accepted', executionId: asExecutionId('E1'), order: o, tsEvent: ms, tsRecv: 7 },
      { type: 'canceled', executionId: asExecutionId('E2'), order: o, reason: '', text: '', tsEvent: ms, tsRecv: 7 },
      { type: 'rejected', executionId: asExecutionId('E3'), order: { ...o, state: 'REJECTED' }, reason: null, text: 'post-only order would cross the book', tsEvent: ms, tsRecv: 7 },
      { type: 'rejected', executionId: asExecutionId('E3'), order: { ...o, state: 'REJECTED', rejectReason: 'PRICE_OUT_OF_BOUNDS' }, reason: 'PRICE_OUT_OF_BOUNDS', text: 'x', tsEvent: ms, tsRecv: 7 },
      { type: 'filled', executionId: asExecutionId('E4'), order: o, partial: true, tradeId: 'T', fillPriceTicks: o.priceTicks, fillQty: 3, fillSide: o.side, aggressor: false, tsEvent: ms, tsRecv: 7 },
      { type: 'replaced', executionId: asExecutionId('E5'), original: o, replacement: { ...o2, symbol: o.symbol }, newOrderId: o2.orderId, tsEvent: ms, tsRecv: 7 },
      { type: 'cancel-rejected', orderId: o.orderId, clientOrderId: o.clientOrderId, reason: 'ORDER_NOT_FOUND', text: 'Order not found', order: null, tsEvent: ms, tsRecv: 7 },
    ]);
    fc.assert(
      fc.property(events, (evs) => {
        for (const e of evs) {
          const w = toWireOrderEvent(e, catalog)!;
          const back = unwrap(toOrderEvent(unwrap(decodeOrderWsFrame(encodeOrderWsEvent(w))) as typeof w, catalog, 7));
          expect(back).toEqual(e);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('mapping failures name the path: unknown symbol, off-grid price, unknown side', () => {
    const base = toWireOrder(
      {
        orderId: asVenueOrderId('O'),
        clientOrderId: null,
        accountId: asAccountId('a'),
        userId: null,
        symbol: asSymbol('EURUSD-PERP'),
        side: 'buy',
        priceTicks: 11283,
        qty: 100,
        filledQty: 0,
        remainingQty: 100,
        state: 'ACCEPTED',
        tif: 'GTC',
        postOnly: true,
        reprice: 'rej',
        tag: null,
        rejectReason: null,
        text: null,
        createdMs: 0,
      },
      catalog.get('EURUSD-PERP')!.grid,
    );
    const e1 = toDomainOrder({ ...base, s: 'NOPE-PERP' }, catalog);
    expect(!e1.ok && e1.error.message).toBe('$.s: expected a symbol in the instrument catalog, got "NOPE-PERP"');
    const e2 = toDomainOrder({ ...base, p: '1.12835' }, catalog);
    expect(!e2.ok && e2.error.path).toBe('$.p');
    const e3 = toOrderEvent({ t: 'n', ts: 1, tn: 2, eid: 'E', o: { ...base, d: { unknown: 'X' } } }, catalog, 0);
    expect(!e3.ok && e3.error.path).toBe('$.o.d');
  });
});

describe('market mapping', () => {
  it('domain book → wire frame → text → domain book', () => {
    const lv = fc.array(fc.record({ priceTicks: fc.integer({ min: 1, max: 1e7 }), qty: fc.nat({ max: 1e6 }) }), { maxLength: 20 });
    fc.assert(
      fc.property(fc.constantFrom(...symbols), lv, lv, fc.boolean(), (s, bids, asks, snap) => {
        const book = { type: 'book' as const, symbol: asSymbol(s), level: 2 as const, isSnapshot: snap, bids, asks, tsEvent: 1_790_000_000_123, tsRecv: 5 };
        const frame = toWireBookFrame(book, catalog.get(s)!.grid);
        const decoded = unwrap(decodeMdWsFrame(encodeMdEvent(frame)));
        expect(unwrap(toMarketEvent(decoded as typeof frame, catalog, 5))).toEqual(book);
      }),
      { numRuns: 100 },
    );
  });

  it('ts/tn ⇄ epoch ms', () => {
    expect(tsTnToMs(1790228425, 163976017)).toBeCloseTo(1790228425163.976, 3);
    // Epoch ms as a double keeps ~0.2 µs near 2026: tn comes back within a microsecond.
    const back = msToTsTn(1790228425163.976);
    expect(back.ts).toBe(1790228425);
    expect(Math.abs(back.tn - 163976000)).toBeLessThan(1000);
    expect(msToTsTn(1790228425000)).toEqual({ ts: 1790228425, tn: 0 });
  });

  it('an off-grid level names its index', () => {
    const r = toMarketEvent({ t: '2', ts: 1, tn: 2, s: 'EURUSD-PERP', b: [{ p: '1.1', q: 1 }, { p: '1.12345', q: 1 }], a: [], st: false }, catalog, 0);
    expect(!r.ok && r.error.path).toBe('$.b[1].p');
  });
});
