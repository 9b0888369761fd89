import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { marketVenue, type MarketHarness } from './harness.ts';

const T0 = Date.parse('2026-09-24T14:50:00Z'); // Thursday; 16:00 London = 15:00Z; NVDA slots every 30 min from 14:00Z
const QUIET = { market: { enabled: false }, rewards: { enabled: false }, liquidation: { enabled: false }, mark_stale_ms: 86_400_000 };

describe('funding settlement, transactions, estimates and slots', () => {
  let h: MarketHarness;
  let clock: VirtualClock;
  let A: string, B: string, C: string, D: string;
  let early: { status: string; reason: string; funding_rate: unknown };
  const actor = (id: string) => ({ userId: h.venue.defaultUser.id, accountId: id });
  const trade = (buyer: string, seller: string, symbol: string, price: string, qty: number) => {
    h.venue.placeNow(actor(seller), { symbol, side: 'sell', qty, price, tif: 'GTC', postOnly: false });
    const o = h.venue.placeNow(actor(buyer), { symbol, side: 'buy', qty, price, tif: 'IOC', postOnly: false });
    expect(o.filledQty).toBe(qty);
  };

  beforeAll(async () => {
    clock = new VirtualClock(T0);
    h = await marketVenue({ ...QUIET, instruments: { only: ['EURUSD-PERP', 'NVDA-PERP', 'XAU-PERP'] } }, { clock });
    [A, B] = h.venue.defaultUser.accountIds as [string, string];
    C = h.venue.accounts.addAccount(h.venue.defaultUser.id, { name: 'c' }).id;
    D = h.venue.accounts.addAccount(h.venue.defaultUser.id, { name: 'd' }).id;
    early = (await h.get('/api/estimated-funding-rate?symbol=NVDA-PERP', 'estimated-funding')).body;
    clock.advanceBy(60_000);
    trade(A, B, 'EURUSD-PERP', '1.1410', 100); // held across the settlement
    trade(C, D, 'EURUSD-PERP', '1.1410', 200); // opened ...
    clock.advanceBy(60_000);
    trade(D, C, 'EURUSD-PERP', '1.1410', 200); // ... and closed before it
    trade(A, B, 'NVDA-PERP', '188.50', 10);
    clock.advanceBy(60_000);
  });
  afterAll(async () => h.close());

  it('estimated funding: unavailable without enough mark data, then ready, 404 for unsupported symbols', async () => {
    expect(early).toMatchObject({ status: 'unavailable', funding_rate: null });
    expect(early.reason).toMatch(/not enough mark price data/);
    // NVDA is estimated_funding_supported; a few minutes later the mark window is long enough.
    const ready = await h.get('/api/estimated-funding-rate?symbol=NVDA-PERP', 'estimated-funding');
    expect(ready.body.status).toBe('ready');
    expect(Number(ready.body.settlement_price)).toBeGreaterThan(Number(ready.body.benchmark_price));
    expect(Number(ready.body.funding_rate)).toBeGreaterThan(0);
    const unsupported = await h.get('/api/estimated-funding-rate?symbol=EURUSD-PERP');
    expect(unsupported.status).toBe(404);
    const ws = await h.orders();
    const ef = await ws.request({ rid: 5, t: 'ef', symbol: 'NVDA-PERP' });
    expect(ef.res).toMatchObject({ symbol: 'NVDA-PERP', status: 'ready' });
    const no = await ws.request({ rid: 6, t: 'ef', symbol: 'EURUSD-PERP' });
    expect(no.err.code).toBe(404);
  });

  it('daily_close: only the position held across the settlement pays; longs pay when mark > benchmark', async () => {
    clock.advanceTo(Date.parse('2026-09-24T15:00:00Z'));
    const pending = await h.get('/api/estimated-funding-rate?symbol=NVDA-PERP', 'estimated-funding');
    expect(pending.body).toMatchObject({ status: 'settlement_pending', funding_rate: null, settlement_price: null });
    expect(pending.body.reason).toMatch(/pending/);

    const txA = await h.get(`/api/funding-transactions?account_id=${A}&symbol=EURUSD-PERP`, 'funding-transactions');
    expect(txA.body.funding_transactions).toHaveLength(1);
    const row = txA.body.funding_transactions[0];
    expect(row).toMatchObject({ account_id: A, symbol: 'EURUSD-PERP', transaction_type: 'funding', currency: 'USD' });
    expect(Number(row.funding_amount)).toBeCloseTo(0.0009, 10); // 1.1410 − 1.1401
    expect(Number(row.amount)).toBeCloseTo(-0.09, 10);
    expect(row.timestamp.startsWith('2026-09-24T15:00:00')).toBe(true);
    const txB = await h.get(`/api/funding-transactions?account_id=${B}&symbol=EURUSD-PERP`, 'funding-transactions');
    expect(Number(txB.body.funding_transactions[0].amount)).toBeCloseTo(0.09, 10);
    for (const id of [C, D]) {
      const tx = await h.get(`/api/funding-transactions?account_id=${id}`, 'funding-transactions');
      expect(tx.body.funding_transactions).toEqual([]);
      expect(tx.body.total_count).toBe(0);
    }
    const rates = await h.get('/api/funding-rates?symbol=EURUSD-PERP', 'funding-rates');
    expect(rates.body.funding_rates).toHaveLength(1);
    expect(rates.body.funding_rates[0]).toMatchObject({ symbol: 'EURUSD-PERP', settlement_price: '1.141000000000', benchmark_price: '1.140100000000' });
    // Bands reset around the new settlement price.
    const tick = await h.get('/api/ticker?symbol=EURUSD-PERP', 'ticker');
    expect(tick.body.ticker).toMatchObject({ lsp: '1.141', pl: '1.0269', pu: '1.2551', lst: Date.parse('2026-09-24T15:00:00Z') / 1000 });
  });

  it('intraday_twap: each slot charges its capped share; cursor paging over rates and transactions', async () => {
    clock.advanceTo(Date.parse('2026-09-24T16:01:30Z'));
    const slots = await h.get('/api/funding-slots?symbol=NVDA-PERP&date=2026-09-24', 'funding-slots');
    const r = slots.body;
    expect(r).toMatchObject({ variant: 'intraday_twap', interval_count: 13, timezone: 'America/New_York', cap_bps: '8.0', slot_interval_minutes: 30 });
    expect(r.slots.map((s: { status: string }) => s.status).slice(0, 6)).toEqual(['pending', 'pending', 'realized', 'realized', 'realized', 'projected']);
    const realized = r.slots.filter((s: { status: string }) => s.status === 'realized');
    const sum = realized.reduce((s: number, x: { funding_rate_bps: string }) => s + Number(x.funding_rate_bps), 0);
    expect(Number(r.realized_sum_bps)).toBeCloseTo(sum, 4);
    expect(Number(realized[1].funding_rate_bps)).toBeCloseTo(Number(realized[1].premium_bps) / 13, 4);
    expect(Number(r.projected_eod_bps)).toBeGreaterThan(Number(r.realized_sum_bps));

    const p1 = await h.get(`/api/funding-transactions?account_id=${A}&symbol=NVDA-PERP&limit=2`, 'funding-transactions');
    expect(p1.body.funding_transactions).toHaveLength(2);
    expect(p1.body.total_count).toBe(3);
    expect(p1.body.next_cursor).toBeTruthy();
    const ts = p1.body.funding_transactions.map((t: { timestamp: string }) => t.timestamp);
    expect(ts[0] > ts[1]).toBe(true); // newest first
    const p2 = await h.get(`/api/funding-transactions?account_id=${A}&symbol=NVDA-PERP&limit=2&cursor=${encodeURIComponent(p1.body.next_cursor)}`, 'funding-transactions');
    expect(p2.body.funding_transactions).toHaveLength(1);
    expect(p2.body.next_cursor).toBeUndefined();
    expect(Number(p2.body.funding_transactions[0].amount)).toBeLessThan(0); // long pays a positive premium

    const asc = await h.get('/api/funding-rates?symbol=NVDA-PERP&sort_ts=asc&limit=2', 'funding-rates');
    expect(asc.body.funding_rates.map((x: { timestamp_ns: number }) => x.timestamp_ns)).toEqual([Date.parse('2026-09-24T15:00:00Z') * 1e6, Date.parse('2026-09-24T15:30:00Z') * 1e6]);
    const rest = await h.get(`/api/funding-rates?symbol=NVDA-PERP&sort_ts=asc&limit=2&cursor=${encodeURIComponent(asc.body.next_cursor)}`, 'funding-rates');
    expect(rest.body.funding_rates).toHaveLength(1);
  });

  it('funding-transactions: unbounded by default, range filters, 400 on inverted range', async () => {
    const start = BigInt(Date.parse('2026-09-24T15:10:00Z')) * 1_000_000n;
    const end = BigInt(Date.parse('2026-09-24T15:40:00Z')) * 1_000_000n;
    const ranged = await h.get(`/api/funding-transactions?account_id=${A}&start_timestamp_ns=${start}&end_timestamp_ns=${end}`, 'funding-transactions');
    expect(ranged.body.funding_transactions).toHaveLength(1); // the 15:30 NVDA slot
    const all = await h.get(`/api/funding-transactions?account_id=${A}`, 'funding-transactions');
    expect(all.body.total_count).toBe(4);
    const inverted = await h.get(`/api/funding-transactions?start_timestamp_ns=${end}&end_timestamp_ns=${start}`);
    expect(inverted.status).toBe(400);
    expect(inverted.body.error).toMatch(/end_timestamp_ns/);
    const equal = await h.get(`/api/funding-transactions?start_timestamp_ns=${end}&end_timestamp_ns=${end}`);
    expect(equal.status).toBe(400);
  });
});

