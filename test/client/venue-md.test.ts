import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import type { BookUpdated, TickerUpdated } from '../../src/domain/events.ts';
import type { Order } from '../../src/domain/order.ts';
import type { RunningVenue } from '../../src/sim/index.ts';
import { connectVenue, type VenueConnection } from '../../src/client/connect.ts';
import { bid, FAST, TEST_KEY, testVenue, until } from '../support/venue-harness.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A venue with the sim-market plugins (md, flow) so /api/instruments and /md/ws exist. */
async function marketVenue(port = 0, extra: Record<string, unknown> = {}): Promise<RunningVenue> {
  const { marketPlugins } = await import('../../src/sim/market/index.ts');
  const { defaultVenueConfig, parseVenueConfig } = await import('../../src/sim/index.ts');
  const config = parseVenueConfig({
    ...defaultVenueConfig(),
    rate_limit: { enabled: false },
    ack_latency_ms: 0, // resync checks below read the venue right after a place
    instruments: { only: ['EURUSD-PERP', 'GBPUSD-PERP'], prices: {}, states: {} },
    default_user: { api_key: TEST_KEY.api_key, api_secret: TEST_KEY.api_secret },
    market: { step_ms: 50 },
    md: { ticker_interval_ms: 100 },
    ...extra,
  });
  const v = await testVenue({ port, config, plugins: marketPlugins(config) });
  return v;
}

async function connect(v: RunningVenue): Promise<{ c: VenueConnection; books: BookUpdated[]; tickers: TickerUpdated[]; resyncs: (readonly Order[])[] }> {
  const c = await connectVenue({
    baseUrl: v.baseUrl,
    clock: new LiveClock(),
    credentials: { apiKey: TEST_KEY.api_key, apiSecret: TEST_KEY.api_secret },
    reconnect: FAST,
    snapshotTimeoutMs: 500,
    staleAfterMs: 0,
  });
  cleanups.push(() => c.close());
  const books: BookUpdated[] = [];
  const tickers: TickerUpdated[] = [];
  const resyncs: (readonly Order[])[] = [];
  c.marketData.books$.subscribe((b) => books.push(b));
  c.marketData.tickers$.subscribe((t) => tickers.push(t));
  c.orders.resync$.subscribe((r) => resyncs.push(r));
  return { c, books, tickers, resyncs };
}

const openAtVenue = (v: RunningVenue): string[] => [...v.venue.accounts.account(v.credentials.account_id)!.open.values()].map((o) => o.oid).sort();

describe('client ⇄ local venue with market data', () => {
  it('loads instruments over REST, gets a book snapshot and a ticker over /md/ws', async () => {
    const v = await marketVenue();
    cleanups.push(() => v.stop());
    const { c, books, tickers } = await connect(v);
    expect(c.instruments.get('EURUSD-PERP')?.grid.decimals).toBe(4);
    c.marketData.subscribeBook('EURUSD-PERP');
    await until(() => books.length > 0 && tickers.length > 0, 5_000, 'snapshot and ticker');
    const book = c.marketData.book('EURUSD-PERP')!;
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.bids[0]!.priceTicks).toBeLessThan(book.asks[0]!.priceTicks);
  });

  it('connections dropped: both sockets reconnect, subscriptions return, fresh snapshot, exact resync', async () => {
    const v = await marketVenue();
    cleanups.push(() => v.stop());
    const { c, books, resyncs } = await connect(v);
    c.marketData.subscribeBook('EURUSD-PERP');
    await until(() => c.orders.connected && books.length > 0, 5_000, 'ready');
    const keep = await c.rest.placeOrder(bid(10_900));
    await c.gateway.place(bid(10_901)); // on the WS: cancelled by cancel-on-disconnect
    const before = books.length;
    const mdOpens = c.marketData.reconnects;
    v.venue.knobs.dropConnections();
    await until(() => resyncs.length >= 2 && c.marketData.reconnects > mdOpens && books.length > before && c.marketData.isLive('EURUSD-PERP'), 5_000, 'recovered');
    expect(resyncs.at(-1)!.map((o) => o.orderId).sort()).toEqual(openAtVenue(v));
    expect(openAtVenue(v)).toEqual([keep.orderId]);
  });

  it('venue killed and restarted on the same port mid-stream: everything comes back', async () => {
    const v1 = await marketVenue();
    const port = Number(new URL(v1.baseUrl).port);
    const { c, books, resyncs } = await connect(v1);
    c.marketData.subscribeBook('EURUSD-PERP');
    await until(() => c.orders.connected && books.length > 0, 5_000, 'ready');
    await c.rest.placeOrder(bid(10_900));
    await v1.stop();
    await until(() => !c.orders.connected && !c.marketData.connected, 5_000, 'down');
    const n = books.length;
    const v2 = await marketVenue(port);
    cleanups.push(() => v2.stop());
    await until(() => resyncs.length >= 2 && books.length > n && c.marketData.isLive('EURUSD-PERP'), 5_000, 'back');
    expect(resyncs.at(-1)!.map((o) => o.orderId)).toEqual(openAtVenue(v2));
    const placed = await c.gateway.place(bid(10_905));
    expect(openAtVenue(v2)).toContain(placed.orderId);
  });
});

