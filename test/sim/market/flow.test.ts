import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { marketVenue } from './harness.ts';

describe('synthetic market flow', () => {
  it('default demo settings: an order resting one tick inside the spread on EURUSD-PERP fills within a minute', async () => {
    const clock = new VirtualClock(Date.parse('2026-09-24T10:00:00Z'));
    const h = await marketVenue({}, { clock });
    try {
      clock.advanceBy(2_000);
      const book = (await h.get('/api/book?symbol=EURUSD-PERP', 'book')).body.book;
      expect(book.b.length).toBeGreaterThanOrEqual(5);
      expect(book.a.length).toBeGreaterThanOrEqual(5);
      const bid = Number(book.b[0].p);
      const ask = Number(book.a[0].p);
      expect(ask - bid).toBeGreaterThanOrEqual(0.0002); // room for one tick inside
      const ws = await h.orders();
      const price = (bid + 0.0001).toFixed(4);
      const reply = await ws.request({ rid: 1, t: 'p', s: 'EURUSD-PERP', d: 'B', q: 100, p: price, tif: 'GTC', po: true });
      const oid = reply.res.oid as string;
      clock.advanceBy(h.venue.knobs.ackLatencyMs);
      await ws.waitFor((f) => f.t === 'n' && f.o.oid === oid);
      for (let s = 0; s < 60 && !ws.frames.some((f) => f.t === 'f' && f.o.oid === oid); s++) {
        clock.advanceBy(1_000);
        await new Promise((r) => setImmediate(r));
      }
      const fill = await ws.waitFor((f) => f.t === 'f' && f.o.oid === oid, 2_000);
      expect(fill.xs).toMatchObject({ s: 'EURUSD-PERP', q: 100, p: price, d: 'B', agg: false });
    } finally {
      await h.close();
    }
  });

  it('a bot requoting at the touch gets filled several times a minute; takers hit both sides', async () => {
    const clock = new VirtualClock(Date.parse('2026-09-24T10:00:00Z'));
    const h = await marketVenue({ instruments: { only: ['EURUSD-PERP'] }, rewards: { enabled: false } }, { clock });
    try {
      const act = { userId: h.venue.defaultUser.id, accountId: h.account };
      const book = h.venue.books.get('EURUSD-PERP')!;
      const grid = h.venue.catalog.get('EURUSD-PERP')!.grid;
      clock.advanceBy(1_000);
      let fills = 0;
      h.venue.onOrderEvent(h.account, (e) => {
        if (e.t === 'f' || e.t === 'p') fills++;
      });
      for (let s = 0; s < 60; s++) {
        const acct = h.venue.accounts.account(h.account)!;
        if (acct.open.size < 2) {
          h.venue.cancelAll(h.account);
          const b = book.bestBid()!;
          const a = book.bestAsk()!;
          if (a - b >= 2) {
            h.venue.placeNow(act, { symbol: 'EURUSD-PERP', side: 'buy', qty: 100, price: grid.toPrice(b + 1), tif: 'GTC', postOnly: true });
            h.venue.placeNow(act, { symbol: 'EURUSD-PERP', side: 'sell', qty: 100, price: grid.toPrice(a - 1), tif: 'GTC', postOnly: true });
          }
        }
        clock.advanceBy(1_000);
      }
      expect(fills).toBeGreaterThanOrEqual(3);
      const trades = (await h.get('/api/trades?symbol=EURUSD-PERP&limit=100', 'trades')).body.trades;
      expect(new Set(trades.map((t: { d: string }) => t.d))).toEqual(new Set(['B', 'S']));
    } finally {
      await h.close();
    }
  });

  it('is deterministic for a seed on a virtual clock', async () => {
    const run = async (seed: number) => {
      const clock = new VirtualClock(Date.parse('2026-09-24T10:00:00Z'));
      const h = await marketVenue({ seed, instruments: { only: ['EURUSD-PERP', 'XAU-PERP'] }, rewards: { enabled: false } }, { clock });
      try {
        clock.advanceBy(30_000);
        return (await h.get('/api/trades?symbol=XAU-PERP&limit=100', 'trades')).body.trades.map((t: { p: string; q: number; ts: number; d: string }) => `${t.p}/${t.q}/${t.d}/${t.ts}`);
      } finally {
        await h.close();
      }
    };
    const a = await run(7);
    expect(a.length).toBeGreaterThan(0);
    expect(await run(7)).toEqual(a);
    expect(await run(8)).not.toEqual(a);
  });

  it('clock-speed knob: at 120x on the wall clock, trades stream within a couple of real seconds', async () => {
    const h = await marketVenue({ clock_speed: 120, instruments: { only: ['EURUSD-PERP'] }, rewards: { enabled: false } });
    try {
      const c = await h.md();
      await c.request({ rid: 1, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'TRADES' });
      await c.waitFor(() => c.frames.filter((f) => f.t === 't').length >= 3, 4_000).catch(() => undefined);
      expect(c.frames.filter((f) => f.t === 't').length).toBeGreaterThanOrEqual(3);
    } finally {
      await h.close();
    }
  });

  it('rejects a malformed market section naming the path', async () => {
    await expect(marketVenue({ market: { step_ms: 'fast' } })).rejects.toThrow(/market\.step_ms/);
    await expect(marketVenue({ rewards: { epoch_ms: 1000 } })).rejects.toThrow(/rewards\.epoch_ms/);
  });
});

