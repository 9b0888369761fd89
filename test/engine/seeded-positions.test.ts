import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { SeededPositions } from '../../src/engine/seeded-positions.ts';

describe('SeededPositions (the start-up cut-off)', () => {
  it('counts fills at or before the position last fill as included, compared in whole ms', () => {
    const s = new SeededPositions();
    expect(s.includes('EURUSD-PERP', 1_000)).toBe(false); // nothing seeded: nothing cut off
    s.setCutoff('EURUSD-PERP', 1_000_000.9); // a venue time with a fraction: truncated like REST times
    expect(s.includes('EURUSD-PERP', 999_999)).toBe(true);
    expect(s.includes('EURUSD-PERP', 1_000_000)).toBe(true); // the position's last fill itself (REST, ms)
    expect(s.includes('EURUSD-PERP', 1_000_000.456)).toBe(true); // the same fill from the stream (µs kept)
    expect(s.includes('EURUSD-PERP', 1_000_001)).toBe(false);
    expect(s.includes('XAU-PERP', 5)).toBe(false); // per symbol
  });

  it('never moves a cut-off back, and forgets it for a position without a last fill', () => {
    const s = new SeededPositions();
    s.setCutoff('EURUSD-PERP', 2_000);
    s.setCutoff('EURUSD-PERP', 1_500);
    expect(s.includes('EURUSD-PERP', 1_999)).toBe(true);
    s.setCutoff('EURUSD-PERP', null);
    expect(s.includes('EURUSD-PERP', 1_999)).toBe(false);
  });

  it('keeps the venue realized PnL at start-up as the base', () => {
    const s = new SeededPositions();
    expect(s.setBase('EURUSD-PERP', new Decimal('12.5'))!.toFixed()).toBe('12.5');
    expect(s.base('EURUSD-PERP')!.toFixed()).toBe('12.5');
    expect(s.base('XAU-PERP')).toBeNull();
    s.setBase('EURUSD-PERP', null);
    expect(s.base('EURUSD-PERP')).toBeNull();
  });
});
