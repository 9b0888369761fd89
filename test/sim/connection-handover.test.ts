import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { Venue } from '../../src/sim/venue.ts';

describe('session hand-overs (make-before-break rollovers)', () => {
  it('orders of the first connection follow every later hand-over, however many (no chain limit)', () => {
    const v = new Venue({ clock: new VirtualClock(Date.UTC(2026, 8, 24)) });
    for (let i = 0; i < 1_500; i++) v.engine.moveConnection(`c${i}`, `c${i + 1}`);
    expect(v.engine.connectionOf('c0')).toBe('c1500');
    expect(v.engine.connectionOf('c777')).toBe('c1500');
    expect(v.engine.connectionOf('c1500')).toBe('c1500');
    expect(v.engine.connectionOf('other')).toBe('other');
    expect(v.engine.connectionOf(null)).toBeNull();
    v.engine.moveConnection('c1500', 'c1500'); // a no-op, not a loop
    expect(v.engine.connectionOf('c0')).toBe('c1500');
  });
});
