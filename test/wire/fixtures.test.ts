import { describe, expect, it } from 'vitest';
import {
  decodeAs,
  decodeLoginReply,
  decodeMdWsFrame,
  decodeOrderWsFrame,
  inferWireMessageType,
  toMarketEvent,
  toOrderEvent,
  toDomainOrder,
  toDomainFill,
  toFundingSettlement,
  decodeFillsResponse,
  decodeFundingRatesResponse,
  decodeOpenOrdersResponse,
  decodePositionsResponse,
  decodeRiskSnapshotResponse,
  decodeTickersResponse,
  toTickerUpdated,
  encodeMdEvent,
  encodeMdReply,
  encodeOrderWsEvent,
  encodeOrderWsReply,
  type WireMdEvent,
  type WireMdReply,
  type WireOrderWsReply,
  type WireOrderWsEvent,
  type WireMessageType,
} from '../../src/wire/index.ts';
import { fixture, fixtureCatalog, fixtureFiles, fixtureText, unwrap, domainInstruments } from './helpers.ts';

const EXPECTED: Record<string, WireMessageType> = {
  'balances.json': 'balances',
  'candles.json': 'candles',
  'fills.json': 'fills',
  'funding-rates.json': 'funding-rates',
  'funding-slots.json': 'funding-slots',
  'initial-margin.json': 'initial-margin',
  'instruments.json': 'instruments',
  'last-candle.json': 'candle',
  'open-default.json': 'open-orders',
  'open-orders.json': 'open-orders',
  'order-status-filled.json': 'order-status-response',
  'orders.json': 'order-history',
  'positions.json': 'positions',
  'risk.json': 'risk-snapshot',
  'ticker.json': 'ticker',
  'tickers.json': 'tickers',
  'whoami.json': 'whoami',
  'ws-md-2.json': 'md-event',
  'ws-md-c.json': 'md-event',
  'ws-md-response-1.json': 'md-reply',
  'ws-md-response-6.json': 'md-reply',
  'ws-md-s.json': 'md-event',
  'ws-md-t.json': 'md-event',
  'ws-orders-acknowledged.json': 'order-event',
  'ws-orders-canceled.json': 'order-event',
  'ws-orders-filled-b.json': 'order-event',
  'ws-orders-replaced.json': 'order-event',
  'ws-orders-response-0.json': 'login-reply',
  'ws-orders-response-1.json': 'order-reply',
};

const catalog = fixtureCatalog();

function orderEvent(name: string): WireOrderWsEvent {
  const f = unwrap(decodeOrderWsFrame(fixtureText(name)));
  if (!('t' in f)) throw new Error('not an event');
  return f;
}
function mdEvent(name: string): WireMdEvent {
  const f = unwrap(decodeMdWsFrame(fixtureText(name)));
  if (!('t' in f)) throw new Error('not an event');
  return f;
}

