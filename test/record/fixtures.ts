import { Decimal } from '../../src/core/decimal.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { Instrument } from '../../src/domain/instrument.ts';
import { TickGrid } from '../../src/domain/tick-grid.ts';

/** A EURUSD-PERP-like instrument (tick 0.0001, min size 100) for tests. */
export function testInstrument(symbol = 'EURUSD-PERP', tickSize = '0.0001', minOrderSize = 100): Instrument {
  return {
    symbol: asSymbol(symbol),
    product: symbol.split('-')[0]!,
    kind: 'perpetual',
    category: 'fx',
    description: `${symbol} test instrument`,
    expirationMs: null,
    grid: new TickGrid(tickSize),
    multiplier: new Decimal(1),
    minOrderSize,
    initialMarginPct: new Decimal('6.0'),
    maintenanceMarginPct: new Decimal('4.0'),
    bandLowerPct: new Decimal('10'),
    bandUpperPct: new Decimal('10'),
    fundingCapUpperPct: new Decimal('1.0'),
    fundingCapLowerPct: new Decimal('-1.0'),
    fundingSchedule: {
      timezone: 'Europe/London',
      times: [{ daysOfWeek: [1, 2, 3, 4, 5], hours: 16, minutes: 0, seconds: 0 }],
      exceptions: [],
    },
    fundingVariant: 'daily_close',
    estimatedFundingSupported: false,
  };
}
