import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { Order } from '../../src/domain/order.ts';
import { venueGateway } from '../../src/client/venue-gateway.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { bid, testOrderWs, testRest, testVenue, until } from '../support/venue-harness.ts';
import { flush } from '../support/drive-clock.ts';

const EUR = asSymbol('EURUSD-PERP');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function stack(opts: { proxy?: boolean; venueConfig?: Parameters<typeof testVenue>[0]; ws?: Parameters<typeof testOrderWs>[3] } = {}) {
  const v = await testVenue(opts.venueConfig);
  cleanups.push(() => v.stop());
  const proxy = opts.proxy ? await startFaultProxy(v.baseUrl) : undefined;
  if (proxy) cleanups.push(() => proxy.close());
  const rest = testRest(proxy?.baseUrl ?? v.baseUrl, undefined, { instruments: v.venue.catalog });
  cleanups.push(() => rest.close());
  const ws = testOrderWs(proxy?.wsUrl ?? v.wsUrl, rest, undefined, opts.ws);
  cleanups.push(() => ws.stop());
  const resyncs: (readonly Order[])[] = [];
  ws.resync$.subscribe((r) => resyncs.push(r));
  ws.start();
  await until(() => ws.connected, 5_000, 'login');
  return { v, proxy, rest, ws, resyncs };
}

const ids = (orders: readonly Order[]): string[] => orders.map((o) => o.orderId).sort();

