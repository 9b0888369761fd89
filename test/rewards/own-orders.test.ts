import { describe, expect, it } from 'vitest';
import { asAccountId, asClientOrderId, asExecutionId, asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import type { Order } from '../../src/domain/order.ts';
import { OwnOrderTimeline } from '../../src/rewards/own-orders.ts';

const S = asSymbol('EURUSD-PERP');
const order = (id: string, state: Order['state'] = 'ACCEPTED', createdMs = 0): Order => ({
  orderId: asVenueOrderId(id), clientOrderId: asClientOrderId(1), accountId: asAccountId('a'), userId: null, symbol: S, side: 'buy', priceTicks: 1000, qty: 100,
  filledQty: 0, remainingQty: state === 'ACCEPTED' ? 100 : 0, state, tif: 'GTC', postOnly: true, reprice: 'rej', tag: null, rejectReason: null, text: null, createdMs,
});
const e = { executionId: asExecutionId('E-1') };

describe('OwnOrderTimeline memory', () => {
  it('forgets ended orders once their last event is older than the keep window, so a long run stays bounded', () => {
    const t = new OwnOrderTimeline(60_000);
    for (let i = 0; i < 5_000; i++) {
      const at = i * 1_000;
      t.apply({ type: 'accepted', order: order(`O-${i}`, 'ACCEPTED', at), ...e, tsEvent: at, tsRecv: at });
      t.apply({ type: 'canceled', order: order(`O-${i}`, 'CANCELED', at), reason: '', text: '', ...e, tsEvent: at + 500, tsRecv: at + 500 });
      if (i % 60 === 0) t.prune(at);
    }
    t.prune(5_000_000);
    // At most the last minute's orders (plus one prune period) are remembered, not all 5 000.
    expect(t.knownCount).toBeLessThanOrEqual(121);
    expect(t.knows('O-4999')).toBe(true);
    expect(t.knows('O-10')).toBe(false);
  });

  it('prunes by the newest venue event time when the caller\'s clock is behind the venue\'s', () => {
    const t = new OwnOrderTimeline(60_000);
    const venueAhead = 10_000_000;
    for (let i = 0; i < 1_000; i++) {
      const at = venueAhead + i * 1_000;
      t.apply({ type: 'accepted', order: order(`O-${i}`, 'ACCEPTED', at), ...e, tsEvent: at, tsRecv: at });
      t.apply({ type: 'canceled', order: order(`O-${i}`, 'CANCELED', at), reason: '', text: '', ...e, tsEvent: at + 500, tsRecv: at + 500 });
    }
    t.prune(0); // our clock reads far behind the venue's
    expect(t.knownCount).toBeLessThanOrEqual(61);
    expect(t.at(S, venueAhead + 5_000)).toEqual([]);
  });

  it('keeps remembering an order that still rests, however old', () => {
    const t = new OwnOrderTimeline(60_000);
    t.apply({ type: 'accepted', order: order('O-old'), ...e, tsEvent: 0, tsRecv: 0 });
    t.prune(10_000_000);
    expect(t.knows('O-old')).toBe(true);
    expect(t.at(S, 9_000_000).map((o) => o.id)).toEqual(['O-old']);
  });
});
