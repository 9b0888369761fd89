import { describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/errors.ts';
import { asClientOrderId, asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import type { PlaceOrder } from '../../src/domain/intents.ts';
import type { OrderStatus } from '../../src/domain/order.ts';
import { venueGateway } from '../../src/client/venue-gateway.ts';
import type { OrderWsClient } from '../../src/client/order-ws-client.ts';
import type { RestClient } from '../../src/client/rest-client.ts';

const place: PlaceOrder = {
  kind: 'place',
  symbol: asSymbol('EURUSD-PERP'),
  side: 'buy',
  priceTicks: 1,
  qty: 1,
  tif: 'GTC',
  postOnly: true,
  reprice: 'rej',
  selfTrade: 'CancelIncoming',
  clientOrderId: asClientOrderId(9),
  tag: null,
};
const st: OrderStatus = { symbol: place.symbol, orderId: asVenueOrderId('O-R'), clientOrderId: place.clientOrderId, state: 'ACCEPTED', filledQty: 0, remainingQty: 1, rejectReason: null, rejectMessage: null };

function fakes(ws: Partial<OrderWsClient> & { connected: boolean }) {
  const calls: string[] = [];
  const rest = {
    placeOrder: async () => (calls.push('rest.place'), { orderId: asVenueOrderId('O-REST') }),
    cancelOrder: async () => (calls.push('rest.cancel'), { accepted: true }),
    cancelAllOrders: async () => void calls.push('rest.cancelAll'),
    orderStatus: async () => (calls.push('rest.status'), st),
    openOrders: async () => (calls.push('rest.open'), []),
  } as unknown as RestClient;
  return { gw: venueGateway(ws as OrderWsClient, rest), calls };
}

describe('venueGateway', () => {
  it('goes over the WS when logged in', async () => {
    const { gw, calls } = fakes({ connected: true, place: async () => ({ orderId: asVenueOrderId('O-WS') }) });
    expect(await gw.place(place)).toEqual({ orderId: 'O-WS' });
    expect(calls).toEqual([]);
    expect(gw.stats).toMatchObject({ viaWs: 1, viaRest: 0 });
  });

  it('falls back to REST when the WS is down or dropped before sending', async () => {
    const down = fakes({ connected: false });
    expect(await down.gw.place(place)).toEqual({ orderId: 'O-REST' });
    const raced = fakes({ connected: true, place: () => Promise.reject(new MmError('DISCONNECTED', 'not sent')) });
    expect(await raced.gw.place(place)).toEqual({ orderId: 'O-REST' });
    expect(raced.calls).toEqual(['rest.place']);
  });

  it('never resends a place whose WS reply timed out: it asks for status by cid', async () => {
    const { gw, calls } = fakes({ connected: true, place: () => Promise.reject(new MmError('TIMEOUT', 'lost')) });
    expect(await gw.place(place)).toEqual({ orderId: 'O-R', resolvedByStatus: true });
    expect(calls).toEqual(['rest.status']);
    expect(gw.stats.resolvedByStatus).toBe(1);
  });

  it('cancels and reads fall back to REST on DISCONNECTED or TIMEOUT, but final errors pass through', async () => {
    const { gw, calls } = fakes({
      connected: true,
      cancel: () => Promise.reject(new MmError('TIMEOUT', 'lost')),
      cancelAll: () => Promise.reject(new MmError('DISCONNECTED', 'down')),
      status: () => Promise.reject(new MmError('TIMEOUT', 'lost')),
      openOrders: () => Promise.reject(new MmError('CANCEL_REJECTED', 'no')),
    });
    expect(await gw.cancel({ kind: 'cancel', symbol: place.symbol, orderId: asVenueOrderId('O-1'), clientOrderId: null })).toEqual({ accepted: true });
    await gw.cancelAll(null);
    expect(await gw.status({ clientOrderId: place.clientOrderId })).toBe(st);
    await expect(gw.openOrders()).rejects.toMatchObject({ code: 'CANCEL_REJECTED' });
    expect(calls).toEqual(['rest.cancel', 'rest.cancelAll', 'rest.status']);
  });
});
