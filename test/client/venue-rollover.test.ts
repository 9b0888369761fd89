import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { RunningVenue } from '../../src/sim/index.ts';
import { ScaledClock } from '../../src/sim/clock/scaled-clock.ts';
import type { RestClient } from '../../src/client/rest-client.ts';
import type { OrderWsClient } from '../../src/client/order-ws-client.ts';
import { bid, testOrderWs, testRest, testVenue, until } from '../support/venue-harness.ts';

/*
 * Make-before-break over real sockets against the local venue (issue 12 item 3). Venue and client
 * share a clock running 20× faster, so 60 s tokens expire every 3 s of wall time; the venue closes
 * an order socket when its token expires and cancels its orders (cancel-on-disconnect). Over 12 s
 * (four token lifetimes) the client must roll its session over before each expiry: the orders it
 * placed at the start are still resting under the same ids, no cancel event was ever sent, and REST
 * keeps working with the fresh tokens.
 */

const SPEED = 20;

describe('order session rollover against the local venue', () => {
  let v: RunningVenue;
  let rest: RestClient;
  let ws: OrderWsClient;
  const events: OrderEvent[] = [];

  beforeAll(async () => {
    const clock = new ScaledClock(new LiveClock(), SPEED);
    v = await testVenue({ clock });
    rest = testRest(v.baseUrl, clock, { instruments: v.venue.catalog, tokenLifetimeS: 60, requestTimeoutMs: 40_000 });
    // Deadlines in venue ms: 40 s of venue time is 2 s of wall time. Rolling over at half the token's
    // life (not the default three quarters) leaves 1.5 s of wall time, not 0.75 s, before the venue
    // closes the old socket: at 20× a loaded 2-core CI box can stall the event loop that long.
    ws = testOrderWs(v.wsUrl, rest, clock, { cancelOnDisconnect: true, requestTimeoutMs: 40_000, loginTimeoutMs: 40_000, clientHeartbeatTimeoutS: 0, rolloverAtFraction: 0.5 });
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
    const deadline = Date.now() + 12_000;
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
