import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { RingBuffer } from '../../src/sim/history/ring-buffer.ts';
import { FundingStore } from '../../src/sim/funding/funding-store.ts';
import { parseVenueConfig } from '../../src/sim/config/venue-config.ts';
import { AuthService, TOKEN_GRACE_MS } from '../../src/sim/auth/auth-service.ts';
import { Venue } from '../../src/sim/venue.ts';
import { decodeFillsResponse, decodeTransactionsResponse } from '../../src/wire/index.ts';
import { limit, setup, type Harness } from './helpers.ts';

describe('RingBuffer', () => {
  it('keeps the newest capacity items in order and counts what it dropped', () => {
    const r = new RingBuffer<number>(3);
    for (let i = 1; i <= 7; i++) r.push(i);
    expect([...r]).toEqual([5, 6, 7]);
    expect(r.length).toBe(3);
    expect(r.dropped).toBe(4);
    expect(r.at(0)).toBe(5);
    expect(r.at(-1)).toBe(7);
    expect(r.last()).toBe(7);
    expect(r.filter((x) => x % 2 === 1)).toEqual([5, 7]);
    r.clear();
    expect(r.toArray()).toEqual([]);
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});

describe('venue history retention', () => {
  it('every account history is bounded by the retention knobs', () => {
    const v = new Venue({
      clock: new VirtualClock(Date.UTC(2026, 8, 24)),
      config: parseVenueConfig({ rate_limit: { enabled: false }, retention: { fills_per_account: 4, ledger_per_account: 6, orders_per_account: 10 } }),
    });
    const [main, second] = v.defaultUser.accountIds as [string, string];
    const a = { userId: v.defaultUser.id, accountId: main };
    const b = { userId: v.defaultUser.id, accountId: second };
    for (let i = 0; i < 30; i++) {
      v.placeNow(b, { symbol: 'EURUSD-PERP', side: i % 2 ? 'buy' : 'sell', qty: 100, price: '1.1400', tif: 'GTC', postOnly: false });
      v.placeNow(a, { symbol: 'EURUSD-PERP', side: i % 2 ? 'sell' : 'buy', qty: 100, price: '1.1400', tif: 'IOC', postOnly: false });
    }
    const acct = v.accounts.account(main)!;
    expect(acct.fills.length).toBe(4);
    expect(acct.fills.dropped).toBe(26);
    expect(acct.ledger.length).toBe(6);
    // The newest survive, oldest first.
    const ts = acct.fills.toArray().map((f) => f.tsNs);
    expect([...ts].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(ts);
    expect(acct.orderIds.length).toBeLessThanOrEqual(11);
  });

  it('rejects a non-positive retention with the key named', () => {
    expect(() => parseVenueConfig({ retention: { fills_per_account: 0 } }, 'v.yaml')).toThrow(/v\.yaml: retention\.fills_per_account/);
  });

  it('funding slot outcomes keep the newest days per symbol', () => {
    const s = new FundingStore({ rates: 10, transactions: 10, slotDays: 2 });
    const o = { index: 0, atMs: 0, status: 'skipped' as const, markTwap: null, underlyingTwap: null, premiumBps: null, rateBps: null, capped: false, reason: 'x' };
    for (const d of ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']) {
      s.addSlot('A', d, o);
      s.addSlot('B', d, o);
    }
    expect([...s.slots.keys()].sort()).toEqual(['A|2026-01-03', 'A|2026-01-04', 'B|2026-01-03', 'B|2026-01-04']);
  });

  it('expired session tokens are forgotten after the grace period, at a later login', () => {
    const clock = new VirtualClock(0);
    const v = new Venue({ clock });
    const auth: AuthService = v.auth;
    const { api_key, api_secret } = v.credentials;
    const first = auth.authenticate(api_key, api_secret, 60, '127.0.0.1');
    expect(first.ok).toBe(true);
    for (let i = 0; i < 50; i++) auth.authenticate(api_key, api_secret, 60, '127.0.0.1');
    clock.advanceBy(61_000);
    // Within the grace an expired token still says why it fails.
    const t = first.ok ? first.value.token : '';
    expect(auth.resolve(`Bearer ${t}`, '127.0.0.1')).toMatchObject({ ok: false, error: { status: 401, message: 'token expired' } });
    clock.advanceBy(TOKEN_GRACE_MS);
    auth.authenticate(api_key, api_secret, 60, '127.0.0.1');
    expect(auth.tokenCount).toBe(1);
  });
});

describe('retention over REST', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await setup({ config: { rate_limit: { enabled: false }, retention: { fills_per_account: 3, ledger_per_account: 5 } } });
  });
  afterAll(() => h.close());

  it('/api/fills and /api/transactions return the retained newest rows', async () => {
    for (let i = 0; i < 6; i++) {
      await h.rest('POST', '/orders/place-order', { ...limit('S', 100, '1.1388'), aid: h.account2 });
      await h.rest('POST', '/orders/place-order', { ...limit('B', 100, '1.1408'), tif: 'IOC' });
    }
    const now = BigInt(Date.now()) * 1_000_000n;
    const q = `start_timestamp_ns=${now - 86_400_000_000_000n}&end_timestamp_ns=${now + 86_400_000_000_000n}`;
    const f = await h.rest('GET', `/api/fills?${q}`, undefined, h.token, decodeFillsResponse);
    expect(f.body.total_count).toBe(3);
    const tx = await h.rest('GET', `/api/transactions?${q}`, undefined, h.token, decodeTransactionsResponse);
    expect(tx.body.transactions.length).toBeLessThanOrEqual(5);
  });
});
