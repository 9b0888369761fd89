import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { StreamConnection } from '../../src/client/stream-types.ts';
import { OrderWsClient } from '../../src/client/order-ws-client.ts';
import { TokenManager } from '../../src/client/token-manager.ts';
import { fakeSocketFactory, type FakeSocket } from '../support/fake-socket.ts';
import { fixtureCatalog } from '../support/fixture-catalog.ts';
import { flush } from '../support/drive-clock.ts';

/*
 * Make-before-break on the virtual clock (issue 12 item 3). A fake venue that behaves like the real
 * one: it closes an order socket (4001) when the token of its upgrade expires, which would fire
 * cancel-on-disconnect; a clean client close (1000) with a newer logged-in connection hands the
 * session over. With 60 s tokens over 200 s, the client must roll over before every expiry: no
 * socket ever closed by the venue, no connection loss reported, requests answered across the
 * switch, and every event delivered exactly once although both connections carry it during the overlap.
 */

const EUR = asSymbol('EURUSD-PERP');
const LIFETIME_S = 60;

/** `replyDelayMs(t, connection)`: how long the fake venue takes to answer a request of type `t` on its `connection`-th socket (null: never). */
function venue(replyDelayMs: (t: string, connection: number) => number | null = () => 20) {
  const clock = new VirtualClock(1_790_000_000_000);
  const issued = new Map<string, number>();
  let n = 0;
  const tokens = new TokenManager({
    clock,
    lifetimeS: LIFETIME_S,
    authenticate: async () => {
      const t = `tok${++n}`;
      issued.set(t, clock.nowMs() + LIFETIME_S * 1000);
      return t;
    },
  });
  const live = new Set<FakeSocket>();
  let codFired = 0;
  let handedOver = 0;
  let eid = 0;
  const fake = fakeSocketFactory({
    onSend: (s, text) => {
      const m = JSON.parse(text) as { rid: number; t: string };
      if (m.t === 'h') return;
      // Answer on the same connection a little later; the reply may arrive after a switch.
      const delay = replyDelayMs(m.t, fake.sockets.indexOf(s));
      if (delay !== null) clock.setTimer(delay, () => !s.closed && s.receive(JSON.stringify({ rid: m.rid, res: m.t === 'o' ? { orders: [] } : { oid: `O-${m.rid}` } })));
    },
  });
  const open = async (): Promise<void> => {
    await flush();
    for (const s of fake.sockets) {
      if (live.has(s) || s.closed) continue;
      live.add(s);
      const token = s.headers['authorization']!.replace('Bearer ', '');
      s.open();
      s.receive('{"rid":0,"res":{"li":"u1","o":null,"cod":true}}');
      const expiresAt = issued.get(token)!;
      clock.setTimer(Math.max(0, expiresAt - clock.nowMs()), () => {
        if (!s.closed) {
          codFired++;
          s.drop(4001);
        }
      });
      const close = s.close.bind(s);
      s.close = (code?: number, reason?: string) => {
        const successor = [...live].some((o) => o !== s && !o.closed);
        if (code === 1000 && successor) handedOver++;
        else codFired++;
        close(code, reason);
      };
    }
  };
  /** Sends one account event on every live connection (the venue broadcasts to all the account's sessions). */
  const broadcast = (): void => {
    const id = ++eid;
    for (const s of live) if (!s.closed) s.receive(JSON.stringify({ t: 'c', ts: 1790228411, tn: 0, eid: `E${id}`, o: order(id), xr: '', txt: '' }));
  };
  return { clock, tokens, fake, open, broadcast, stats: () => ({ codFired, handedOver, sockets: fake.sockets.length }) };
}

const order = (i: number) => ({ oid: `O-${i}`, u: 'u1', aid: 'a1', s: 'EURUSD-PERP', p: '1.1283', q: 200, xq: 0, rq: 0, o: 'CANCELED', d: 'B', tif: 'GTC', cid: i, po: true, rb: 'rej', ts: 1790228411, tn: 0 });