describe('liquidation', () => {
  it('an account whose equity falls below maintenance margin is closed out with L- orders', async () => {
    const clock = new VirtualClock(Date.parse('2026-09-24T10:00:00Z'));
    const h = await marketVenue({ market: { enabled: false }, rewards: { enabled: false }, funding: { enabled: false }, mark_stale_ms: 86_400_000, instruments: { only: ['EURUSD-PERP'] } }, { clock });
    try {
      const u = h.venue.defaultUser;
      const victim = h.venue.accounts.addAccount(u.id, { name: 'victim', balanceUsd: '10000' }).id;
      const [a, b] = u.accountIds as [string, string];
      const act = (id: string) => ({ userId: u.id, accountId: id });
      const px = (side: 'buy' | 'sell', id: string, price: string, qty: number, tif: 'GTC' | 'IOC' = 'GTC') =>
        h.venue.placeNow(act(id), { symbol: 'EURUSD-PERP', side, qty, price, tif, postOnly: false });
      px('sell', a, '1.1401', 100_000);
      expect(px('buy', victim, '1.1401', 100_000, 'IOC').filledQty).toBe(100_000);
      px('buy', a, '1.0790', 200_000); // liquidity for the close-out
      px('sell', b, '1.0800', 100);
      px('buy', a, '1.0800', 100, 'IOC'); // a trade at 1.0800 moves the mark: victim loses ~6,010 USD
      clock.advanceBy(1_500);
      const risk = h.venue.risk(victim)!;
      expect(h.venue.accounts.account(victim)!.positions.get('EURUSD-PERP')!.signedQty).toBe(0);
      expect(risk.mm.toNumber()).toBe(0);
      const now = BigInt(clock.nowMs()) * 1_000_000n;
      const liq = await h.get(`/api/liquidations?account_id=${victim}&start_timestamp_ns=${now - 3_600_000_000_000n}&end_timestamp_ns=${now + 1n}`);
      expect(liq.status).toBe(200);
      expect(liq.body.liquidations).toHaveLength(1);
      expect(liq.body.liquidations[0]).toMatchObject({ symbol: 'EURUSD-PERP', side: 'S', quantity: 100_000, filled_quantity: 100_000 });
      expect(liq.body.liquidations[0].order_id).toMatch(/^L-[0-9A-HJKMNP-TV-Z]{26}$/);
      const fills = await h.get(`/api/fills?account_id=${victim}&start_timestamp_ns=${now - 3_600_000_000_000n}&end_timestamp_ns=${now + 1n}`, 'fills');
      expect(fills.body.fills.some((f: { order_id: string }) => f.order_id.startsWith('L-'))).toBe(true);
    } finally {
      await h.close();
    }
  });
});
