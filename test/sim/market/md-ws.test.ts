import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { marketVenue, type MarketHarness } from './harness.ts';

const QUIET = { market: { enabled: false }, rewards: { enabled: false }, funding: { enabled: false }, md: { ticker_interval_ms: 200 } };

describe('market-data WebSocket /md/ws', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await marketVenue({ ...QUIET, instruments: { only: ['EURUSD-PERP', 'XAU-PERP', 'NVDA-PERP'] } });
  });
  afterAll(async () => h.close());

  /** Places as the primary account, or the second account (`other`) so aggressors do not self-trade. */
  const place = (side: 'buy' | 'sell', price: string, qty = 100, symbol = 'EURUSD-PERP', other = false) => {
    const a = h.venue.accounts.account(other ? h.venue.defaultUser.accountIds[1]! : h.account)!;
    return h.venue.placeNow({ userId: a.userId, accountId: a.id }, { symbol, side, qty, price, tif: 'GTC', postOnly: false });
  };

  it('subscribes LEVEL_2: reply, ticker and a snapshot right away, then a snapshot on every change', async () => {
    place('buy', '1.1400', 200);
    place('sell', '1.1410', 300);
    const c = await h.md();
    const reply = await c.request({ rid: 1, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_2' });
    expect(reply).toEqual({ rid: 1, result: { subscribed: 'EURUSD-PERP' } });
    const snap = await c.waitFor((f) => f.t === '2');
    expect(snap).toMatchObject({ s: 'EURUSD-PERP', st: true, b: [{ p: '1.1400', q: 200 }], a: [{ p: '1.1410', q: 300 }] });
    const tick = await c.waitFor((f) => f.t === 's');
    expect(tick).toMatchObject({ s: 'EURUSD-PERP', bp: '1.1400', ap: '1.1410', i: 'OPEN', lsp: '1.1401' });
    const before = c.frames.filter((f) => f.t === '2').length;
    place('buy', '1.1402', 100);
    const next = await c.waitFor((f) => f.t === '2' && f.b[0].p === '1.1402');
    expect(next.st).toBe(true);
    expect(next.b).toEqual([{ p: '1.1402', q: 100 }, { p: '1.1400', q: 200 }]);
    expect(c.frames.filter((f) => f.t === '2').length).toBe(before + 1);
  });

  it('unknown symbol answers 404 on the same connection, which stays usable', async () => {
    const c = await h.md();
    const err = await c.request({ rid: 6, type: 'subscribe', symbol: 'INVALID-AUDIT', level: 'LEVEL_2' });
    expect(err).toEqual({ rid: 6, error: { message: 'Symbol INVALID-AUDIT is not available', code: 404 } });
    const candleErr = await c.request({ rid: 7, type: 'subscribe_candles', symbol: 'NOPE-PERP', width: '1m' });
    expect(candleErr.error.code).toBe(404);
    const ok = await c.request({ rid: 8, type: 'subscribe', symbol: 'XAU-PERP', level: 'LEVEL_1' });
    expect(ok.result).toEqual({ subscribed: 'XAU-PERP' });
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it('one book subscription per symbol; unsubscribe then subscribe changes level', async () => {
    const c = await h.md();
    await c.request({ rid: 1, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_2' });
    const dup = await c.request({ rid: 2, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_3' });
    expect(dup.error.code).toBe(400);
    expect((await c.request({ rid: 3, type: 'unsubscribe', symbol: 'EURUSD-PERP' })).result).toEqual({ unsubscribed: 'EURUSD-PERP' });
    expect((await c.request({ rid: 4, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_3' })).result).toEqual({ subscribed: 'EURUSD-PERP' });
    const l3 = await c.waitFor((f) => f.t === '3');
    expect(l3.st).toBe(true);
    for (const lv of [...l3.b, ...l3.a]) expect(lv.o.reduce((s: number, x: number) => s + x, 0)).toBe(lv.q);
    const bad = await c.request({ rid: 5, type: 'unsubscribe', symbol: 'XAU-PERP' });
    expect(bad.error.code).toBe(400);
  });

  it('LEVEL_1 sends only touch changes; TRADES sends trades only; trades:false / ticker:false suppress', async () => {
    const l1 = await h.md();
    const tr = await h.md();
    const quiet = await h.md();
    await l1.request({ rid: 1, type: 'subscribe', symbol: 'XAU-PERP', level: 'LEVEL_1' });
    await tr.request({ rid: 1, type: 'subscribe', symbol: 'XAU-PERP', level: 'TRADES' });
    await quiet.request({ rid: 1, type: 'subscribe', symbol: 'XAU-PERP', level: 'LEVEL_2', trades: false, ticker: false });
    await l1.waitFor((f) => f.t === '1');
    place('sell', '4010.0', 5, 'XAU-PERP');
    const top = await l1.waitFor((f) => f.t === '1' && f.a.length === 1 && f.a[0].p === '4010.0');
    expect(top.st).toBeUndefined();
    const n1 = l1.frames.filter((f) => f.t === '1').length;
    place('sell', '4011.0', 5, 'XAU-PERP'); // deeper level: no L1 frame
    await quiet.waitFor((f) => f.t === '2' && f.a.length === 2);
    place('buy', '4010.0', 2, 'XAU-PERP', true);
    const trade = await tr.waitFor((f) => f.t === 't');
    expect(trade).toMatchObject({ p: '4010.0', q: 2, s: 'XAU-PERP', d: 'B' });
    await l1.waitFor((f) => f.t === '1' && f.a[0]?.q === 3);
    expect(l1.frames.filter((f) => f.t === '1').length).toBe(n1 + 1);
    await quiet.waitFor((f) => f.t === '2' && f.a[0]?.q === 3);
    expect(tr.frames.some((f) => f.t === '2' || f.t === 's' || f.t === '1')).toBe(false);
    expect(quiet.frames.some((f) => f.t === 't' || f.t === 's')).toBe(false);
  });

  it('throttles tickers per symbol and carries ef for estimated-funding instruments', async () => {
    const c = await h.md();
    await c.request({ rid: 1, type: 'subscribe', symbol: 'NVDA-PERP', level: 'LEVEL_2' });
    const first = await c.waitFor((f) => f.t === 's');
    expect(first.ef).toMatchObject({ symbol: 'NVDA-PERP', status: 'unavailable' });
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) place(i % 2 ? 'buy' : 'sell', i % 2 ? '180.00' : '190.00', 1, 'NVDA-PERP');
    // The changes do bring a ticker (waited for, not slept on: a loaded machine may be slow)...
    await c.waitFor((f) => f.t === 's' && f !== first);
    await new Promise((r) => setTimeout(r, 450));
    // ...but 20 changes do not bring 20: the first at subscribe, then at most one per 200 ms.
    const tickers = c.frames.filter((f) => f.t === 's');
    expect(tickers.length).toBeLessThanOrEqual(2 + Math.floor((performance.now() - t0) / 200));
  });

  it('streams candles and BBO candles for subscribed widths', async () => {
    const c = await h.md();
    expect((await c.request({ rid: 1, type: 'subscribe_candles', symbol: 'EURUSD-PERP', width: '1m' })).result).toEqual({ subscribed_candle: 'EURUSD-PERP:1m' });
    expect((await c.request({ rid: 2, type: 'subscribe_bbo_candles', symbol: 'EURUSD-PERP', width: '5s' })).result).toEqual({ subscribed_bbo_candle: 'EURUSD-PERP:5s' });
    place('sell', '1.1400', 100, 'EURUSD-PERP', true);
    const candle = await c.waitFor((f) => f.t === 'c');
    expect(candle).toMatchObject({ symbol: 'EURUSD-PERP', width: '1m', close: '1.1402', sell_volume: 100 });
    expect(candle.volume).toBe(candle.buy_volume + candle.sell_volume);
    const bc = await c.waitFor((f) => f.t === 'bc');
    expect(bc.width).toBe('5s');
    expect((await c.request({ rid: 3, type: 'unsubscribe_candles', symbol: 'EURUSD-PERP', width: '1m' })).result).toEqual({ unsubscribed_candle: 'EURUSD-PERP:1m' });
    const badWidth = await c.request({ rid: 4, type: 'subscribe_candles', symbol: 'EURUSD-PERP', width: '2m' });
    expect(badWidth.error.code).toBe(400);
  });

  it('rejects the upgrade without a token (401)', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${h.v.wsUrl}/md/ws`);
      ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(status).toBe(401);
  });
});

describe('delta mode knob', () => {
  it('sends one st:true snapshot then st:false deltas where q 0 removes a level', async () => {
    const h = await marketVenue({ ...QUIET, md: { delta_mode: true }, instruments: { only: ['EURUSD-PERP'] } });
    try {
      const act = { userId: h.venue.defaultUser.id, accountId: h.account };
      const place = (side: 'buy' | 'sell', price: string) => h.venue.placeNow(act, { symbol: 'EURUSD-PERP', side, qty: 100, price, tif: 'GTC', postOnly: false });
      const keep = place('buy', '1.1390');
      const c = await h.md();
      await c.request({ rid: 1, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_2' });
      const snap = await c.waitFor((f) => f.t === '2');
      expect(snap.st).toBe(true);
      const o = place('buy', '1.1395');
      const d1 = await c.waitFor((f) => f.t === '2' && f.st === false);
      expect(d1.b).toEqual([{ p: '1.1395', q: 100 }]);
      h.venue.cancel(act, { oid: o.oid });
      const d2 = await c.waitFor((f) => f.t === '2' && f.st === false && f.b.some((l: { q: number }) => l.q === 0));
      expect(d2.b).toEqual([{ p: '1.1395', q: 0 }]);
      expect(keep.remainingQty).toBe(100);
    } finally {
      await h.close();
    }
  });
});
