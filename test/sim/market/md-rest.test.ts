import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { marketVenue, type MarketHarness } from './harness.ts';

describe('market-data REST', () => {
  let h: MarketHarness;
  let clock: VirtualClock;
  const T0 = Date.parse('2026-09-24T10:00:00Z');
  const act = (i: number) => ({ userId: h.venue.defaultUser.id, accountId: h.venue.defaultUser.accountIds[i]! });
  const place = (i: number, side: 'buy' | 'sell', price: string, qty: number, tif: 'GTC' | 'IOC' = 'GTC') =>
    h.venue.placeNow(act(i), { symbol: 'EURUSD-PERP', side, qty, price, tif, postOnly: false });

  beforeAll(async () => {
    clock = new VirtualClock(T0);
    h = await marketVenue(
      { market: { enabled: false }, rewards: { enabled: false }, funding: { enabled: false }, instruments: { only: ['EURUSD-PERP', 'XAU-PERP', 'SPY-PERP', 'XAU-2026-DEC'] } },
      { clock },
    );
    place(0, 'buy', '1.1398', 30_000);
    place(0, 'buy', '1.1398', 200);
    place(0, 'buy', '1.1396', 100);
    place(0, 'sell', '1.1404', 40_000);
    place(0, 'sell', '1.1405', 100);
    for (let i = 0; i < 120; i++) {
      clock.advanceBy(1_000);
      place(1, i % 2 ? 'buy' : 'sell', i % 2 ? '1.1404' : '1.1398', 100 * (1 + (i % 3)), 'IOC');
    }
  });
  afterAll(async () => h.close());

  it('/api/instruments needs no token; /api/instrument returns the bare record; unknown symbol 404', async () => {
    const all = await h.rest('GET', '/api/instruments', { token: null, as: 'instruments' });
    expect(all.status).toBe(200);
    expect(all.body.instruments.map((i: { symbol: string }) => i.symbol).sort()).toEqual(['EURUSD-PERP', 'SPY-PERP', 'XAU-2026-DEC', 'XAU-PERP']);
    const one = await h.get('/api/instrument?symbol=EURUSD-PERP', 'instrument');
    expect(one.body).toMatchObject({ symbol: 'EURUSD-PERP', tick_size: '0.0001', minimum_order_size: '100' });
    expect((await h.get('/api/instrument?symbol=NOPE')).status).toBe(404);
    expect((await h.get('/api/instrument')).status).toBe(400);
    expect((await h.rest('GET', '/api/ticker?symbol=EURUSD-PERP', { token: null })).status).toBe(401);
  });

  it('/api/book level 2 aggregates, level 3 lists queue sizes', async () => {
    const l2 = await h.get('/api/book?symbol=EURUSD-PERP', 'book');
    expect(l2.body.book.s).toBe('EURUSD-PERP');
    expect(l2.body.book.b[0]).toEqual({ p: '1.1398', q: l2.body.book.b[0].q });
    expect(l2.body.book.b[0].o).toBeUndefined();
    const l3 = await h.get('/api/book?symbol=EURUSD-PERP&level=3', 'book');
    const lvl = l3.body.book.b[0];
    expect(lvl.o.reduce((s: number, x: number) => s + x, 0)).toBe(lvl.q);
    expect(lvl.o.length).toBe(2);
    expect((await h.get('/api/book?symbol=EURUSD-PERP&level=4')).status).toBe(400);
  });

  it('/api/ticker and /api/tickers with limit/offset/sort and {error} bodies', async () => {
    const t = await h.get('/api/ticker?symbol=EURUSD-PERP', 'ticker');
    expect(t.body.ticker).toMatchObject({ s: 'EURUSD-PERP', bp: '1.1398', ap: '1.1404', i: 'OPEN', lsp: '1.1401', pl: '1.0261', pu: '1.2541' });
    expect(t.body.ticker.v).toBeGreaterThan(0);
    const spy = await h.get('/api/ticker?symbol=SPY-PERP', 'ticker');
    expect(spy.body.ticker).toMatchObject({ p: null, q: 0, o: null, h: null, l: null });
    expect(spy.body.ticker.bp).toBeUndefined();
    const page = await h.get('/api/tickers?limit=2&offset=1', 'tickers');
    expect(page.body).toMatchObject({ limit: 2, offset: 1, total_count: 4 });
    expect(page.body.tickers.map((x: { s: string }) => x.s)).toEqual(['SPY-PERP', 'XAU-2026-DEC']);
    const desc = await h.get('/api/tickers?sort=symbol:desc', 'tickers');
    expect(desc.body.tickers[0].s).toBe('XAU-PERP');
    const bad = await h.get('/api/tickers?sort=volume');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['error']);
    expect((await h.get('/api/tickers?limit=-1')).status).toBe(400);
  });

  it('/api/trades newest first, default 10, limit at most 100', async () => {
    const d = await h.get('/api/trades?symbol=EURUSD-PERP', 'trades');
    expect(d.body.trades).toHaveLength(10);
    const ts = d.body.trades.map((x: { ts: number; tn: number }) => x.ts * 1e9 + x.tn);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    expect(d.body.trades[0]).toMatchObject({ s: 'EURUSD-PERP', d: 'B', p: '1.1404' });
    expect((await h.get('/api/trades?symbol=EURUSD-PERP&limit=100', 'trades')).body.trades).toHaveLength(100);
    expect((await h.get('/api/trades?symbol=EURUSD-PERP&limit=101')).status).toBe(400);
  });

  it('/api/candles ascending, /candles/current in progress, /candles/last completed', async () => {
    const start = BigInt(T0) * 1_000_000n;
    const c = await h.get(`/api/candles?symbol=EURUSD-PERP&candle_width=1m&start_timestamp_ns=${start}&end_timestamp_ns=${start + 180_000_000_000n}`, 'candles');
    expect(c.body.candles.map((x: { ts: number }) => x.ts)).toEqual([T0 / 1000, T0 / 1000 + 60, T0 / 1000 + 120]);
    const first = c.body.candles[0];
    expect(first.volume).toBe(first.buy_volume + first.sell_volume);
    expect(first).toMatchObject({ width: '1m', high: '1.1404', low: '1.1398' });
    const cur = await h.get('/api/candles/current?symbol=EURUSD-PERP&candle_width=1m', 'candle');
    expect(cur.body.candle.ts).toBe(T0 / 1000 + 120);
    const last = await h.get('/api/candles/last?symbol=EURUSD-PERP&candle_width=1m', 'candle');
    expect(last.body.candle.ts).toBe(T0 / 1000 + 60);
    expect((await h.get('/api/candles/current?symbol=SPY-PERP&candle_width=1m')).status).toBe(404);
    expect((await h.get('/api/candles?symbol=EURUSD-PERP&candle_width=2m')).status).toBe(400);
  });

  it('/api/preview-aggressive-limit-order walks the book; nulls without liquidity', async () => {
    const p = await h.rest('POST', '/api/preview-aggressive-limit-order', { body: { symbol: 'EURUSD-PERP', quantity: 100_000, side: 'S' }, as: 'preview-response' });
    expect(p.body.limit_price).toBe('1.1396');
    expect(p.body.filled_quantity + p.body.remaining_quantity).toBe(100_000);
    expect(p.body.remaining_quantity).toBeGreaterThan(0);
    const none = await h.rest('POST', '/api/preview-aggressive-limit-order', { body: { symbol: 'SPY-PERP', quantity: 1, side: 'B' }, as: 'preview-response' });
    expect(none.body).toEqual({ limit_price: null, vwap: null, filled_quantity: 0, remaining_quantity: 1 });
    expect((await h.rest('POST', '/api/preview-aggressive-limit-order', { body: { symbol: 'SPY-PERP', quantity: 0, side: 'B' } })).status).toBe(400);
  });
});

