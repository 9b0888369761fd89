import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import type { MmError } from '../../src/core/errors.ts';
import type { BookUpdated, CandleUpdated, TickerUpdated, TradePrinted } from '../../src/domain/events.ts';
import { MarketDataWsClient, type StaleState } from '../../src/client/md-ws-client.ts';
import type { StreamConnection } from '../../src/client/stream-types.ts';
import { fakeSocketFactory, type FakeSocket } from '../support/fake-socket.ts';
import { fixtureCatalog, fixtureText } from '../support/fixture-catalog.ts';
import { flush } from '../support/drive-clock.ts';

const catalog = fixtureCatalog();

function setup(opts: { staleAfterMs?: number } = {}) {
  const clock = new VirtualClock(1_790_222_018_000);
  const fake = fakeSocketFactory();
  const md = new MarketDataWsClient({
    wsUrl: 'ws://venue:1/',
    clock,
    tokens: { token: async () => 'tok', renew: async () => 'tok2' },
    instruments: catalog,
    snapshotTimeoutMs: 1_000,
    staleAfterMs: opts.staleAfterMs ?? 0,
    idleTimeoutMs: 0,
    reconnect: { initialMs: 100, maxMs: 100, multiplier: 1, jitter: 0 },
    socketFactory: fake.factory,
  });
  const books: BookUpdated[] = [];
  const tickers: TickerUpdated[] = [];
  const trades: TradePrinted[] = [];
  const candles: CandleUpdated[] = [];
  const stale: StaleState[] = [];
  const errors: MmError[] = [];
  const conn: StreamConnection[] = [];
  md.books$.subscribe((b) => books.push(b));
  md.tickers$.subscribe((t) => tickers.push(t));
  md.trades$.subscribe((t) => trades.push(t));
  md.candles$.subscribe((c) => candles.push(c));
  md.stale$.subscribe((s) => stale.push(s));
  md.errors$.subscribe((e) => errors.push(e));
  md.connection$.subscribe((c) => conn.push(c));
  return { clock, fake, md, books, tickers, trades, candles, stale, errors, conn };
}

async function open(fake: { last(): FakeSocket }): Promise<FakeSocket> {
  await flush();
  const s = fake.last();
  s.open();
  return s;
}

const sent = (s: FakeSocket): Record<string, unknown>[] => s.sent.map((t) => JSON.parse(t) as Record<string, unknown>);
const snap = (sym: string, bids: [string, number][], asks: [string, number][], st = true): string =>
  JSON.stringify({ t: '2', ts: 1790222018, tn: 1, s: sym, b: bids.map(([p, q]) => ({ p, q })), a: asks.map(([p, q]) => ({ p, q })), st });

