import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TickGrid } from '../../src/domain/tick-grid.ts';

describe('TickGrid', () => {
  const eur = new TickGrid('0.0001');

  it('converts exact prices both ways', () => {
    expect(eur.toTicks('1.1388')).toBe(11388);
    expect(eur.toTicks('1.138800000000')).toBe(11388);
    expect(eur.toTicks('1.13')).toBe(11300);
    expect(eur.toPrice(11388)).toBe('1.1388');
    expect(eur.toPrice(5)).toBe('0.0005');
    expect(eur.toPrice(-5)).toBe('-0.0005');
  });

  it('rounds off-grid prices per mode, bids down and asks up', () => {
    expect(() => eur.toTicks('1.12345')).toThrow(/not a multiple/);
    expect(eur.toTicks('1.12345', 'down')).toBe(11234);
    expect(eur.toTicks('1.12345', 'up')).toBe(11235);
    expect(eur.toTicks('1.12345', 'nearest')).toBe(11235);
    expect(eur.toTicks('-1.12345', 'down')).toBe(-11235);
    expect(eur.toTicks('-1.12345', 'up')).toBe(-11234);
    expect(eur.toQuoteTicks('1.12349', 'buy')).toBe(11234);
    expect(eur.toQuoteTicks('1.12341', 'sell')).toBe(11235);
  });

  it('handles ticks that are not powers of ten', () => {
    const g = new TickGrid('0.25');
    expect(g.toTicks('1.75')).toBe(7);
    expect(() => g.toTicks('1.7')).toThrow();
    expect(g.toTicks('1.7', 'down')).toBe(6);
    expect(g.toTicks('1.7', 'up')).toBe(7);
    expect(g.toPrice(7)).toBe('1.75');
  });

  it('rejects strings that are not decimals', () => {
    for (const bad of ['', '-', '1.', '.5', 'abc', '1e5', '1.2.3', ' 1']) expect(() => eur.toTicks(bad)).toThrow(RangeError);
  });

  it('round-trips any tick count for common grids', () => {
    for (const tick of ['0.1', '0.01', '0.0001', '0.00001', '0.000001', '1', '0.25', '0.05']) {
      const g = new TickGrid(tick);
      fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), (t) => g.toTicks(g.toPrice(t)) === t));
    }
  });
});
