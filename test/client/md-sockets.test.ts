import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import type { BookUpdated } from '../../src/domain/events.ts';
import { MarketDataWsClient } from '../../src/client/md-ws-client.ts';
import { startFakeMdServer, l2Snapshot, type FakeMdServer } from '../support/fake-md-server.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { fixtureCatalog } from '../support/fixture-catalog.ts';
import { FAST, until } from '../support/venue-harness.ts';

const catalog = fixtureCatalog();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function client(wsUrl: string, extra: Partial<ConstructorParameters<typeof MarketDataWsClient>[0]> = {}): { md: MarketDataWsClient; books: BookUpdated[] } {
  const md = new MarketDataWsClient({ wsUrl, clock: new LiveClock(), instruments: catalog, reconnect: FAST, snapshotTimeoutMs: 500, staleAfterMs: 0, ...extra });
  const books: BookUpdated[] = [];
  md.books$.subscribe((b) => books.push(b));
  cleanups.push(() => md.stop());
  return { md, books };
}

async function server(port = 0): Promise<FakeMdServer> {
  const s = await startFakeMdServer(port);
  cleanups.push(() => s.close());
  return s;
}

describe('MarketDataWsClient over real sockets (fake §4 server)', () => {
  it('subscribes, receives the snapshot and follows updates', async () => {
    const srv = await server();
    const { md, books } = client(srv.wsUrl);
    md.subscribeBook('EURUSD-PERP');
    md.start();
    await until(() => books.length >= 1, 5_000, 'snapshot');
    srv.publish(l2Snapshot('EURUSD-PERP', '1.1381', '1.1389'), 'EURUSD-PERP');
    await until(() => md.book('EURUSD-PERP')?.bids[0]?.priceTicks === 11381, 5_000, 'update');
    expect(books.at(-1)!.bids[0]!.priceTicks).toBe(11381);
  });

  it('a server killed and restarted on the same port: reconnect, subscriptions replayed, fresh snapshot', async () => {
    const srv1 = await startFakeMdServer();
    const port = srv1.port;
    const { md } = client(srv1.wsUrl);
    md.subscribeBook('EURUSD-PERP');
    md.subscribeBook('GBPUSD-PERP', 2);
    md.start();
    await until(() => md.isLive('EURUSD-PERP') && md.isLive('GBPUSD-PERP'), 5_000, 'first snapshots');
    await srv1.close();
    await until(() => !md.connected, 5_000, 'drop seen');
    expect(md.book('EURUSD-PERP')).toBeUndefined();
    const srv2 = await server(port);
    srv2.snapshotFor = (s) => l2Snapshot(s, '1.1370', '1.1400');
    await until(() => md.book('EURUSD-PERP')?.bids[0]?.priceTicks === 11370 && md.book('GBPUSD-PERP') !== undefined, 5_000, 'fresh snapshots');
    const session = [...srv2.sessions][0]!;
    expect([...session.books.keys()].sort()).toEqual(['EURUSD-PERP', 'GBPUSD-PERP']);
    expect(md.book('EURUSD-PERP')?.bids[0]?.priceTicks).toBe(11370);
  });

  it('recovers a book whose snapshot never came, over the wire', async () => {
    const srv = await server();
    srv.snapshotOnSubscribe = false;
    const { md, books } = client(srv.wsUrl, { snapshotTimeoutMs: 100 });
    md.subscribeBook('EURUSD-PERP');
    md.start();
    await until(() => md.stats.recoveries >= 1, 5_000, 'recovery');
    srv.snapshotOnSubscribe = true;
    await until(() => books.length >= 1, 5_000, 'snapshot after recovery');
    const msgs = [...srv.sessions][0]!.received.map((m) => m['type']);
    expect(msgs.slice(0, 3)).toEqual(['subscribe', 'unsubscribe', 'subscribe']);
  });

  it('skips a malformed frame injected by the proxy without dropping the connection', async () => {
    const srv = await server();
    const proxy = await startFaultProxy(`http://127.0.0.1:${srv.port}`);
    cleanups.push(() => proxy.close());
    const { md, books } = client(proxy.wsUrl);
    md.subscribeBook('EURUSD-PERP');
    md.start();
    await until(() => books.length >= 1, 5_000, 'snapshot');
    proxy.inject('{"t":"2","ts":1,"tn":0,"s":"EURUSD-PERP","b":[{"p":"x","q":1}],"a":[]}', '/md/ws');
    // A skipped book frame re-syncs that book (a fresh snapshot), on the same connection.
    await until(() => md.stats.recoveries === 1 && md.isLive('EURUSD-PERP'), 5_000, 're-synced');
    srv.publish(l2Snapshot('EURUSD-PERP', '1.1382', '1.1389'), 'EURUSD-PERP');
    await until(() => md.book('EURUSD-PERP')?.bids[0]?.priceTicks === 11382, 5_000, 'next update');
    expect(md.stats.decodeErrors).toBe(1);
    expect(md.reconnects).toBe(0);
  });

  it('a socket that goes silent is replaced (idle timeout)', async () => {
    const srv = await server();
    const proxy = await startFaultProxy(`http://127.0.0.1:${srv.port}`);
    cleanups.push(() => proxy.close());
    const { md, books } = client(proxy.wsUrl, { idleTimeoutMs: 150 });
    md.subscribeBook('EURUSD-PERP');
    md.start();
    await until(() => books.length >= 1, 5_000, 'snapshot');
    // A hung peer: no frames and no pongs to our probe pings (a quiet socket that still pongs is kept).
    const release = proxy.freeze();
    await until(() => md.reconnects >= 1, 5_000, 'idle reconnect');
    const n = books.length;
    release();
    await until(() => books.length > n, 5_000, 'snapshot after reconnect');
  });
});
