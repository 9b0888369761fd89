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

function venue() {
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
      clock.setTimer(20, () => !s.closed && s.receive(JSON.stringify({ rid: m.rid, res: { oid: `O-${m.rid}` } })));
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
});
