import { describe, expect, it } from 'vitest';
import {
  decodeCandleResponse,
  decodeEstimatedFunding,
  decodeMdRequest,
  decodeMdWsFrame,
  decodeOrderWsFrame,
  decodeOrderWsRequest,
  decodePositionsResponse,
  decodeRiskSnapshotResponse,
  decodeUnderlyingPricesResponse,
  decodeCancelOrderRequest,
  decodeRewardAccrualsResponse,
  decodeTickerResponse,
  encodeOrderWsRequest,
  type DecodeError,
  type WireOrder,
} from '../../src/wire/index.ts';
import { fixture, unwrap } from './helpers.ts';

const order = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  oid: 'O-1',
  u: 'u1',
  aid: 'a1',
  s: 'EURUSD-PERP',
  p: '1.1283',
  q: 200,
  xq: 0,
  rq: 200,
  o: 'ACCEPTED',
  d: 'B',
  tif: 'GTC',
  po: true,
  rb: 'rej',
  ts: 1790228411,
  tn: 928648197,
  ...over,
});
const ev = (t: string, extra: Record<string, unknown>) => JSON.stringify({ t, ts: 1, tn: 2, ...extra });

function errorOf(r: { ok: boolean; error?: DecodeError }): DecodeError {
  if (r.ok || !r.error) throw new Error('expected a decode error');
  return r.error;
}

describe('error messages name the JSON path and the value', () => {
  it('a bad quantity inside the order', () => {
    const e = errorOf(decodeOrderWsFrame(ev('n', { eid: 'E', o: order({ q: 'abc' }) })));
    expect(e.path).toBe('$.o.q');
    expect(e.message).toBe('$.o.q: expected non-negative integer, got "abc"');
  });
  it('a missing field', () => {
    const e = errorOf(decodeOrderWsFrame(ev('f', { eid: 'E', o: order(), xs: { tid: 'T', aid: 'a', s: 'X', q: 1, d: 'B', agg: true } })));
    expect(e.message).toBe('$.xs.p: expected decimal string, got nothing (missing)');
  });
  it('a malformed decimal in a book level', () => {
    const e = errorOf(decodeMdWsFrame(JSON.stringify({ t: '2', ts: 1, tn: 2, s: 'X', b: [{ p: '1.0', q: 1 }, { p: '1.', q: 2 }], a: [], st: true })));
    expect(e.path).toBe('$.b[1].p');
    expect(e.message).toContain('expected decimal string, got "1."');
  });
  it('an L3 level without its order sizes', () => {
    const e = errorOf(decodeMdWsFrame(JSON.stringify({ t: '3', ts: 1, tn: 2, s: 'X', b: [], a: [{ p: '2', q: 3 }], st: true })));
    expect(e.path).toBe('$.a[0].o');
  });
  it('odd keys are bracketed', () => {
    const risk = structuredClone(fixture('risk.json')) as { risk_snapshot: { per_symbol: Record<string, Record<string, unknown>> } };
    risk.risk_snapshot.per_symbol['GBPUSD-PERP']!.signed_quantity = 1.5;
    const e = errorOf(decodeRiskSnapshotResponse(risk));
    expect(e.path).toBe('$.risk_snapshot.per_symbol["GBPUSD-PERP"].signed_quantity');
  });
  it('unknown event type and invalid JSON', () => {
    expect(errorOf(decodeOrderWsFrame(ev('z', {}))).path).toBe('$.t');
    const e = errorOf(decodeOrderWsFrame('{"t":'));
    expect(e.path).toBe('$');
    expect(e.expected).toBe('valid JSON');
  });
});