describe('client ⇄ local venue: delta books and heartbeats', () => {
  it('a book maintained from st:false deltas equals the venue\'s REST book', async () => {
    const v = await marketVenue(0, { market: { enabled: false }, md: { delta_mode: true, ticker_interval_ms: 100 } });
    cleanups.push(() => v.stop());
    const { c, books } = await connect(v);
    c.marketData.subscribeBook('EURUSD-PERP');
    await until(() => c.marketData.isLive('EURUSD-PERP') && c.orders.connected, 5_000, 'live');
    const placed = [];
    for (let i = 0; i < 6; i++) placed.push(await c.rest.placeOrder(bid(10_990 - (i % 3), 100 + i)));
    await c.rest.cancelOrder({ orderId: placed[1]!.orderId, clientOrderId: null });
    await c.rest.cancelOrder({ orderId: placed[4]!.orderId, clientOrderId: null });
    const want = [
      { priceTicks: 10_990, qty: 100 + 103 },
      { priceTicks: 10_989, qty: 0 + 0 },
      { priceTicks: 10_988, qty: 102 + 105 },
    ].filter((l) => l.qty > 0);
    await until(() => JSON.stringify(c.marketData.book('EURUSD-PERP')?.bids) === JSON.stringify(want), 5_000, 'delta book converged');
    const rest = await c.rest.book('EURUSD-PERP');
    const grid = c.instruments.get('EURUSD-PERP')!.grid;
    expect(rest.book.b.map((l) => ({ priceTicks: grid.toTicks(l.p), qty: l.q }))).toEqual(want);
    expect(books.length).toBeGreaterThan(1);
    expect(c.marketData.stats.deltaFrames).toBeGreaterThan(0);
    expect(c.marketData.stats.recoveries).toBe(0);
  });

  it('client heartbeats keep a session with client_heartbeat_timeout alive', async () => {
    const v = await marketVenue(0, { market: { enabled: false } });
    cleanups.push(() => v.stop());
    const c = await connectVenue({
      baseUrl: v.baseUrl,
      clock: new LiveClock(),
      credentials: { apiKey: TEST_KEY.api_key, apiSecret: TEST_KEY.api_secret },
      reconnect: FAST,
      clientHeartbeatTimeoutS: 1,
    });
    cleanups.push(() => c.close());
    await until(() => c.orders.connected, 5_000, 'login');
    // Waited for rather than slept on (a loaded machine may be slow); the session must survive them.
    await until(() => c.orders.stats.heartbeatsSent >= 3, 10_000, 'three client heartbeats');
    expect(c.orders.reconnects).toBe(0);
    expect(c.orders.stats.logins).toBe(1);
  });
});
