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

describe('venueAccountReader', () => {
  it('queries fills in ≤ 7-day windows, oldest first, and positions by symbol with cost basis, realized PnL and last fill time', async () => {
    const { venueAccountReader } = await import('../../src/client/venue-gateway.ts');
    const { Decimal } = await import('../../src/core/decimal.ts');
    const DAY = 86_400_000;
    const windows: [string, string][] = [];
    const fill = (ts: number) => ({ tradeId: `t${ts}`, orderId: asVenueOrderId('O-1'), symbol: place.symbol, side: 'buy', priceTicks: 1, qty: 1, aggressor: false, tsEvent: ts, fee: new Decimal(0) });
    const rest = {
      allFills: async function* (q: { start_timestamp_ns: string; end_timestamp_ns: string }) {
        windows.push([q.start_timestamp_ns, q.end_timestamp_ns]);
        const start = Number(BigInt(q.start_timestamp_ns) / 1_000_000n);
        yield fill(start + DAY);
        yield fill(start);
      },
      positions: async () => ({
        positions: [
          { account_id: 'A', symbol: 'EURUSD-PERP', signed_quantity: -300, signed_cost_basis: '-330.030000000000', realized_pnl: '7.500000000000', timestamp: '2026-11-24T08:40:01.123456789Z' },
          { account_id: 'A', symbol: 'XAU-PERP', signed_quantity: 0, signed_cost_basis: '0', realized_pnl: '0', timestamp: null },
        ],
      }),
    } as unknown as RestClient;
    const reader = venueAccountReader(rest);
    const fills = await reader.fills(0, 10 * DAY);
    expect(windows).toEqual([
      ['0', String(7n * BigInt(DAY) * 1_000_000n)],
      [String(7n * BigInt(DAY) * 1_000_000n), String(10n * BigInt(DAY) * 1_000_000n)],
    ]);
    expect(fills.map((f) => f.tsEvent)).toEqual([0, DAY, 7 * DAY, 8 * DAY]);
    const positions = await reader.positions();
    expect([...positions].map(([s, p]) => [s, p.qty, p.costBasis?.toFixed(), p.realizedPnl?.toFixed(), p.lastFillMs])).toEqual([
      // The last fill time to the ms, as REST fill times are (the start-up cut-off compares them).
      ['EURUSD-PERP', -300, '-330.03', '7.5', Date.UTC(2026, 10, 24, 8, 40, 1, 123)],
      ['XAU-PERP', 0, '0', '0', null],
    ]);
  });
});