describe('real venue quirks', () => {
  it('post-only reject: r null, txt at top level', () => {
    const f = unwrap(decodeOrderWsFrame(ev('j', { eid: 'E', o: order({ o: 'REJECTED', rq: 0, r: null, txt: 'post-only order would cross the book' }), r: null, txt: 'post-only order would cross the book' })));
    expect(f).toMatchObject({ t: 'j', r: null, o: { r: null } });
  });
  it('omitted cid/tag stay absent; cid as string and beyond 2^53 as string are exact', () => {
    const f = unwrap(decodeOrderWsFrame(ev('n', { eid: 'E', o: order() })));
    expect('o' in f && (f.o as WireOrder).cid).toBeUndefined();
    const big = unwrap(decodeOrderWsFrame(ev('n', { eid: 'E', o: order({ cid: '18446744073709551615' }) })));
    expect('o' in big && (big.o as WireOrder).cid).toBe('18446744073709551615');
    const over = decodeOrderWsFrame(ev('n', { eid: 'E', o: order({ cid: '18446744073709551616' }) }));
    expect(errorOf(over).path).toBe('$.o.cid');
    expect(errorOf(decodeOrderWsFrame(ev('n', { eid: 'E', o: order({ cid: -1 }) }))).path).toBe('$.o.cid');
  });
  it('unknown enum values are kept as { unknown }', () => {
    const f = unwrap(decodeOrderWsFrame(ev('n', { eid: 'E', o: order({ o: 'CANCELING', tif: 'FOK' }) })));
    expect(f).toMatchObject({ o: { o: { unknown: 'CANCELING' }, tif: { unknown: 'FOK' } } });
    const t = unwrap(decodeTickerResponse({ ticker: { ts: 1, tn: 2, s: 'X', q: 0, v: 0, oi: 0, i: 'SUSPENDED' } }));
    expect(t.ticker.i).toEqual({ unknown: 'SUSPENDED' });
  });
  it('DAY is accepted', () => {
    const f = unwrap(decodeOrderWsFrame(ev('d', { eid: 'E', o: order({ tif: 'DAY', o: 'DONE_FOR_DAY' }) })));
    expect(f).toMatchObject({ o: { tif: 'DAY' } });
  });
  it('unknown fields are ignored', () => {
    const f = unwrap(decodeOrderWsFrame(ev('x', { eid: 'E', o: order({ extra: 1 }), brand_new: true })));
    expect(f).not.toHaveProperty('brand_new');
    expect((f as { o: object }).o).not.toHaveProperty('extra');
  });
  it('replace event without no/noid (amend) decodes', () => {
    const f = unwrap(decodeOrderWsFrame(ev('r', { eid: 'E', ro: order({ o: 'REPLACED', rq: 0 }) })));
    expect(f).toMatchObject({ t: 'r', ro: { o: 'REPLACED' } });
  });
  it('err: null alongside res, and err-only replies', () => {
    expect(unwrap(decodeOrderWsFrame('{"rid":3,"res":{"oid":"O-9"},"err":null}'))).toEqual({ rid: 3, res: { oid: 'O-9' }, err: null });
    expect(unwrap(decodeOrderWsFrame('{"rid":4,"err":{"code":409,"msg":"order not yet acknowledged by exchange; retry shortly"}}'))).toEqual({
      rid: 4,
      err: { code: 409, msg: 'order not yet acknowledged by exchange; retry shortly' },
    });
    expect(errorOf(decodeOrderWsFrame('{"rid":5}')).path).toBe('$.res');
  });
  it('login reply with orders and err null', () => {
    const f = unwrap(decodeOrderWsFrame(JSON.stringify({ rid: 0, res: { li: 'u', o: [order()], cod: true }, err: null })));
    expect(f).toMatchObject({ rid: 0, res: { li: 'u', cod: true, o: [{ oid: 'O-1' }] } });
  });
  it('replies recognised by shape: cancel, status, ef, empty', () => {
    expect(unwrap(decodeOrderWsFrame('{"rid":1,"res":{"cxl_rx":true}}'))).toEqual({ rid: 1, res: { cxl_rx: true } });
    expect(unwrap(decodeOrderWsFrame('{"rid":1,"res":{}}'))).toEqual({ rid: 1, res: {} });
    const st = unwrap(decodeOrderWsFrame('{"rid":1,"res":{"status":{"symbol":"X","order_id":"O","clord_id":7,"state":"FILLED","filled_quantity":1,"remaining_quantity":0}}}'));
    expect(st).toMatchObject({ res: { status: { clord_id: '7', state: 'FILLED' } } });
    const ef = unwrap(decodeOrderWsFrame('{"rid":1,"res":{"symbol":"NVDA-PERP","status":"unavailable","timestamp":"2026-06-01T00:00:00.123456789Z","reason":"not enough mark price data","funding_rate":null}}'));
    expect(ef).toMatchObject({ res: { status: 'unavailable', funding_rate: null } });
  });
  it('deprecated signed_notional alone fills signed_cost_basis', () => {
    const p = unwrap(
      decodePositionsResponse({ positions: [{ account_id: 'a', symbol: 'X', signed_quantity: -3, signed_notional: '-3.3', realized_pnl: '0', timestamp: null }] }),
    );
    expect(p.positions[0]?.signed_cost_basis).toBe('-3.3');
    const e = errorOf(decodePositionsResponse({ positions: [{ account_id: 'a', symbol: 'X', signed_quantity: 0, realized_pnl: '0', timestamp: null }] }));
    expect(e.path).toBe('$.positions[0].signed_cost_basis');
  });
  it('deprecated index_prices key yields underlying_prices', () => {
    const r = unwrap(decodeUnderlyingPricesResponse({ index_prices: [{ symbol: 'X', timestamp: '2026-01-01T00:00:00Z', price: '1.5' }], limit: 1 }));
    expect(r).toEqual({ underlying_prices: [{ symbol: 'X', timestamp: '2026-01-01T00:00:00Z', price: '1.5' }], limit: 1 });
  });
  it('candle ts as RFC 3339 and risk timestamp_ns as integer both decode', () => {
    const c = unwrap(decodeCandleResponse({ candle: { symbol: 'X', ts: '2026-09-24T03:50:00Z', open: '1', high: '1', low: '1', close: '1', buy_volume: 0, sell_volume: 0, volume: 0, width: '1m' } }));
    expect(c.candle.ts).toBe('2026-09-24T03:50:00Z');
    const risk = structuredClone(fixture('risk.json')) as { risk_snapshot: Record<string, unknown> };
    risk.risk_snapshot.timestamp_ns = 1790221856000000000;
    expect(unwrap(decodeRiskSnapshotResponse(risk)).risk_snapshot.timestamp_ns).toBe(1790221856000000000);
  });
  it('ticker ef decodes (status unavailable with nulls)', () => {
    const ef = unwrap(decodeEstimatedFunding({ symbol: 'QQQ-PERP', status: 'unavailable', timestamp: '2026-06-01T12:00:00Z', reason: 'x', funding_rate: null, funding_amount: null, benchmark_price: null, settlement_price: null }));
    expect(ef.status).toBe('unavailable');
    expect(errorOf(decodeEstimatedFunding({ symbol: 'Q', status: 'ready', timestamp: 'yesterday' })).path).toBe('$.timestamp');
  });
  it('reward accruals: account_share must be in [0, 1], window may be empty', () => {
    const base = {
      limit: 10,
      offset: 0,
      total_count: 1,
      accruals: [
        { id: 'r1', epoch_start_ts: '2026-09-23T00:00:00Z', epoch_end_ts: '2026-09-24T00:00:00Z', symbol: 'X', raw_reward_usd: '1', cap_adjustment_usd: '0', final_accrued_usd: '1', account_share: '0.25', payout_status: 'accrued' },
      ],
      summary: { accrued_today_usd: '1', awaiting_approval_usd: '0', paid_this_month_usd: '0', retained_usd: '0' },
      trend: [{ epoch_day: '2026-09-23', symbol: 'X', accrued_usd: '1', paid_usd: '0' }],
      symbols: ['X'],
      window: { min_day: '', max_day: '' },
    };
    expect(unwrap(decodeRewardAccrualsResponse(base)).accruals[0]?.payout_status).toBe('accrued');
    const bad = structuredClone(base);
    bad.accruals[0]!.account_share = '1.5';
    expect(errorOf(decodeRewardAccrualsResponse(bad)).path).toBe('$.accruals[0].account_share');
    const { summary: _s, ...missing } = base;
    expect(errorOf(decodeRewardAccrualsResponse(missing)).path).toBe('$.summary');
  });
});

