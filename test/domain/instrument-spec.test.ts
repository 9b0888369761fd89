import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { initialMargin, priceBand } from '../../src/domain/instrument.ts';
import { makeInstrument } from '../../src/domain/instrument-spec.ts';

describe('makeInstrument', () => {
  it('builds a whole perpetual from a symbol and a tick size, usable by the domain functions', () => {
    const ins = makeInstrument({ symbol: 'EURUSD-PERP', tickSize: '0.0001' });
    expect(ins).toMatchObject({ symbol: 'EURUSD-PERP', product: 'EURUSD', kind: 'perpetual', minOrderSize: 1, expirationMs: null, fundingSchedule: null, fundingVariant: null });
    expect(ins.grid.toTicks('1.1401')).toBe(11401);
    expect(ins.multiplier.toString()).toBe('1');
    // ±10 % of 1.1401 rounded inward (the venue's EURUSD ticker showed 1.0261 / 1.2541).
    expect(priceBand(ins, new Decimal('1.1401'))).toEqual({ lowerTicks: 10261, upperTicks: 12541 });
    // Default IM 10 %: 100 contracts at 1.1383 → 11.383 USD.
    expect(initialMargin(ins, 100, 11383).toString()).toBe('11.383');
  });

  it('takes the optional fields', () => {
    const ins = makeInstrument({ symbol: 'XAU-2026-DEC', tickSize: '0.1', minOrderSize: 5, multiplier: '10', kind: 'dated', initialMarginPct: 12.5, maintenanceMarginPct: 7.5, bandPct: 5 });
    expect(ins).toMatchObject({ kind: 'dated', minOrderSize: 5, product: 'XAU-2026-DEC' });
    expect([ins.multiplier, ins.initialMarginPct, ins.maintenanceMarginPct, ins.bandLowerPct, ins.bandUpperPct].map(String)).toEqual(['10', '12.5', '7.5', '5', '5']);
  });

  it.each([
    [{ symbol: '', tickSize: '0.01' }, 'makeInstrument: symbol: expected a non-empty string, got ""'],
    [{ symbol: 'X', tickSize: 'abc' }, 'makeInstrument: tickSize: expected a positive decimal string such as "0.0001", got "abc"'],
    [{ symbol: 'X', tickSize: '0' }, 'makeInstrument: tickSize: expected a positive decimal string such as "0.0001", got "0"'],
    [{ symbol: 'X', tickSize: '0.01', minOrderSize: 0.5 }, 'makeInstrument: minOrderSize: expected a positive integer (contracts), got 0.5'],
    [{ symbol: 'X', tickSize: '0.01', multiplier: '-1' }, 'makeInstrument: multiplier: expected a positive decimal string, got "-1"'],
    [{ symbol: 'X', tickSize: '0.01', bandPct: 0 }, 'makeInstrument: bandPct: expected a positive number (percent), got 0'],
  ])('names the bad field and value: %j', (spec, message) => {
    expect(() => makeInstrument(spec)).toThrow(new RangeError(message));
  });
});