describe('dated futures', () => {
  it('settle finally at expiry: positions close at the settlement price and the instrument is delisted', async () => {
    const clock = new VirtualClock(Date.parse('2026-09-30T14:58:00Z'));
    const h = await marketVenue({ ...QUIET, instruments: { only: ['XAU-2026-SEP'] } }, { clock });
    try {
      const [A, B] = h.venue.defaultUser.accountIds as [string, string];
      const act = (id: string) => ({ userId: h.venue.defaultUser.id, accountId: id });
      h.venue.placeNow(act(B), { symbol: 'XAU-2026-SEP', side: 'sell', qty: 3, price: '4020.0', tif: 'GTC', postOnly: false });
      h.venue.placeNow(act(A), { symbol: 'XAU-2026-SEP', side: 'buy', qty: 2, price: '4020.0', tif: 'IOC', postOnly: false });
      clock.advanceTo(Date.parse('2026-09-30T15:00:01Z'));
      const pos = await h.get('/api/positions', 'positions');
      const p = pos.body.positions.find((x: { symbol: string }) => x.symbol === 'XAU-2026-SEP');
      expect(p.signed_quantity).toBe(0);
      const tx = await h.get(`/api/funding-transactions?account_id=${A}`, 'funding-transactions');
      expect(tx.body.funding_transactions[0]).toMatchObject({ transaction_type: 'final_settlement', symbol: 'XAU-2026-SEP', settlement_price: '4020.000000000000' });
      expect(tx.body.funding_transactions[0].funding_rate).toBeUndefined();
      const tick = await h.get('/api/ticker?symbol=XAU-2026-SEP', 'ticker');
      expect(tick.body.ticker.i).toBe('DELISTED');
      const open = await h.get(`/orders/open-orders?account_id=${B}`);
      expect(open.body.orders).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
