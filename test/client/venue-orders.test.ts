import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSymbol } from '../../src/core/ids.ts';
import { MmError } from '../../src/core/errors.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { RunningVenue } from '../../src/sim/index.ts';
import { venueGateway } from '../../src/client/venue-gateway.ts';
import type { RestClient } from '../../src/client/rest-client.ts';
import type { OrderWsClient } from '../../src/client/order-ws-client.ts';
import { bid, testOrderWs, testRest, testVenue, until } from '../support/venue-harness.ts';

const EUR = asSymbol('EURUSD-PERP');

describe('client ⇄ local venue: order round trips', () => {
  let v: RunningVenue;
  let rest: RestClient;
  let ws: OrderWsClient;
  const events: OrderEvent[] = [];

  beforeAll(async () => {
    v = await testVenue();
    // The core venue (no market plugins) serves no /api/instruments: use its catalog in-process.
    rest = testRest(v.baseUrl, undefined, { instruments: v.venue.catalog });
    ws = testOrderWs(v.wsUrl, rest);
    ws.events$.subscribe((e) => events.push(e));
    ws.start();
    await until(() => ws.connected, 5_000, 'login');
  });

  afterAll(async () => {
    await ws.stop();
    await rest.close();
    await v.stop();
  });

  it('place → replace → status → open orders → cancel over the order WS, with events', async () => {
    const gw = venueGateway(ws, rest);
    const intent = bid(11_000);
    const placed = await gw.place(intent);
    await until(() => events.some((e) => e.type === 'accepted' && e.order.orderId === placed.orderId), 5_000, 'ack');
    const st = await gw.status({ clientOrderId: intent.clientOrderId });
    expect(st).toMatchObject({ orderId: placed.orderId, state: 'ACCEPTED', remainingQty: 100 });

    const replaced = await gw.replace({ kind: 'replace', symbol: EUR, orderId: placed.orderId, clientOrderId: intent.clientOrderId, priceTicks: 11_001, qty: 100 });
    expect(replaced.orderId).not.toBe(placed.orderId);
    await until(() => events.some((e) => e.type === 'replaced' && e.newOrderId === replaced.orderId), 5_000, 'replace event');
    const open = await gw.openOrders();
    expect(open.map((o) => o.orderId)).toContain(replaced.orderId);
    expect(open.find((o) => o.orderId === replaced.orderId)?.priceTicks).toBe(11_001);

    const c = await gw.cancel({ kind: 'cancel', symbol: EUR, orderId: replaced.orderId, clientOrderId: null });
    expect(c.accepted).toBe(true);
    await until(() => events.some((e) => e.type === 'canceled' && e.order.orderId === replaced.orderId), 5_000, 'cancel event');
    expect(await gw.status({ orderId: replaced.orderId })).toMatchObject({ state: 'CANCELED' });
    expect(gw.stats.viaWs).toBeGreaterThanOrEqual(5);
    expect(gw.stats.viaRest).toBe(0);
  });

  it('the same round trip over REST, with status by cid and cancel-all', async () => {
    const a = bid(10_900);
    const placed = await rest.placeOrder(a);
    expect(await rest.orderStatus({ clientOrderId: a.clientOrderId })).toMatchObject({ orderId: placed.orderId, clientOrderId: a.clientOrderId });
    const r = await rest.replaceOrder({ kind: 'replace', symbol: EUR, orderId: placed.orderId, clientOrderId: a.clientOrderId, priceTicks: 10_901, qty: 200 });
    const open = await rest.openOrders();
    expect(open.find((o) => o.orderId === r.orderId)).toMatchObject({ qty: 200, priceTicks: 10_901 });
    expect((await rest.cancelOrder({ orderId: null, clientOrderId: a.clientOrderId })).accepted).toBe(true);
    await rest.placeOrder(bid(10_800));
    await rest.cancelAllOrders(EUR);
    expect(await rest.openOrders()).toEqual([]);
  });

  it('a venue reject is a final ORDER_REJECTED with the reason kept, and an unknown order is null', async () => {
    const e = (await rest.placeOrder(bid(20_000)).catch((x: unknown) => x)) as MmError;
    expect(e).toBeInstanceOf(MmError);
    expect(e.code).toBe('ORDER_REJECTED');
    expect(e.retryable).toBe(false);
    expect(String(e.details['venueMessage'])).toMatch(/price/);
    expect(await rest.orderStatus({ clientOrderId: bid().clientOrderId })).toBeNull();
    expect(await ws.status({ clientOrderId: bid().clientOrderId })).toBeNull();
  });

  it('reads portfolio endpoints through the typed decoders', async () => {
    const who = await rest.whoami();
    expect(who.accounts.length).toBeGreaterThan(0);
    const pos = await rest.positions();
    expect(Array.isArray(pos.positions)).toBe(true);
    const bal = await rest.balances();
    expect(bal.balances.length).toBeGreaterThan(0);
  });
});
