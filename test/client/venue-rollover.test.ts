import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { RunningVenue } from '../../src/sim/index.ts';
import type { RestClient } from '../../src/client/rest-client.ts';
import type { OrderWsClient } from '../../src/client/order-ws-client.ts';
import { bid, testOrderWs, testRest, testVenue, until } from '../support/venue-harness.ts';

/*
 * Make-before-break over real sockets against the local venue (issue 12 item 3). The client asks for
 * 8 s tokens; the venue closes an order socket when its token expires and cancels its orders
 * (cancel-on-disconnect). Over 13 s (over four token lifetimes) the client must roll its session
 * over before each expiry: the orders it placed at the start are still resting under the same ids,
 * no cancel event was ever sent, and REST keeps working with the fresh tokens.
 *
 * Short tokens on the real clock, not 60 s tokens on a clock sped up 20× (as this test once ran):
 * the slack between a rollover and the expiry it beats must be seconds of wall time, because a
 * loaded 2-core CI box stalls event loops for a second or more (at 20× that was 0.75 s of wall time,
 * and CI lost the race). Rolling over at half the token's life leaves 4 s.
 */

const TOKEN_LIFETIME_S = 8;

describe('order session rollover against the local venue', () => {
  let v: RunningVenue;
  let rest: RestClient;
  let ws: OrderWsClient;
  const events: OrderEvent[] = [];

  beforeAll(async () => {
    const clock = new LiveClock();
    v = await testVenue({ clock });
    rest = testRest(v.baseUrl, clock, { instruments: v.venue.catalog, tokenLifetimeS: TOKEN_LIFETIME_S, requestTimeoutMs: 5_000 });
    ws = testOrderWs(v.wsUrl, rest, clock, { cancelOnDisconnect: true, requestTimeoutMs: 5_000, loginTimeoutMs: 5_000, clientHeartbeatTimeoutS: 0, rolloverAtFraction: 0.5 });
    ws.events$.subscribe((e) => events.push(e));
    ws.start();
    await until(() => ws.connected, 5_000, 'login');
  });

  afterAll(async () => {
    await ws.stop();
    await rest.close();
    await v.stop();
  });

  it('several rollovers, zero cancel-on-disconnect cancels, same resting orders', async () => {
    const a = await ws.place(bid(11_000));
    const b = await ws.place(bid(10_990));
    await until(() => events.filter((e) => e.type === 'accepted').length >= 2, 5_000, 'acks');
    const deadline = Date.now() + 13_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      // Requests keep flowing across the switches.
      expect((await ws.openOrders()).length).toBe(2);
    }
    expect(ws.rollovers.done).toBeGreaterThanOrEqual(3);
    expect(ws.reconnects).toBe(0);
    expect(events.filter((e) => e.type === 'canceled')).toEqual([]);
    const open = await rest.openOrders();
    expect(open.map((o) => o.orderId).sort()).toEqual([a.orderId, b.orderId].sort());
    expect(rest.tokens!.authentications).toBeGreaterThanOrEqual(4);
  }, 30_000);
});