describe('venue fixtures', () => {
  it('every fixture file is listed here', () => {
    expect(fixtureFiles()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s infers as %s and decodes', (file, type) => {
    const v = fixture(file);
    expect(inferWireMessageType(v)).toBe(type);
    const r = decodeAs(type, v);
    expect(r.ok ? 'ok' : r.error.message).toBe('ok');
  });

  it('fill event maps to ticks: limit 1.1408, fill price improved to 1.1388', () => {
    const ev = unwrap(toOrderEvent(orderEvent('ws-orders-filled-b.json'), catalog, 42));
    expect(ev?.type).toBe('filled');
    if (ev?.type !== 'filled') return;
    expect(ev.order.priceTicks).toBe(11408);
    expect(ev.fillPriceTicks).toBe(11388);
    expect(ev.fillQty).toBe(100);
    expect(ev.aggressor).toBe(true);
    expect(ev.partial).toBe(false);
    expect(ev.order.clientOrderId).toBe('10078');
    expect(ev.tsEvent).toBeCloseTo(1790228425163.976, 3);
    expect(ev.tsRecv).toBe(42);
  });

  it('a fill whose execution names another account or symbol than its order is refused, naming the path (issue 35)', () => {
    const w = orderEvent('ws-orders-filled-b.json') as Extract<WireOrderWsEvent, { t: 'p' | 'f' }>;
    const other = toOrderEvent({ ...w, xs: { ...w.xs, aid: 'someone-else' } }, catalog, 0);
    expect(other.ok ? 'mapped' : other.error.message).toBe(`$.xs.aid: expected the account of its order ($.o.aid ${JSON.stringify(w.o.aid)}), got "someone-else"`);
    const sym = toOrderEvent({ ...w, xs: { ...w.xs, s: 'XAU-PERP' } }, catalog, 0);
    expect(sym.ok ? 'mapped' : sym.error.message).toMatch(/^\$\.xs\.s: expected the symbol of its order/);
  });

  it('ack, cancel (empty xr/txt) and replace (ro/noid/no, no o) map to domain events', () => {
    const n = unwrap(toOrderEvent(orderEvent('ws-orders-acknowledged.json'), catalog, 0));
    expect(n).toMatchObject({ type: 'accepted', order: { priceTicks: 11283, qty: 200, remainingQty: 200, state: 'ACCEPTED', postOnly: true, reprice: 'rej' } });
    const c = unwrap(toOrderEvent(orderEvent('ws-orders-canceled.json'), catalog, 0));
    expect(c).toMatchObject({ type: 'canceled', reason: '', text: '', order: { state: 'CANCELED', remainingQty: 0 } });
    const r = unwrap(toOrderEvent(orderEvent('ws-orders-replaced.json'), catalog, 0));
    expect(r).toMatchObject({
      type: 'replaced',
      newOrderId: 'fixture-live-0142',
      original: { state: 'REPLACED', qty: 200, remainingQty: 0 },
      replacement: { state: 'ACCEPTED', qty: 100, clientOrderId: '10075' },
    });
  });

  it('login reply keeps o: null and a missing err', () => {
    const r = unwrap(decodeLoginReply(fixture('ws-orders-response-0.json')));
    expect(r).toEqual({ rid: 0, res: { li: 'fixture-0001', o: null, cod: false } });
    expect('err' in r).toBe(false);
  });

  it('open-orders reply decodes res.orders', () => {
    expect(unwrap(decodeOrderWsFrame(fixtureText('ws-orders-response-1.json')))).toEqual({ rid: 1, res: { orders: [] } });
  });

  it('L2 frame maps to a snapshot with 14 bids and 12 asks in ticks, best first', () => {
    const ev = unwrap(toMarketEvent(mdEvent('ws-md-2.json'), catalog, 1));
    expect(ev?.type).toBe('book');
    if (ev?.type !== 'book') return;
    expect(ev.isSnapshot).toBe(true);
    expect(ev.level).toBe(2);
    expect(ev.bids).toHaveLength(14);
    expect(ev.asks).toHaveLength(12);
    expect(ev.bids[0]).toEqual({ priceTicks: 13254, qty: 100 });
    expect(ev.bids[4]).toEqual({ priceTicks: 13250, qty: 500 });
    expect(ev.asks[0]).toEqual({ priceTicks: 13260, qty: 400 });
  });

  it('ticker, trade and candle frames map', () => {
    expect(unwrap(toMarketEvent(mdEvent('ws-md-s.json'), catalog, 0))).toMatchObject({
      type: 'ticker',
      lastTicks: 11388,
      bestBidTicks: 11380,
      bandLowerTicks: 10261,
      bandUpperTicks: 12541,
      lastSettlementMs: 1790175600000,
      state: 'OPEN',
      funding: null,
    });
    expect(unwrap(toMarketEvent(mdEvent('ws-md-t.json'), catalog, 0))).toMatchObject({ type: 'trade', priceTicks: 11388, qty: 400, aggressor: 'buy' });
    const c = unwrap(toMarketEvent(mdEvent('ws-md-c.json'), catalog, 0));
    expect(c).toMatchObject({ type: 'candle', width: '1s', bucketStartMs: 1790222020000, buyVolume: 400, sellVolume: 0 });
    if (c?.type === 'candle') expect(c.close.toString()).toBe('1.1388');
  });

  it('MD error reply keeps message and code', () => {
    expect(unwrap(decodeMdWsFrame(fixtureText('ws-md-response-6.json')))).toEqual({
      rid: 6,
      error: { message: 'Symbol INVALID-AUDIT is not available', code: 404 },
    });
  });

  it('REST tickers with null p/o/l/h and omitted bp/ap map', () => {
    const t = unwrap(decodeTickersResponse(fixture('tickers.json')));
    const aapl = unwrap(toTickerUpdated(t.tickers[0]!, catalog, 0));
    expect(aapl).toMatchObject({ symbol: 'AAPL-PERP', lastTicks: null, bestBidTicks: null, markTicks: 33702 });
  });

  it('open orders from REST map through the catalog (rb stored, cid absent)', () => {
    const r = unwrap(decodeOpenOrdersResponse(fixture('open-default.json')));
    const orders = r.orders.map((o) => unwrap(toDomainOrder(o, catalog)));
    expect(orders.map((o) => o.reprice)).toEqual(['rej', 'tbl', 'bo', 'rej']);
    expect(orders.every((o) => o.clientOrderId === null)).toBe(true);
    expect(orders[1]?.priceTicks).toBe(11282);
  });

  it('REST fills: realized_pnl null on the opening fill; price in ticks', () => {
    const r = unwrap(decodeFillsResponse(fixture('fills.json')));
    expect(r.fills[2]?.realized_pnl).toBeNull();
    const f = unwrap(toDomainFill(r.fills[0]!, catalog));
    expect(f).toMatchObject({ priceTicks: 6548, qty: 1, side: 'buy', aggressor: true });
  });

  it('funding rates map to settlements (amount = settlement − benchmark)', () => {
    const r = unwrap(decodeFundingRatesResponse(fixture('funding-rates.json')));
    for (const w of r.funding_rates) {
      const s = unwrap(toFundingSettlement(w));
      expect(s.amount.eq(s.settlementPrice.minus(s.benchmarkPrice))).toBe(true);
    }
    expect(unwrap(toFundingSettlement(r.funding_rates[0]!)).tsEvent).toBe(1790175600000);
  });

  it('positions and risk snapshot carry signed_cost_basis; risk timestamp is RFC 3339', () => {
    const p = unwrap(decodePositionsResponse(fixture('positions.json')));
    expect(p.positions.every((x) => x.signed_cost_basis === '0.000000000000')).toBe(true);
    const r = unwrap(decodeRiskSnapshotResponse(fixture('risk.json')));
    expect(r.risk_snapshot.timestamp_ns).toBe('2026-09-24T03:50:56Z');
    expect(r.risk_snapshot.per_symbol['GBPUSD-PERP']?.mark_price).toBeNull();
  });

  it('instruments: 29, perps vs dated, intraday TWAP for the 13-slot equities', () => {
    const all = domainInstruments();
    expect(all).toHaveLength(29);
    expect(all.filter((i) => i.kind === 'dated').map((i) => i.symbol)).toEqual(['XAU-2026-SEP', 'XAU-2026-DEC']);
    expect(all.filter((i) => i.fundingVariant === 'intraday_twap').map((i) => i.symbol).sort()).toEqual(
      ['AAPL-PERP', 'AMZN-PERP', 'GOOGL-PERP', 'META-PERP', 'MSFT-PERP', 'NVDA-PERP'],
    );
    const eur = catalog.get('EURUSD-PERP')!;
    expect(eur.minOrderSize).toBe(100);
    expect(eur.initialMarginPct.toString()).toBe('6');
    expect(eur.fundingCapUpperPct?.toString()).toBe('1');
    const xau = catalog.get('XAU-2026-SEP')!;
    expect(xau.fundingSchedule).toBeNull();
    expect(xau.fundingVariant).toBeNull();
    expect(xau.expirationMs).toBe(Date.parse('2026-09-30T15:00:00Z'));
  });
});

describe('encoders reproduce the venue bytes', () => {
  const ws = fixtureFiles().filter((f) => f.startsWith('ws-'));
  it.each(ws)('%s: encode(decode(frame)) is the compact capture, key order included', (file) => {
    const compact = JSON.stringify(JSON.parse(fixtureText(file)));
    const isMd = file.startsWith('ws-md-');
    const decoded: object = isMd ? unwrap(decodeMdWsFrame(compact)) : unwrap(decodeOrderWsFrame(compact));
    const text =
      'rid' in decoded
        ? isMd
          ? encodeMdReply(decoded as WireMdReply)
          : encodeOrderWsReply(decoded as WireOrderWsReply)
        : isMd
          ? encodeMdEvent(decoded as WireMdEvent)
          : encodeOrderWsEvent(decoded as WireOrderWsEvent);
    expect(text).toBe(compact);
  });
});