describe('underlying prices', () => {
  it('serves /api/underlying-prices with cursor paging and the deprecated /api/index-prices alias', async () => {
    const clock = new VirtualClock(Date.parse('2026-09-24T10:00:00Z'));
    const h = await marketVenue({ rewards: { enabled: false }, instruments: { only: ['EURUSD-PERP'] } }, { clock });
    try {
      clock.advanceBy(10 * 60_000 + 30_000);
      const p1 = await h.get('/api/underlying-prices?symbol=EURUSD-PERP&limit=4', 'underlying-prices');
      expect(p1.body.underlying_prices).toHaveLength(4);
      // Downsampled to one row per venue minute (the minute's latest observation): 10:00 … 10:10.
      expect(p1.body.total_count).toBe(11);
      expect(p1.body.underlying_prices[0].timestamp > p1.body.underlying_prices[1].timestamp).toBe(true);
      const minutes = (await h.get('/api/underlying-prices?symbol=EURUSD-PERP&sort_ts=asc&limit=100', 'underlying-prices')).body.underlying_prices.map((r: { timestamp: string }) => r.timestamp.slice(11, 16));
      expect(minutes).toEqual(['10:00', '10:01', '10:02', '10:03', '10:04', '10:05', '10:06', '10:07', '10:08', '10:09', '10:10']);
      const p2 = await h.get(`/api/underlying-prices?symbol=EURUSD-PERP&limit=4&cursor=${p1.body.next_cursor}`, 'underlying-prices');
      expect(p2.body.underlying_prices[0].timestamp < p1.body.underlying_prices[3].timestamp).toBe(true);
      const alias = await h.get('/api/index-prices?symbol=EURUSD-PERP&limit=4', 'underlying-prices');
      expect(alias.body.index_prices).toEqual(p1.body.underlying_prices);
      expect((await h.get('/api/underlying-prices?symbol=EURUSD-PERP&cursor=bogus')).status).toBe(400);
    } finally {
      await h.close();
    }
  });
});