describe('client requests (local venue side)', () => {
  it('place request round-trips; cid goes out as a bare integer', () => {
    const text = encodeOrderWsRequest({ rid: 7, t: 'p', s: 'EURUSD-PERP', d: 'B', q: 100, p: '1.1283', tif: 'GTC', po: true, rb: 'rej', cid: '10075' as never, tag: 'mm1' });
    expect(text).toBe('{"rid":7,"t":"p","s":"EURUSD-PERP","d":"B","q":100,"p":"1.1283","tif":"GTC","po":true,"rb":"rej","cid":10075,"tag":"mm1"}');
    expect(unwrap(decodeOrderWsRequest(JSON.parse(text)))).toMatchObject({ t: 'p', cid: '10075' });
  });
  it('cancel needs exactly one of oid / cid', () => {
    expect(errorOf(decodeOrderWsRequest({ rid: 1, t: 'x' })).message).toContain('exactly one of oid or cid');
    expect(errorOf(decodeOrderWsRequest({ rid: 1, t: 'x', oid: 'O', cid: 3 })).path).toBe('$');
    expect(errorOf(decodeCancelOrderRequest({ oid: 'O', cid: 3 })).expected).toBe('exactly one of oid or cid');
    expect(unwrap(decodeCancelOrderRequest({ cid: '12', aid: 'a' }))).toEqual({ cid: '12', aid: 'a' });
  });
  it('MD subscribe requests decode; unknown request types fail at $.type', () => {
    expect(unwrap(decodeMdRequest({ rid: 1, type: 'subscribe', symbol: 'X', level: 'LEVEL_2', trades: false }))).toEqual({
      rid: 1,
      type: 'subscribe',
      symbol: 'X',
      level: 'LEVEL_2',
      trades: false,
    });
    expect(unwrap(decodeMdRequest({ rid: 2, type: 'subscribe_bbo_candles', symbol: 'X', width: '1s' }))).toMatchObject({ width: '1s' });
    expect(errorOf(decodeMdRequest({ rid: 1, type: 'sub' })).path).toBe('$.type');
  });
});
