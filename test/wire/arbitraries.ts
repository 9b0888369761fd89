/** fast-check arbitraries for wire messages (used by round-trip and robustness properties). */
import fc from 'fast-check';
import type { ClientOrderId } from '../../src/core/ids.ts';
import {
  WIRE_INSTRUMENT_STATES,
  WIRE_ORDER_STATES,
  WIRE_REJECT_REASONS,
  WIRE_REPRICE,
  WIRE_STP,
  WIRE_TIFS,
  type WireBookLevel,
  type WireEnum,
  type WireEstimatedFunding,
  type WireFillDetail,
  type WireMdEvent,
  type WireMdRequest,
  type WireOrder,
  type WireOrderWsEvent,
  type WireOrderWsRequest,
  type WireTicker,
} from '../../src/wire/index.ts';

/** Optional: absent or a value (never explicitly undefined, so deep equality is exact). */
const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });
const optNull = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> => fc.oneof(fc.constant(undefined), fc.constant(null), a);

/** Drops undefined members so generated objects look like decoded ones. */
function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Decimal strings in the venue grammar. */
export const decimalString = fc
  .tuple(fc.boolean(), fc.nat({ max: 10_000_000 }), fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }))
  .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`);
// Book prices are positive (the decoder refuses 0 and negatives).
const price = fc
  .tuple(fc.nat({ max: 100_000 }), fc.stringMatching(/^[0-9]{1,6}$/))
  .map(([i, f]) => `${i}.${f}`)
  .filter((p) => /[1-9]/.test(p));
const qty = fc.nat({ max: 2 ** 31 });
const text = fc.string({ maxLength: 20, unit: 'binary' });
const id = fc.string({ minLength: 1, maxLength: 30 });
const ts = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const tn = fc.integer({ min: 0, max: 999_999_999 });
/** u64 client order ids as decimal strings. */
export const cid = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((b) => b.toString() as ClientOrderId);

const en = <T extends string>(values: readonly T[]): fc.Arbitrary<WireEnum<T>> =>
  fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Z_]{3,12}$/).filter((s) => !(values as readonly string[]).includes(s)).map((s) => ({ unknown: s })) });
const sideArb = fc.constantFrom('B' as const, 'S' as const);

/** A wire order object. */
export const wireOrder: fc.Arbitrary<WireOrder> = fc
  .record({
    oid: id,
    u: opt(id),
    aid: id,
    s: id,
    p: price,
    q: qty,
    xq: qty,
    rq: qty,
    o: en(WIRE_ORDER_STATES),
    d: sideArb,
    tif: en(WIRE_TIFS),
    po: fc.boolean(),
    rb: opt(en(WIRE_REPRICE)),
    cid: opt(cid),
    tag: opt(fc.stringMatching(/^[A-Za-z0-9]{1,10}$/)),
    r: optNull(en(WIRE_REJECT_REASONS)),
    txt: opt(text),
    ts,
    tn,
  })
  .map(clean);

const fillDetail: fc.Arbitrary<WireFillDetail> = fc.record({ tid: id, aid: id, s: id, q: qty, p: price, d: sideArb, agg: fc.boolean() });

/** Any order-WS event. */
export const wireOrderEvent: fc.Arbitrary<WireOrderWsEvent> = fc.oneof(
  fc.record({ t: fc.constant('h' as const), ts, tn }),
  fc.record({ t: fc.constantFrom('n' as const, 'x' as const, 'd' as const), ts, tn, eid: id, o: wireOrder }),
  fc.record({ t: fc.constantFrom('p' as const, 'f' as const), ts, tn, eid: id, o: wireOrder, xs: fillDetail }),
  fc.record({ t: fc.constant('c' as const), ts, tn, eid: id, o: wireOrder, xr: opt(text), txt: opt(text) }).map(clean),
  fc.record({ t: fc.constant('j' as const), ts, tn, eid: id, o: wireOrder, r: optNull(en(WIRE_REJECT_REASONS)), txt: opt(text) }).map(clean),
  fc.record({ t: fc.constant('r' as const), ts, tn, eid: id, ro: wireOrder, noid: opt(id), no: opt(wireOrder) }).map(clean),
  fc.record({ t: fc.constant('e' as const), ts, tn, oid: opt(id), cid: opt(cid), r: text, txt: opt(text), o: optNull(wireOrder) }).map(clean),
);

const level = (l3: boolean): fc.Arbitrary<WireBookLevel> =>
  l3 ? fc.record({ p: price, q: qty, o: fc.array(qty, { maxLength: 5 }) }) : fc.record({ p: price, q: qty });

const rfc3339 = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

const ef: fc.Arbitrary<WireEstimatedFunding> = fc
  .record({
    symbol: id,
    status: en(['ready', 'settlement_pending', 'unavailable'] as const),
    timestamp: rfc3339,
    funding_rate: optNull(decimalString),
    funding_amount: optNull(decimalString),
    benchmark_price: optNull(decimalString),
    settlement_price: optNull(decimalString),
    reason: optNull(text),
  })
  .map(clean);

/** A ticker. */
export const wireTicker: fc.Arbitrary<WireTicker> = fc
  .record({
    ts,
    tn,
    s: id,
    p: optNull(price),
    q: qty,
    o: optNull(decimalString),
    l: optNull(price),
    h: optNull(price),
    v: qty,
    oi: qty,
    i: opt(en(WIRE_INSTRUMENT_STATES)),
    m: optNull(price),
    bp: optNull(price),
    ap: optNull(price),
    pl: optNull(price),
    pu: optNull(price),
    lsp: optNull(price),
    lst: optNull(ts),
    ef: optNull(ef),
  })
  .map(clean);

/** Any MD event. */
export const wireMdEvent: fc.Arbitrary<WireMdEvent> = fc.oneof(
  fc.constantFrom('1' as const, '2' as const, '3' as const).chain((t) =>
    fc
      .record({ t: fc.constant(t), ts, tn, s: id, b: fc.array(level(t === '3'), { maxLength: 25 }), a: fc.array(level(t === '3'), { maxLength: 25 }), st: opt(fc.boolean()) })
      .map(clean),
  ),
  wireTicker.map((x) => ({ t: 's' as const, ...x })),
  fc.record({ t: fc.constant('t' as const), p: price, q: qty, s: id, d: sideArb, ts, tn }),
  fc.record({
    t: fc.constant('c' as const),
    symbol: id,
    ts: fc.oneof(ts, rfc3339),
    open: price,
    high: price,
    low: price,
    close: price,
    buy_volume: qty,
    sell_volume: qty,
    volume: qty,
    width: fc.constantFrom('1s', '1m', '1h'),
  }),
  fc.record({ t: fc.constant('h' as const), ts, tn }),
);

/** Any order-WS client request. */
export const wireOrderRequest: fc.Arbitrary<WireOrderWsRequest> = fc.oneof(
  fc
    .record({ rid: fc.nat(), t: fc.constant('p' as const), s: id, d: sideArb, q: qty, p: price, tif: en(WIRE_TIFS), po: fc.boolean(), rb: opt(en(WIRE_REPRICE)), st: opt(en(WIRE_STP)), tag: opt(text), cid: opt(cid) })
    .map(clean),
  fc.oneof(fc.record({ oid: id }), fc.record({ cid })).chain((k) =>
    fc.oneof(
      fc.record({ rid: fc.nat(), t: fc.constant('x' as const) }).map((r) => ({ ...r, ...k })),
      fc.record({ rid: fc.nat(), t: fc.constant('s' as const) }).map((r) => ({ ...r, ...k })),
      fc.record({ rid: fc.nat(), t: fc.constant('r' as const), p: opt(price), q: opt(qty), po: opt(fc.boolean()) }).map((r) => clean({ ...r, ...k })),
    ),
  ),
  fc.record({ rid: fc.nat(), t: fc.constant('X' as const), symbol: opt(id) }).map(clean),
  fc.record({ rid: fc.nat(), t: fc.constantFrom('o' as const, 'h' as const) }),
  fc.record({ rid: fc.nat(), t: fc.constant('ef' as const), symbol: id }),
);

/** Any MD client request. */
export const wireMdRequest: fc.Arbitrary<WireMdRequest> = fc.oneof(
  fc.record({ rid: fc.nat(), type: fc.constant('subscribe' as const), symbol: id, level: en(['LEVEL_1', 'LEVEL_2', 'LEVEL_3', 'TRADES'] as const), trades: opt(fc.boolean()), ticker: opt(fc.boolean()) }).map(clean),
  fc.record({ rid: fc.nat(), type: fc.constant('unsubscribe' as const), symbol: id }),
  fc.record({ rid: fc.nat(), type: fc.constantFrom('subscribe_candles' as const, 'unsubscribe_bbo_candles' as const), symbol: id, width: fc.constantFrom('1s', '5m') }),
);