describe('client under injected faults', () => {
  it('counts and skips a malformed order-WS frame without dropping the connection', async () => {
    const { proxy, ws, rest } = await stack({ proxy: true });
    proxy!.inject('{"t":"n","ts":1,"tn":0,"eid":"E-1","o":{"oid":42}}', '/orders/ws');
    proxy!.inject('garbage', '/orders/ws');
    await until(() => ws.stats.malformed === 2, 5_000, 'malformed counted');
    expect(ws.connected).toBe(true);
    expect(ws.reconnects).toBe(0);
    const r = await venueGateway(ws, rest).place(bid());
    expect(r.orderId).toMatch(/^O-/);
  });

  it('backs off 429 and 503 (honouring Retry-After) and then succeeds', async () => {
    const { proxy, rest } = await stack({ proxy: true });
    proxy!.httpFault((m, p) => m === 'GET' && p.startsWith('/orders/open-orders'), { status: 429, headers: { 'retry-after': '0.05' }, body: '{"error":"slow down"}' });
    proxy!.httpFault((m, p) => m === 'GET' && p.startsWith('/orders/open-orders'), { status: 503, body: '{"error":"maintenance"}' });
    const before = rest.stats.retries;
    const t0 = Date.now();
    expect(await rest.openOrders()).toEqual([]);
    expect(rest.stats.retries - before).toBe(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(50);
    expect(proxy!.stats.httpFaulted).toBe(2);
  });

  it("backs off the venue's own rate limiter (429) on safe requests", async () => {
    const { v } = await stack();
    // A slow refill (4 extra requests need 400 ms of refill), so a loaded machine spreading the six
    // requests out cannot dodge the limiter; a deterministic backoff that outlasts the refill.
    const rest = testRest(v.baseUrl, undefined, { instruments: v.venue.catalog, retry: { initialMs: 50, maxMs: 400, multiplier: 2, jitter: 0 } });
    cleanups.push(() => rest.close());
    v.venue.knobs.rateLimit = { enabled: true, burst: 2, perSecond: 10 };
    v.rateLimiter.reset();
    await Promise.all(Array.from({ length: 6 }, () => rest.cancelAllOrders(EUR)));
    expect(rest.stats.retries).toBeGreaterThan(0);
    expect(rest.stats.failures).toBe(0);
  });

  it('a place whose reply is withheld is resolved by status-by-cid, not resent', async () => {
    const { proxy, rest, ws } = await stack({ proxy: true, ws: { requestTimeoutMs: 150 } });
    const release = proxy!.withhold((text) => text.includes('"oid"') && text.startsWith('{"rid"'));
    const gw = venueGateway(ws, rest);
    const intent = bid();
    const r = await gw.place(intent);
    release();
    expect(gw.stats.resolvedByStatus).toBe(1);
    const open = await rest.openOrders();
    expect(open.filter((o) => o.clientOrderId === intent.clientOrderId).map((o) => o.orderId)).toEqual([r.orderId]);
  });

  it('a reply delayed past the deadline is a TIMEOUT, and the late reply is counted, not misrouted', async () => {
    const { proxy, rest, ws } = await stack({ proxy: true, ws: { requestTimeoutMs: 100 } });
    proxy!.delayDownstreamMs = 250;
    await expect(ws.place(bid())).rejects.toMatchObject({ code: 'TIMEOUT' });
    await until(() => ws.stats.lateReplies === 1, 5_000, 'late reply');
    proxy!.delayDownstreamMs = 0;
    expect(ws.connected).toBe(true);
  });

  it('requests fail fast while the order WS is down, and the gateway falls back to REST', async () => {
    const { proxy, ws, rest } = await stack({ proxy: true });
    proxy!.refuseConnections(true, 'ws');
    proxy!.dropConnections('/orders/ws');
    await until(() => !ws.connected, 5_000, 'drop seen');
    await expect(ws.place(bid())).rejects.toMatchObject({ code: 'DISCONNECTED', retryable: true });
    const gw = venueGateway(ws, rest);
    const r = await gw.place(bid());
    expect(gw.stats.viaRest).toBe(1);
    expect(r.orderId).toMatch(/^O-/);
    expect(ws.reconnects).toBeGreaterThanOrEqual(1);
    proxy!.refuseConnections(false);
    await until(() => ws.connected, 5_000, 'back after refusal');
  });

  it('after a drop the resync lists exactly the orders really open (cancel-on-disconnect applied)', async () => {
    const { v, ws, rest, resyncs } = await stack();
    const viaRest = await rest.placeOrder(bid(10_950));
    const gw = venueGateway(ws, rest);
    const viaWs = await gw.place(bid(10_951));
    await until(() => v.venue.accounts.account(v.credentials.account_id)!.open.size === 2, 5_000, 'both open');
    expect(ids(resyncs.at(-1)!)).toEqual([]);
    v.venue.knobs.dropConnections({ path: '/orders/ws' });
    await until(() => resyncs.length >= 2, 5_000, 'resync');
    const reallyOpen = [...v.venue.accounts.account(v.credentials.account_id)!.open.values()].map((o) => o.oid).sort();
    expect(ids(resyncs.at(-1)!)).toEqual(reallyOpen);
    expect(reallyOpen).toEqual([viaRest.orderId]);
    expect(reallyOpen).not.toContain(viaWs.orderId);
  });

  it('the venue killed and restarted on the same port: reconnect, re-auth, fresh resync', async () => {
    const v1 = await testVenue();
    const port = Number(new URL(v1.baseUrl).port);
    const rest = testRest(v1.baseUrl, undefined, { instruments: v1.venue.catalog });
    cleanups.push(() => rest.close());
    const ws = testOrderWs(v1.wsUrl, rest);
    cleanups.push(() => ws.stop());
    const resyncs: (readonly Order[])[] = [];
    ws.resync$.subscribe((r) => resyncs.push(r));
    ws.start();
    await until(() => ws.connected, 5_000, 'login');
    await rest.placeOrder(bid(10_960));
    await v1.stop();
    await until(() => !ws.connected, 5_000, 'drop seen');
    const v2 = await testVenue({ port });
    cleanups.push(() => v2.stop());
    const placed = await rest.placeOrder(bid(10_970));
    // The old token is unknown to the new venue: one 401, one re-authentication, no failed request.
    expect(rest.stats.reauthentications).toBe(1);
    await until(() => resyncs.length >= 2, 5_000, 'resync after restart');
    expect(ids(resyncs.at(-1)!)).toEqual([placed.orderId]);
    await flush();
  });

  it('an expiring token is refreshed in the background: no 401, no failed request', async () => {
    const clock = new VirtualClock(Date.now());
    const v = await testVenue({ clock });
    cleanups.push(() => v.stop());
    const rest = testRest(v.baseUrl, clock, { instruments: v.venue.catalog, tokenLifetimeS: 10 });
    cleanups.push(() => rest.close());
    await rest.openOrders();
    clock.advanceBy(6_500); // past 60%: the background refresh fires
    await until(() => rest.tokens!.authentications === 2, 5_000, 'refresh');
    clock.advanceBy(5_000); // the first token has now expired at the venue
    expect(await rest.openOrders()).toEqual([]);
    expect(rest.stats.unauthorized).toBe(0);
    expect(rest.stats.failures).toBe(0);
  });
});
