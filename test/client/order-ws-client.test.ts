import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';
import { asClientOrderId, asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { Order } from '../../src/domain/order.ts';
import type { PlaceOrder } from '../../src/domain/intents.ts';
import { OrderWsClient } from '../../src/client/order-ws-client.ts';
import type { StreamConnection } from '../../src/client/stream-types.ts';
import { fakeSocketFactory, type FakeSocket } from '../support/fake-socket.ts';
import { fixtureCatalog, fixtureText } from '../support/fixture-catalog.ts';
import { flush } from '../support/drive-clock.ts';

const catalog = fixtureCatalog();
const EUR = asSymbol('EURUSD-PERP');

const intent = (cid: number, priceTicks = 11283): PlaceOrder => ({
  kind: 'place',
  symbol: EUR,
  side: 'buy',
  priceTicks,
  qty: 200,
  tif: 'GTC',
  postOnly: true,
  reprice: 'rej',
  selfTrade: 'CancelIncoming',
  clientOrderId: asClientOrderId(cid),
  tag: 'mm1',
});

const wireOrder = (oid: string, cid: number, state = 'ACCEPTED') =>
  `{"oid":"${oid}","u":"u1","aid":"a1","s":"EURUSD-PERP","p":"1.1283","q":200,"xq":0,"rq":200,"o":"${state}","d":"B","tif":"GTC","cid":${cid},"po":true,"rb":"rej","ts":1790228411,"tn":928648197}`;

function setup(opts: { heartbeatS?: number } = {}) {
  const clock = new VirtualClock(1_790_000_000_000);
  const fake = fakeSocketFactory();
  let tokenN = 0;
  const renewed: (string | undefined)[] = [];
  const client = new OrderWsClient({
    wsUrl: 'ws://venue:1',
    clock,
    tokens: { token: async () => `tok${++tokenN}`, renew: async (t) => (renewed.push(t), `tok${++tokenN}`) },
    instruments: catalog,
    accountId: 'a1',
    clientHeartbeatTimeoutS: opts.heartbeatS ?? 30,
    requestTimeoutMs: 1_000,
    reconnect: { initialMs: 100, maxMs: 1_000, multiplier: 2, jitter: 0 },
    socketFactory: fake.factory,
    random: () => 0.5,
  });
  const events: OrderEvent[] = [];
  const resyncs: (readonly Order[])[] = [];
  const conn: StreamConnection[] = [];
  client.events$.subscribe((e) => events.push(e));
  client.resync$.subscribe((r) => resyncs.push(r));
  client.connection$.subscribe((c) => conn.push(c));
  return { clock, fake, client, events, resyncs, conn, renewed };
}

async function login(fake: { last(): FakeSocket }, orders = 'null'): Promise<FakeSocket> {
  await flush();
  const s = fake.last();
  s.open();
  s.receive(`{"rid":0,"res":{"li":"u1","o":${orders},"cod":true}}`);
  return s;
}

const lastReq = (s: FakeSocket): Record<string, unknown> => JSON.parse(s.sent[s.sent.length - 1]!) as Record<string, unknown>;

describe('OrderWsClient', () => {
  it('upgrades with the bearer token and the session parameters', async () => {
    const { client, fake } = setup();
    client.start();
    await flush();
    const s = fake.last();
    expect(s.headers['authorization']).toBe('Bearer tok1');
    const url = new URL(s.url);
    expect(url.pathname).toBe('/orders/ws');
    expect(url.searchParams.get('cancel_on_disconnect')).toBe('true');
    expect(url.searchParams.get('account_id')).toBe('a1');
    expect(url.searchParams.get('client_heartbeat_timeout')).toBe('30');
    await client.stop();
  });

  it('turns the login reply into connection state and a resync of open orders', async () => {
    const { client, fake, resyncs, conn } = setup();
    client.start();
    await login(fake, `[${wireOrder('O-1', 7)}]`);
    expect(client.connected).toBe(true);
    expect(client.login).toEqual({ loginId: 'u1', cancelOnDisconnect: true });
    expect(conn.at(-1)).toMatchObject({ stream: 'orders', connected: true });
    expect(resyncs).toHaveLength(1);
    expect(resyncs[0]![0]).toMatchObject({ orderId: 'O-1', clientOrderId: '7', priceTicks: 11283, side: 'buy', state: 'ACCEPTED' });
    await client.stop();
  });

  it('accepts the captured login reply with o: null', async () => {
    const { client, fake, resyncs } = setup();
    client.start();
    await flush();
    fake.last().open();
    fake.last().receive(fixtureText('ws-orders-response-0.json'));
    expect(resyncs).toEqual([[]]);
    await client.stop();
  });

  it('fails fast with DISCONNECTED before login, sending nothing', async () => {
    const { client, fake } = setup();
    client.start();
    await flush();
    fake.last().open();
    const e = (await client.place(intent(1)).catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('DISCONNECTED');
    expect(e.retryable).toBe(true);
    expect(fake.last().sent).toEqual([]);
    await client.stop();
  });

  it('correlates replies by rid, out of order', async () => {
    const { client, fake } = setup();
    client.start();
    const s = await login(fake);
    const p1 = client.place(intent(1));
    const r1 = lastReq(s);
    const p2 = client.cancel({ orderId: asVenueOrderId('O-9'), clientOrderId: null });
    const r2 = lastReq(s);
    expect(r1).toMatchObject({ t: 'p', s: 'EURUSD-PERP', d: 'B', q: 200, p: '1.1283', tif: 'GTC', po: true, cid: 1, tag: 'mm1' });
    expect(r2).toMatchObject({ t: 'x', oid: 'O-9' });
    s.receive(`{"rid":${r2['rid']},"res":{"cxl_rx":true}}`);
    s.receive(`{"rid":${r1['rid']},"res":{"oid":"O-1"}}`);
    expect(await p1).toEqual({ orderId: 'O-1' });
    expect(await p2).toEqual({ accepted: true });
    await client.stop();
  });

  it('maps err replies to catalog codes with the venue message kept', async () => {
    const { client, fake } = setup();
    client.start();
    const s = await login(fake);
    const p = client.place(intent(1));
    s.receive(`{"rid":${lastReq(s)['rid']},"err":{"code":400,"msg":"initial margin required for order (88.82) is greater than available initial margin (0.00)"}}`);
    const e = (await p.catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('ORDER_REJECTED');
    expect(e.retryable).toBe(false);
    expect(e.details['venueMessage']).toContain('initial margin');
    const c = client.cancel({ orderId: asVenueOrderId('O-1'), clientOrderId: null });
    s.receive(`{"rid":${lastReq(s)['rid']},"err":{"code":409,"msg":"order not yet acknowledged by exchange; retry shortly"}}`);
    expect(((await c.catch((x: unknown) => x)) as MmError).code).toBe('NOT_YET_ACKNOWLEDGED');
    const r = client.place(intent(2));
    s.receive(`{"rid":${lastReq(s)['rid']},"err":{"code":429,"msg":"rate limited"}}`);
    expect(((await r.catch((x: unknown) => x)) as MmError).code).toBe('RATE_LIMITED');
    await client.stop();
  });

  it('times out a request on the injected clock (outcome unknown)', async () => {
    const { client, fake, clock } = setup();
    client.start();
    await login(fake);
    const p = client.place(intent(1));
    clock.advanceBy(1_000);
    const e = (await p.catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('TIMEOUT');
    expect(e.details['clientOrderId']).toBe('1');
    await client.stop();
  });

  it('status: maps the record, and 404 to null; open orders and cancel-all', async () => {
    const { client, fake } = setup();
    client.start();
    const s = await login(fake);
    const st = client.status({ clientOrderId: asClientOrderId(7) });
    expect(lastReq(s)).toMatchObject({ t: 's', cid: 7 });
    s.receive(`{"rid":${lastReq(s)['rid']},"res":{"status":{"symbol":"EURUSD-PERP","order_id":"O-1","clord_id":7,"state":"ACCEPTED","filled_quantity":0,"remaining_quantity":200}}}`);
    expect(await st).toMatchObject({ orderId: 'O-1', clientOrderId: '7', state: 'ACCEPTED', remainingQty: 200 });
    const missing = client.status({ orderId: asVenueOrderId('O-x') });
    s.receive(`{"rid":${lastReq(s)['rid']},"err":{"code":404,"msg":"no matching orders"}}`);
    expect(await missing).toBeNull();
    const oo = client.openOrders();
    s.receive(`{"rid":${lastReq(s)['rid']},"res":{"orders":[${wireOrder('O-1', 7)}]}}`);
    expect((await oo).map((o) => o.orderId)).toEqual(['O-1']);
    const ca = client.cancelAll(EUR);
    expect(lastReq(s)).toMatchObject({ t: 'X', symbol: 'EURUSD-PERP' });
    s.receive(`{"rid":${lastReq(s)['rid']},"res":{}}`);
    await ca;
    await client.stop();
  });

  it('emits domain events from the captured frames', async () => {
    const { client, fake, events } = setup();
    client.start();
    const s = await login(fake);
    for (const f of ['ws-orders-acknowledged.json', 'ws-orders-replaced.json', 'ws-orders-filled-b.json', 'ws-orders-canceled.json']) s.receive(fixtureText(f));
    expect(events.map((e) => e.type)).toEqual(['accepted', 'replaced', 'filled', 'canceled']);
    const fill = events[2]!;
    expect(fill).toMatchObject({ type: 'filled', partial: false, fillPriceTicks: 11388, fillQty: 100, aggressor: true });
    expect(events[0]!.tsRecv).toBe(1_790_000_000_000);
    expect(events[0]!.tsEvent).toBeCloseTo(1790228411934.694, 2);
    await client.stop();
  });

  it('counts and skips malformed frames without dropping the session', async () => {
    const { client, fake, events } = setup();
    const errors: MmError[] = [];
    client.errors$.subscribe((e) => errors.push(e));
    client.start();
    const s = await login(fake);
    s.receive('{not json');
    s.receive('{"t":"n","ts":1,"tn":0,"eid":"E","o":{"oid":"O-1"}}');
    s.receive(fixtureText('ws-orders-acknowledged.json'));
    expect(client.stats.malformed).toBe(2);
    expect(errors[1]!.message).toMatch(/\$\.o\./);
    expect(events).toHaveLength(1);
    expect(client.connected).toBe(true);
    expect(s.closed).toBe(false);
    await client.stop();
  });

  it('sends heartbeats three times per timeout window', async () => {
    const { client, fake, clock } = setup({ heartbeatS: 3 });
    client.start();
    const s = await login(fake);
    clock.advanceBy(3_000);
    const beats = s.sent.map((t) => JSON.parse(t) as { t: string }).filter((m) => m.t === 'h');
    expect(beats).toHaveLength(3);
    expect(client.stats.heartbeatsSent).toBe(3);
    await client.stop();
  });

  it('on a drop: pending requests fail as outcome-unknown, requests fail fast, then it reconnects and resyncs', async () => {
    const { client, fake, clock, resyncs, conn } = setup();
    client.start();
    const s1 = await login(fake, `[${wireOrder('O-1', 1)},${wireOrder('O-2', 2)}]`);
    const inflight = client.place(intent(3));
    s1.drop();
    const e = (await inflight.catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('TIMEOUT');
    expect(e.details['sent']).toBe(true);
    expect(conn.at(-1)).toMatchObject({ connected: false });
    expect(((await client.place(intent(4)).catch((x: unknown) => x)) as MmError).code).toBe('DISCONNECTED');
    clock.advanceBy(100);
    const s2 = await login(fake, `[${wireOrder('O-2', 2)}]`);
    expect(s2).not.toBe(s1);
    expect(s2.headers['authorization']).toBe('Bearer tok2');
    expect(resyncs.map((r) => r.map((o) => o.orderId))).toEqual([['O-1', 'O-2'], ['O-2']]);
    expect(conn.at(-1)).toMatchObject({ connected: true });
    await client.stop();
  });

  it('reconnects when the login reply never comes, and renews the token after a 401 upgrade', async () => {
    const { client, fake, clock, renewed } = setup();
    client.start();
    await flush();
    fake.last().refuse(401);
    await flush();
    expect(renewed).toEqual(['tok1']);
    clock.advanceBy(100);
    await flush();
    fake.last().open();
    clock.advanceBy(5_000);
    expect(fake.last().closed).toBe(true);
    await client.stop();
  });

  it('reports a refused upgrade (403) on errors$ and keeps retrying', async () => {
    const { client, fake, clock } = setup();
    const errors: MmError[] = [];
    client.errors$.subscribe((e) => errors.push(e));
    client.start();
    await flush();
    fake.last().refuse(403);
    expect(errors[0]).toMatchObject({ code: 'FORBIDDEN', details: { status: 403 } });
    clock.advanceBy(100);
    await flush();
    expect(fake.sockets).toHaveLength(2);
    await client.stop();
  });

  it('exposes the next resync as a promise-friendly stream', async () => {
    const { client, fake } = setup();
    const next = firstValueFrom(client.resync$.pipe(take(1), toArray()));
    client.start();
    await login(fake);
    expect(await next).toEqual([[]]);
    await client.stop();
  });
});
