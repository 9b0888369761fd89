import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { asClientOrderId, asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import { RestClient } from '../../src/client/rest-client.ts';
import { collect } from '../../src/client/paging.ts';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/client/http-transport.ts';
import { fixtureCatalog, fixtureText } from '../support/fixture-catalog.ts';

type Route = (req: HttpRequest, url: URL) => HttpResponse | undefined;

function transport(routes: Route[]): HttpTransport & { seen: HttpRequest[] } {
  const seen: HttpRequest[] = [];
  return {
    seen,
    async request(req) {
      seen.push(req);
      const url = new URL(req.path, 'http://venue');
      for (const r of routes) {
        const res = r(req, url);
        if (res) return res;
      }
      return { status: 404, headers: {}, text: `{"error":"no route ${req.method} ${url.pathname}"}` };
    },
    close: async () => {},
  };
}

const json = (text: string): HttpResponse => ({ status: 200, headers: {}, text });
const at = (method: string, path: string, text: string | ((url: URL, req: HttpRequest) => string)): Route => (req, url) =>
  req.method === method && url.pathname === path ? json(typeof text === 'string' ? text : text(url, req)) : undefined;

function client(routes: Route[]) {
  const t = transport([at('POST', '/api/authenticate', '{"token":"T"}'), ...routes]);
  const rest = new RestClient({ baseUrl: 'http://venue', clock: new VirtualClock(0), credentials: { apiKey: 'k', apiSecret: 's' }, instruments: fixtureCatalog(), transport: t, accountId: 'fixture-0001' });
  return { rest, t };
}

describe('RestClient against captured payloads', () => {
  it('authenticates with expiration_seconds, then sends the bearer token', async () => {
    const { rest, t } = client([at('GET', '/api/whoami', fixtureText('whoami.json'))]);
    const who = await rest.whoami();
    expect(who.accounts.length).toBeGreaterThan(0);
    expect(JSON.parse(t.seen[0]!.body!)).toEqual({ api_key: 'k', api_secret: 's', expiration_seconds: 3600 });
    expect(t.seen[1]!.headers['authorization']).toBe('Bearer T');
    await rest.close();
  });

  it('decodes the portfolio captures', async () => {
    const { rest } = client([
      at('GET', '/api/positions', fixtureText('positions.json')),
      at('GET', '/api/balances', fixtureText('balances.json')),
      at('GET', '/api/risk-snapshot', fixtureText('risk.json')),
    ]);
    expect((await rest.positions()).positions.length).toBeGreaterThan(0);
    expect((await rest.balances()).usd_borrow).toBe('0');
    expect((await rest.riskSnapshot()).risk_snapshot.account_id).toBeTruthy();
    await rest.close();
  });

  it('maps order reads to domain types: status, history, fills with fees', async () => {
    const { rest, t } = client([
      at('GET', '/orders/order-status', fixtureText('order-status-filled.json')),
      at('GET', '/orders/orders', fixtureText('orders.json')),
      at('GET', '/api/fills', (url) => (url.searchParams.get('cursor') ? '{"fills":[],"limit":5}' : fixtureText('fills.json'))),
    ]);
    const st = await rest.orderStatus({ clientOrderId: asClientOrderId(10000) });
    expect(st).toMatchObject({ orderId: 'fixture-live-0020', clientOrderId: '10000', state: 'FILLED', filledQty: 100 });
    expect(new URL(t.seen.at(-1)!.path, 'http://v').searchParams.get('cid')).toBe('10000');
    const hist = await rest.orderHistory({ order_ids: 'a,b' });
    expect(hist.orders.length).toBeGreaterThan(0);
    const fills = await collect(rest.allFills({ start_timestamp_ns: '1', end_timestamp_ns: '2' }));
    expect(fills.length).toBeGreaterThan(0);
    expect(fills[0]).toMatchObject({ symbol: 'XAG-PERP', qty: 1, aggressor: true });
    expect(fills[0]!.fee.toString()).toBe('0.013096');
    await rest.close();
  });

  it('pages tickers by offset and funding rates by cursor', async () => {
    const tickers = JSON.parse(fixtureText('tickers.json')) as { tickers: unknown[]; total_count: number };
    const { rest, t } = client([
      at('GET', '/api/tickers', (url) => {
        const off = Number(url.searchParams.get('offset'));
        return JSON.stringify({ tickers: tickers.tickers.slice(off, off + 2), total_count: 5, limit: 2, offset: off });
      }),
      at('GET', '/api/funding-rates', (url) => (url.searchParams.get('cursor') ? '{"funding_rates":[],"limit":5}' : fixtureText('funding-rates.json'))),
    ]);
    const all = await collect(rest.allTickers(2));
    expect(all.map((x) => x.s)).toEqual((tickers.tickers as { s: string }[]).slice(0, 5).map((x) => x.s));
    const rates = await collect(rest.allFundingRates({ symbol: 'EURUSD-PERP' }));
    expect(rates[0]).toMatchObject({ symbol: 'EURUSD-PERP' });
    expect(rates[0]!.rate.toString()).toBe('0.000219269394');
    expect(t.seen.filter((r) => r.path.startsWith('/api/funding-rates')).length).toBe(2);
    await rest.close();
  });

  it('reads market data captures: ticker, candles, last candle, funding slots, margin preview', async () => {
    const { rest } = client([
      at('GET', '/api/ticker', fixtureText('ticker.json')),
      at('GET', '/api/candles', fixtureText('candles.json')),
      at('GET', '/api/candles/last', fixtureText('last-candle.json')),
      at('GET', '/api/funding-slots', fixtureText('funding-slots.json')),
      at('POST', '/orders/initial-margin-requirement', fixtureText('initial-margin.json')),
    ]);
    expect((await rest.ticker('EURUSD-PERP')).ticker.s).toBe('EURUSD-PERP');
    expect((await rest.candles({ symbol: 'EURUSD-PERP', candle_width: '1m', start_timestamp_ns: '1', end_timestamp_ns: '2' })).candles.length).toBe(60);
    expect((await rest.lastCandle({ symbol: 'EURUSD-PERP', candle_width: '1m' })).candle.symbol).toBe('EURUSD-PERP');
    expect((await rest.fundingSlots({ symbol: 'EURUSD-PERP' })).variant).toBe('daily_close');
    const im = await rest.initialMarginRequirement({
      kind: 'place', symbol: asSymbol('EURUSD-PERP'), side: 'buy', priceTicks: 11383, qty: 100, tif: 'GTC', postOnly: false, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(1), tag: null,
    });
    expect(im.im_pct).toBeTruthy();
    await rest.close();
  });

  it('sends order bodies with the cid as a bare integer and the account id', async () => {
    const { rest, t } = client([at('POST', '/orders/place-order', '{"oid":"O-1"}'), at('POST', '/orders/cancel-order', '{"cxl_rx":true}')]);
    await rest.placeOrder({
      kind: 'place', symbol: asSymbol('EURUSD-PERP'), side: 'sell', priceTicks: 11390, qty: 100, tif: 'GTC', postOnly: true, reprice: 'bo', selfTrade: 'CancelResting', clientOrderId: asClientOrderId('18446744073709551615'), tag: 'mm1',
    });
    expect(t.seen.at(-1)!.body).toBe('{"s":"EURUSD-PERP","d":"S","q":100,"p":"1.1390","tif":"GTC","po":true,"rb":"bo","st":"CancelResting","tag":"mm1","cid":18446744073709551615,"aid":"fixture-0001"}');
    await rest.cancelOrder({ orderId: asVenueOrderId('O-1'), clientOrderId: null });
    expect(JSON.parse(t.seen.at(-1)!.body!)).toEqual({ oid: 'O-1', aid: 'fixture-0001' });
    await rest.close();
  });

  it('a body that does not match the wire type is DECODE_FAILED naming the JSON path', async () => {
    const { rest } = client([at('GET', '/api/positions', '{"positions":[{"symbol":3}]}')]);
    await expect(rest.positions()).rejects.toMatchObject({ code: 'DECODE_FAILED', message: expect.stringContaining('$.positions[0]') });
    await rest.close();
  });

  it('cancel-all and sandbox transfers are checked as objects; undocumented bodies are handed back as they are', async () => {
    const { rest } = client([
      at('POST', '/orders/cancel-all-orders', '{}'),
      at('POST', '/api/sandbox/deposit', '{"account_id":"A","amount":"5"}'),
      at('POST', '/api/sandbox/withdraw', '[1]'),
      at('POST', '/api/logout', '"bye"'),
    ]);
    await expect(rest.cancelAllOrders()).resolves.toBeUndefined();
    expect(await rest.sandboxDeposit({ amount: '5', symbol: 'USD' })).toEqual({ account_id: 'A', amount: '5' });
    await expect(rest.sandboxWithdraw({ amount: '5', symbol: 'USD' })).rejects.toMatchObject({ code: 'DECODE_FAILED', message: expect.stringContaining('expected object') });
    expect(await rest.logout()).toBe('bye');
    await rest.close();
  });

  it('a cancel-all answer that is not a JSON object is DECODE_FAILED', async () => {
    const { rest } = client([at('POST', '/orders/cancel-all-orders', '[]')]);
    await expect(rest.cancelAllOrders()).rejects.toMatchObject({ code: 'DECODE_FAILED' });
    await rest.close();
  });

  it('keeps u64 client order ids above 2^53 exact in REST responses', async () => {
    const big = fixtureText('order-status-filled.json').replace(/"clord_id": *10000/, '"clord_id": 18446744073709551615');
    const { rest } = client([at('GET', '/orders/order-status', big)]);
    expect((await rest.orderStatus({ clientOrderId: asClientOrderId('18446744073709551615') }))?.clientOrderId).toBe('18446744073709551615');
    await rest.close();
  });
});