describe('order session rollover (make-before-break)', () => {
  it('60 s tokens over 200 s: rolls over before every expiry, zero cod cancels, requests and events survive', async () => {
    const v = venue();
    const client = new OrderWsClient({ wsUrl: 'ws://venue:1', clock: v.clock, tokens: v.tokens, instruments: fixtureCatalog(), socketFactory: v.fake.factory, random: () => 0.5 });
    const conn: StreamConnection[] = [];
    const events: OrderEvent[] = [];
    client.connection$.subscribe((c) => conn.push(c));
    client.events$.subscribe((e) => events.push(e));
    client.start();
    const answered: string[] = [];
    let sent = 0;
    for (let t = 0; t < 200_000; t += 100) {
      await v.open();
      if (t % 1_000 === 0 && client.connected) {
        const cid = ++sent;
        void client
          .place({ kind: 'place', symbol: EUR, side: 'buy', priceTicks: 11283, qty: 200, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(cid), tag: null })
          .then((r) => answered.push(r.orderId));
      }
      if (t % 500 === 0) v.broadcast();
      v.clock.advanceBy(100);
      await flush();
    }
    const s = v.stats();
    expect(client.rollovers.done).toBeGreaterThanOrEqual(3);
    expect(client.rollovers.failed).toBe(0);
    expect(s.codFired).toBe(0);
    expect(s.handedOver).toBe(client.rollovers.done);
    // One login, never a loss: the engine sees one continuous session.
    expect(conn.filter((c) => c.connected).length).toBe(1);
    expect(conn.filter((c) => !c.connected && c.reason !== 'not started')).toEqual([]);
    expect(answered.length).toBeGreaterThanOrEqual(sent - 1);
    // 400 broadcasts, each delivered exactly once.
    const ids = events.map((e) => ('order' in e ? (e.order as { orderId: string }).orderId : ''));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(400);
    await client.stop();
  });

  it('a failed rollover keeps the old session and retries before the token expires', async () => {
    const v = venue();
    const client = new OrderWsClient({ wsUrl: 'ws://venue:1', clock: v.clock, tokens: v.tokens, instruments: fixtureCatalog(), socketFactory: v.fake.factory, random: () => 0.5, loginTimeoutMs: 1_000 });
    client.start();
    await v.open();
    expect(client.connected).toBe(true);
    // At 45 s the first attempt opens a connection the venue never logs in.
    v.clock.advanceBy(45_000);
    await flush();
    await flush();
    const stuck = v.fake.last();
    expect(v.fake.sockets.length).toBe(2);
    v.clock.advanceBy(1_000);
    await flush();
    expect(stuck.closed).toBe(true);
    expect(client.rollovers).toEqual({ done: 0, failed: 1 });
    expect(client.connected).toBe(true);
    // The retry 2 s later succeeds.
    for (let i = 0; i < 40; i++) {
      v.clock.advanceBy(100);
      await v.open();
    }
    expect(client.rollovers.done).toBe(1);
    expect(v.stats().codFired).toBe(0);
    await client.stop();
  });

  it('the old connection drains until the replies in flight on it arrive; a mutation never answered fails when it closes, a query is asked again on the new session', async () => {
    // Places are answered after 3 s (3× the 1 s drain); cancels ('x') never; open-orders queries ('o')
    // never on the first connection, at once on the next.
    const v = venue((t, connection) => (t === 'p' ? 3_000 : t === 'x' ? null : t === 'o' && connection === 0 ? null : 20));
    const client = new OrderWsClient({ wsUrl: 'ws://venue:1', clock: v.clock, tokens: v.tokens, instruments: fixtureCatalog(), socketFactory: v.fake.factory, random: () => 0.5, requestTimeoutMs: 30_000 });
    client.start();
    await v.open();
    await flush();
    // Just before the rollover (75 % of the 60 s lifetime), one request of each kind goes out on the first connection.
    v.clock.advanceBy(44_900);
    await flush();
    expect(client.rollovers.done).toBe(0);
    const placed = client.place({ kind: 'place', symbol: EUR, side: 'buy', priceTicks: 11283, qty: 200, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(7), tag: null });
    const settledAt = (p: Promise<unknown>) =>
      p.then(
        () => ({ at: v.clock.nowMs(), message: 'answered' }),
        (e: Error) => ({ at: v.clock.nowMs(), message: e.message }),
      );
    const canceled = settledAt(client.cancel({ orderId: 'O-1' as never, clientOrderId: asClientOrderId(7) }));
    const query = settledAt(client.openOrders());
    const t0 = v.clock.nowMs();
    for (let t = 0; t < 20_000; t += 100) {
      await v.open();
      v.clock.advanceBy(100);
      await flush();
    }
    expect(client.rollovers.done).toBe(1);
    // The place reply came 3 s later on the old connection, which was still open for it.
    await expect(placed).resolves.toMatchObject({ orderId: expect.stringMatching(/^O-\d+$/) });
    // The cancel reply never came: the old connection closed 2 s before its token's expiry and
    // failed it then (outcome unknown), 25 s before its own deadline.
    const cx = await canceled;
    expect(cx.message).toMatch(/rolled over before the reply.*outcome is unknown/);
    expect(cx.at - t0).toBeGreaterThan(12_000);
    expect(cx.at - t0).toBeLessThan(15_200);
    // The open-orders query lost its reply the same way, and was asked again on the new session.
    const st = await query;
    expect(st.message).toBe('answered');
    expect(st.at - cx.at).toBeLessThan(200);
    expect(client.stats.rolloverRetries).toBe(1);
    expect(v.stats().codFired).toBe(0);
    await client.stop();
  });
});