describe('MarketDataWsClient', () => {
  it('connects to /md/ws with the bearer token and replays the registry on every connect', async () => {
    const { md, fake, clock, conn } = setup();
    md.subscribeBook('GBPUSD-PERP', 2);
    md.subscribeBook('EURUSD-PERP', 1, { trades: false });
    md.subscribeCandles('EURUSD-PERP', '1s');
    md.start();
    const s1 = await open(fake);
    expect(new URL(s1.url).pathname).toBe('/md/ws');
    expect(s1.headers['authorization']).toBe('Bearer tok');
    expect(sent(s1)).toEqual([
      { rid: 1, type: 'subscribe', symbol: 'GBPUSD-PERP', level: 'LEVEL_2' },
      { rid: 2, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_1', trades: false },
      { rid: 3, type: 'subscribe_candles', symbol: 'EURUSD-PERP', width: '1s' },
    ]);
    s1.drop();
    expect(conn.at(-1)).toMatchObject({ connected: false });
    clock.advanceBy(100);
    const s2 = await open(fake);
    expect(sent(s2).map((m) => [m['type'], m['symbol']])).toEqual([
      ['subscribe', 'GBPUSD-PERP'],
      ['subscribe', 'EURUSD-PERP'],
      ['subscribe_candles', 'EURUSD-PERP'],
    ]);
    expect(conn.at(-1)).toMatchObject({ connected: true });
    await md.stop();
  });

  it('maintains a book from the captured snapshot, in ticks, best first', async () => {
    const { md, fake, books } = setup();
    md.subscribeBook('GBPUSD-PERP');
    md.start();
    const s = await open(fake);
    s.receive(fixtureText('ws-md-2.json'));
    expect(books).toHaveLength(1);
    expect(books[0]).toMatchObject({ type: 'book', symbol: 'GBPUSD-PERP', level: 2, isSnapshot: true });
    const b = md.book('GBPUSD-PERP')!;
    expect(b.bids[0]).toEqual({ priceTicks: 13254, qty: 100 });
    expect(b.asks[0]).toEqual({ priceTicks: 13260, qty: 400 });
    expect(b.bids).toHaveLength(14);
    expect(md.isLive('GBPUSD-PERP')).toBe(true);
    await md.stop();
  });

  it('applies st:false deltas (q 0 removes) and emits the full book', async () => {
    const { md, fake, books } = setup();
    md.subscribeBook('EURUSD-PERP');
    md.start();
    const s = await open(fake);
    s.receive(snap('EURUSD-PERP', [['1.1380', 100], ['1.1379', 200]], [['1.1388', 300]]));
    s.receive(snap('EURUSD-PERP', [['1.1380', 0], ['1.1381', 50]], [], false));
    const b = md.book('EURUSD-PERP')!;
    expect(b.bids).toEqual([
      { priceTicks: 11381, qty: 50 },
      { priceTicks: 11379, qty: 200 },
    ]);
    expect(b.asks).toEqual([{ priceTicks: 11388, qty: 300 }]);
    expect(books.at(-1)).toMatchObject({ isSnapshot: true, bids: b.bids, asks: b.asks });
    await md.stop();
  });

  it('recovers a book that misses its snapshot deadline by unsubscribe + subscribe, with a growing deadline', async () => {
    const { md, fake, clock } = setup();
    md.subscribeBook('EURUSD-PERP');
    md.start();
    const s = await open(fake);
    clock.advanceBy(999);
    expect(md.stats.recoveries).toBe(0);
    clock.advanceBy(1);
    expect(md.stats.recoveries).toBe(1);
    expect(sent(s).slice(1).map((m) => m['type'])).toEqual(['unsubscribe', 'subscribe']);
    clock.advanceBy(1_999);
    expect(md.stats.recoveries).toBe(1);
    clock.advanceBy(1);
    expect(md.stats.recoveries).toBe(2);
    s.receive(snap('EURUSD-PERP', [['1.1380', 1]], [['1.1390', 1]]));
    clock.advanceBy(60_000);
    expect(md.stats.recoveries).toBe(2);
    await md.stop();
  });

  it('a book frame with a negative price is skipped with its JSON path and the book re-synced from a fresh snapshot (issue 35)', async () => {
    const { md, fake, books, errors } = setup();
    md.subscribeBook('EURUSD-PERP');
    md.start();
    const s = await open(fake);
    s.receive(snap('EURUSD-PERP', [['1.1380', 100]], [['1.1388', 300]]));
    s.receive(snap('EURUSD-PERP', [['-1.1411', 5]], [], false));
    expect(books).toHaveLength(1);
    expect(md.stats.decodeErrors).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('$.b[0].p: expected positive price, got "-1.1411"');
    expect(md.stats.recoveries).toBe(1);
    expect(sent(s).slice(-2).map((m) => [m['type'], m['symbol']])).toEqual([
      ['unsubscribe', 'EURUSD-PERP'],
      ['subscribe', 'EURUSD-PERP'],
    ]);
    await md.stop();
  });

  it('resyncBook renews a followed book for a fresh snapshot; false for a symbol not followed or while down', async () => {
    const { md, fake } = setup();
    md.subscribeBook('EURUSD-PERP');
    expect(md.resyncBook('EURUSD-PERP')).toBe(false); // not connected yet: the connect subscribes anyway
    md.start();
    const s = await open(fake);
    s.receive(snap('EURUSD-PERP', [['1.1380', 100]], [['1.1388', 300]]));
    expect(md.resyncBook('GBPUSD-PERP')).toBe(false);
    expect(md.resyncBook('EURUSD-PERP')).toBe(true);
    expect(md.stats.recoveries).toBe(1);
    expect(md.isLive('EURUSD-PERP')).toBe(false);
    expect(sent(s).slice(-2).map((m) => m['type'])).toEqual(['unsubscribe', 'subscribe']);
    await md.stop();
  });

  it('a delta before any snapshot triggers recovery instead of a wrong book', async () => {
    const { md, fake, books } = setup();
    md.subscribeBook('EURUSD-PERP');
    md.start();
    const s = await open(fake);
    s.receive(snap('EURUSD-PERP', [['1.1380', 5]], [], false));
    expect(books).toHaveLength(0);
    expect(md.book('EURUSD-PERP')).toBeUndefined();
    expect(md.stats.recoveries).toBe(1);
    expect(sent(s).at(-1)).toMatchObject({ type: 'subscribe', symbol: 'EURUSD-PERP' });
    await md.stop();
  });

  it('reports a silent symbol stale, and fresh again on its next frame', async () => {
    const { md, fake, clock, stale } = setup({ staleAfterMs: 2_000 });
    md.subscribeBook('EURUSD-PERP');
    md.start();
    const s = await open(fake);
    s.receive(snap('EURUSD-PERP', [['1.1380', 1]], [['1.1390', 1]]));
    clock.advanceBy(1_500);
    expect(stale).toEqual([]);
    clock.advanceBy(1_000);
    expect(stale).toEqual([{ symbol: 'EURUSD-PERP', stale: true, silentMs: 2_000, tsRecv: clock.nowMs() - 500 }]);
    s.receive(fixtureText('ws-md-t.json'));
    expect(stale.at(-1)).toMatchObject({ symbol: 'EURUSD-PERP', stale: false });
    await md.stop();
  });

  it('emits tickers (with ef), trades and candles as domain events', async () => {
    const { md, fake, tickers, trades, candles } = setup();
    md.subscribeBook('EURUSD-PERP');
    md.subscribeCandles('EURUSD-PERP', '1s');
    md.start();
    const s = await open(fake);
    const t = JSON.parse(fixtureText('ws-md-s.json')) as Record<string, unknown>;
    t['ef'] = { symbol: 'EURUSD-PERP', status: 'ready', timestamp: '2026-09-24T05:20:35.984549483Z', funding_rate: '0.0001', funding_amount: '0.000114', benchmark_price: '1.14', settlement_price: '1.140114' };
    s.receive(JSON.stringify(t));
    s.receive(fixtureText('ws-md-t.json'));
    s.receive(fixtureText('ws-md-c.json'));
    expect(tickers[0]).toMatchObject({ symbol: 'EURUSD-PERP', markTicks: 11388, bestBidTicks: 11380, bandLowerTicks: 10261, state: 'OPEN' });
    expect(tickers[0]!.funding?.rate?.toString()).toBe('0.0001');
    expect(trades[0]).toMatchObject({ symbol: 'EURUSD-PERP', priceTicks: 11388, qty: 400, aggressor: 'buy' });
    expect(candles[0]).toMatchObject({ symbol: 'EURUSD-PERP', width: '1s', bucketStartMs: 1790222020000, buyVolume: 400 });
    await md.stop();
  });

  it('drops a subscription the venue refuses (404) and keeps the connection', async () => {
    const { md, fake, clock, errors } = setup();
    md.subscribeBook('INVALID-AUDIT');
    md.start();
    const s = await open(fake);
    s.receive('{"rid":1,"error":{"message":"Symbol INVALID-AUDIT is not available","code":404}}');
    expect(errors[0]).toMatchObject({ code: 'NOT_FOUND' });
    expect(errors[0]!.details['venueMessage']).toContain('INVALID-AUDIT');
    expect(md.subscriptions()).toEqual([]);
    clock.advanceBy(10_000);
    expect(md.stats.recoveries).toBe(0);
    expect(s.closed).toBe(false);
    await md.stop();
  });

  it('counts malformed frames, skips them and suppresses frames of symbols not followed', async () => {
    const { md, fake, books } = setup();
    md.subscribeBook('EURUSD-PERP');
    md.start();
    const s = await open(fake);
    s.receive('{"t":"2","s":"EURUSD-PERP","b":"nope"}');
    s.receive('{{{');
    s.receive(fixtureText('ws-md-2.json'));
    expect(md.stats.decodeErrors).toBe(2);
    expect(md.stats.suppressed).toBe(1);
    expect(books).toHaveLength(0);
    expect(s.closed).toBe(false);
    expect(md.connected).toBe(true);
    await md.stop();
  });

  it('changing a level is unsubscribe + subscribe; unsubscribe forgets the book', async () => {
    const { md, fake } = setup();
    md.subscribeBook('EURUSD-PERP', 2);
    md.start();
    const s = await open(fake);
    s.receive(snap('EURUSD-PERP', [['1.1380', 1]], [['1.1390', 1]]));
    md.subscribeBook('EURUSD-PERP', 3);
    expect(sent(s).slice(1).map((m) => [m['type'], m['level']])).toEqual([
      ['unsubscribe', undefined],
      ['subscribe', 'LEVEL_3'],
    ]);
    expect(md.book('EURUSD-PERP')).toBeUndefined();
    md.unsubscribe('EURUSD-PERP');
    expect(sent(s).at(-1)).toMatchObject({ type: 'unsubscribe', symbol: 'EURUSD-PERP' });
    expect(md.subscriptions()).toEqual([]);
    await md.stop();
  });
});
