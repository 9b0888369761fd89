import { Decimal } from '../core/decimal.ts';
import { asSymbol } from '../core/ids.ts';
import type { Instrument, InstrumentKind } from './instrument.ts';
import { TickGrid } from './tick-grid.ts';

/**
 * What a hand-made instrument needs (a strategy's unit test, a script): a symbol and a tick size;
 * everything else defaults to an unfunded perpetual with the venue's usual ±10 % bands.
 */
export interface InstrumentSpec {
  readonly symbol: string;
  /** Tick size as a decimal string, e.g. `'0.0001'`. */
  readonly tickSize: string;
  /** Minimum order size in contracts (default 1). */
  readonly minOrderSize?: number;
  /** Contract multiplier as a decimal string (default `'1'`, as on the venue). */
  readonly multiplier?: string;
  /** Default `perpetual`. */
  readonly kind?: InstrumentKind;
  /** Initial and maintenance margin in percent (defaults 10 and 5). */
  readonly initialMarginPct?: number;
  readonly maintenanceMarginPct?: number;
  /** Price-band deviation either side of the last settlement, in percent (default 10). */
  readonly bandPct?: number;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Builds a complete `Instrument` from a short spec, so code outside the venue (a strategy's test)
 * needs no cast: `makeInstrument({ symbol: 'EURUSD-PERP', tickSize: '0.0001' })`.
 * @throws RangeError naming the field and the value when one is not valid.
 */
export function makeInstrument(spec: InstrumentSpec): Instrument {
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new RangeError(`makeInstrument: ${field}: expected ${expected}, got ${JSON.stringify(got)}`);
  };
  if (typeof spec.symbol !== 'string' || spec.symbol.trim() === '') bad('symbol', 'a non-empty string', spec.symbol);
  if (typeof spec.tickSize !== 'string' || !DECIMAL.test(spec.tickSize) || !new Decimal(spec.tickSize).gt(0))
    bad('tickSize', 'a positive decimal string such as "0.0001"', spec.tickSize);
  const minOrderSize = spec.minOrderSize ?? 1;
  if (!Number.isInteger(minOrderSize) || minOrderSize < 1) bad('minOrderSize', 'a positive integer (contracts)', spec.minOrderSize);
  const multiplier = spec.multiplier ?? '1';
  if (typeof multiplier !== 'string' || !DECIMAL.test(multiplier) || !new Decimal(multiplier).gt(0))
    bad('multiplier', 'a positive decimal string', spec.multiplier);
  const pct = (field: string, v: number | undefined, dflt: number): Decimal => {
    const x = v ?? dflt;
    if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) bad(field, 'a positive number (percent)', v);
    return new Decimal(x);
  };
  const band = pct('bandPct', spec.bandPct, 10);
  return {
    symbol: asSymbol(spec.symbol),
    product: spec.symbol.replace(/-PERP$/, ''),
    kind: spec.kind ?? 'perpetual',
    category: 'custom',
    description: `${spec.symbol} (hand-made)`,
    expirationMs: null,
    grid: new TickGrid(spec.tickSize),
    multiplier: new Decimal(multiplier),
    minOrderSize,
    initialMarginPct: pct('initialMarginPct', spec.initialMarginPct, 10),
    maintenanceMarginPct: pct('maintenanceMarginPct', spec.maintenanceMarginPct, 5),
    bandLowerPct: band,
    bandUpperPct: band,
    fundingCapUpperPct: null,
    fundingCapLowerPct: null,
    fundingSchedule: null,
    fundingVariant: null,
    estimatedFundingSupported: false,
  };
}
