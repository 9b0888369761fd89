import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { parseVenueConfig } from '../../src/sim/config/venue-config.ts';
import { Venue } from '../../src/sim/venue.ts';

function venueWithActor(): { v: Venue; on: (connId: string, price: string) => void } {
  const v = new Venue({ clock: new VirtualClock(Date.UTC(2026, 8, 24)), config: parseVenueConfig({ rate_limit: { enabled: false } }) });
  const accountId = v.defaultUser.accountIds[0]!;
  const on = (connId: string, price: string): void => {
    v.placeNow({ userId: v.defaultUser.id, accountId, connId }, { symbol: 'EURUSD-PERP', side: 'buy', qty: 100, price, tif: 'GTC', postOnly: true });
  };
  return { v, on };
}

describe('session hand-overs (make-before-break rollovers)', () => {
  it('orders of the first connection follow every later hand-over, however many (no chain limit)', () => {
    const { v, on } = venueWithActor();
    on('c0', '1.1000');
    on('c777', '1.1001');
    for (let i = 0; i < 1_500; i++) v.engine.moveConnection(`c${i}`, `c${i + 1}`);
    expect(v.engine.connectionOf('c0')).toBe('c1500');
    expect(v.engine.connectionOf('c777')).toBe('c1500');
    expect(v.engine.connectionOf('c1500')).toBe('c1500');
    expect(v.engine.connectionOf('other')).toBe('other');
    expect(v.engine.connectionOf(null)).toBeNull();
    v.engine.moveConnection('c1500', 'c1500'); // a no-op, not a loop
    expect(v.engine.connectionOf('c0')).toBe('c1500');
    // Cancel on disconnect of the last connection takes the orders placed on the first ones.
    expect(v.cancelAll(v.defaultUser.accountIds[0]!, { connId: 'c1500' })).toBe(2);
  });

  it('keeps aliases only for connections that still own live orders (bounded over endless rollovers)', () => {
    const { v, on } = venueWithActor();
    on('c0', '1.1000');
    for (let i = 0; i < 1_500; i++) v.engine.moveConnection(`c${i}`, `c${i + 1}`);
    // c0 (a live order) and the connection just handed over; the 1 498 others own nothing.
    expect(v.engine.connectionAliases).toBe(2);
    expect(v.engine.connectionOf('c0')).toBe('c1500');
    v.cancelAll(v.defaultUser.accountIds[0]!, { connId: 'c1500' });
    v.engine.moveConnection('c1500', 'c1501');
    expect(v.engine.connectionAliases).toBe(1);
    // The last connection closes with no successor: every hand-over ending at it is forgotten.
    v.engine.releaseConnection('c1501');
    expect(v.engine.connectionAliases).toBe(0);
  });
});
