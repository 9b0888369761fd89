import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  WIRE_MESSAGE_TYPES,
  decodeAs,
  decodeMdRequest,
  decodeMdWsFrame,
  decodeOrderWsFrame,
  decodeOrderWsRequest,
  encodeMdEvent,
  encodeMdRequest,
  encodeOrderWsEvent,
  encodeOrderWsReply,
  encodeOrderWsRequest,
  encodeRestBody,
  decodeOpenOrdersResponse,
  decodeTickerResponse,
  encodeTicker,
  parseWireJson,
  type DecodeError,
} from '../../src/wire/index.ts';
import { DECIMAL_RE } from '../../src/core/decimal.ts';
import { isDecimal } from '../../src/wire/decode/scalars.ts';
import { wireMdEvent, wireMdRequest, wireOrder, wireOrderEvent, wireOrderRequest, wireTicker } from './arbitraries.ts';

function isDecodeError(e: DecodeError): boolean {
  return typeof e.path === 'string' && e.path.startsWith('$') && typeof e.expected === 'string' && e.message.startsWith(`${e.path}: expected `);
}

const RUNS = { numRuns: 150 };

describe('decoders never throw', () => {
  it('any value fed to every message decoder gives a value or a DecodeError', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withSparseArray: true, withDate: true, withMap: true, withSet: true }), (v) => {
        for (const type of WIRE_MESSAGE_TYPES) {
          const r = decodeAs(type, v);
          if (!r.ok) expect(isDecodeError(r.error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any JSON value (as text) fed to the frame decoders gives a value or a DecodeError', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        for (const r of [decodeOrderWsFrame(text), decodeMdWsFrame(text)]) if (!r.ok) expect(isDecodeError(r.error)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('shape-alike garbage (objects with wire keys and random values) never throws', () => {
    const keys = ['t', 'rid', 'res', 'err', 'o', 'ro', 'no', 'xs', 'b', 'a', 'st', 'p', 'q', 'ts', 'tn', 's', 'cid', 'result', 'error', 'orders', 'status', 'li'];
    const tVals = fc.constantFrom('h', 'n', 'p', 'f', 'c', 'j', 'x', 'd', 'r', 'e', '1', '2', '3', 's', 't', 'bc');
    const garbage = fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.anything(), tVals), { maxKeys: 8 });
    fc.assert(
      fc.property(garbage, (v) => {
        for (const r of [decodeOrderWsFrame(JSON.stringify(v)), decodeMdWsFrame(JSON.stringify(v)), ...WIRE_MESSAGE_TYPES.map((t) => decodeAs(t, v))]) {
          if (!r.ok) expect(isDecodeError(r.error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('random mutations of valid events still never throw', () => {
    fc.assert(
      fc.property(wireOrderEvent, fc.nat(), fc.anything(), (e, pos, junk) => {
        const obj = JSON.parse(encodeOrderWsEvent(e)) as Record<string, unknown>;
        const keys = Object.keys(obj);
        obj[keys[pos % keys.length]!] = junk;
        const r = decodeOrderWsFrame(JSON.stringify(obj) ?? 'null');
        if (!r.ok) expect(isDecodeError(r.error)).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('encode → decode round-trips', () => {
  it('order-WS events (t first)', () => {
    fc.assert(
      fc.property(wireOrderEvent, (e) => {
        const text = encodeOrderWsEvent(e);
        expect(text.startsWith(`{"t":"${e.t}"`)).toBe(true);
        const r = decodeOrderWsFrame(text);
        expect(r.ok ? r.value : r.error.message).toEqual(e);
      }),
      RUNS,
    );
  });

  it('market-data events (t first)', () => {
    fc.assert(
      fc.property(wireMdEvent, (e) => {
        const text = encodeMdEvent(e);
        expect(text.startsWith(`{"t":"${e.t}"`)).toBe(true);
        const r = decodeMdWsFrame(text);
        expect(r.ok ? r.value : r.error.message).toEqual(e);
      }),
      RUNS,
    );
  });

  it('order-WS and MD requests', () => {
    fc.assert(
      fc.property(wireOrderRequest, wireMdRequest, (o, m) => {
        const ro = decodeOrderWsRequest(parseWireJson(encodeOrderWsRequest(o)));
        expect(ro.ok ? ro.value : ro.error.message).toEqual(o);
        const rm = decodeMdRequest(JSON.parse(encodeMdRequest(m)));
        expect(rm.ok ? rm.value : rm.error.message).toEqual(m);
      }),
      RUNS,
    );
  });

  it('replies: login (orders or null), open orders, and REST bodies with orders and tickers', () => {
    fc.assert(
      fc.property(fc.option(fc.array(wireOrder, { maxLength: 3 }), { nil: null }), fc.array(wireOrder, { maxLength: 3 }), wireTicker, (login, open, ticker) => {
        const l = decodeOrderWsFrame(encodeOrderWsReply({ rid: 0, res: { li: 'u', o: login, cod: true } }));
        expect(l.ok ? l.value : l.error.message).toEqual({ rid: 0, res: { li: 'u', o: login, cod: true } });
        const o = decodeOrderWsFrame(encodeOrderWsReply({ rid: 9, res: { orders: open } }));
        expect(o.ok ? o.value : o.error.message).toEqual({ rid: 9, res: { orders: open } });
        const body = { orders: open, total_count: open.length, limit: 100, offset: 0 };
        const b = decodeOpenOrdersResponse(parseWireJson(encodeRestBody(body)));
        expect(b.ok ? b.value : b.error.message).toEqual(body);
        const t = decodeTickerResponse(JSON.parse(`{"ticker":${encodeTicker(ticker)}}`));
        expect(t.ok ? t.value.ticker : t.error.message).toEqual(ticker);
      }),
      { numRuns: 80 },
    );
  });
});

describe('decimal grammar', () => {
  it('isDecimal agrees with the core DECIMAL_RE on any string', () => {
    const chars = fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' ', 'a');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(chars, { maxLength: 8 }).map((c) => c.join(''))), (s) => {
        expect(isDecimal(s)).toBe(DECIMAL_RE.test(s));
      }),
      { numRuns: 2000 },
    );
  });
});
