import { Decimal } from '../core/decimal.ts';
import type { Symbol } from '../core/ids.ts';
import type { Side } from './enums.ts';
import { TickGrid } from './tick-grid.ts';

/** One scheduled time of day: ISO days of week (1 = Monday) at hh:mm:ss in the schedule's timezone. */
export interface FundingTime {
  readonly daysOfWeek: readonly number[];
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

/** A dated exception: replaces that day's times (an empty list means no funding that day). */
export interface FundingException {
  readonly date: string;
  readonly times: readonly { readonly hours: number; readonly minutes: number; readonly seconds: number }[];
  readonly reason: string;
}

/** When an instrument settles funding (docs/venue-protocol.md §2.2). */
export interface FundingSchedule {
  readonly timezone: string;
  readonly times: readonly FundingTime[];
  readonly exceptions: readonly FundingException[];
}

/** Whether a product is perpetual (funding) or dated (final settlement at expiry). */
export type InstrumentKind = 'perpetual' | 'dated';

/** The static description of a tradable contract, in domain units. Percentages are percent (6 = 6%). */
export interface Instrument {
  readonly symbol: Symbol;
  readonly product: string;
  readonly kind: InstrumentKind;
  readonly category: string;
  readonly description: string;
  /** Expiry in epoch ms for dated futures, null for perpetuals. */
  readonly expirationMs: number | null;
  readonly grid: TickGrid;
  readonly multiplier: Decimal;
  /** Minimum order size in contracts; orders below it are rejected with INCORRECT_QUANTITY. */
  readonly minOrderSize: number;
  readonly initialMarginPct: Decimal;
  readonly maintenanceMarginPct: Decimal;
  readonly bandLowerPct: Decimal;
  readonly bandUpperPct: Decimal;
  /** Funding cap per event in percent, null for dated futures or when uncapped. */
  readonly fundingCapUpperPct: Decimal | null;
  readonly fundingCapLowerPct: Decimal | null;
  readonly fundingSchedule: FundingSchedule | null;
  /** `daily_close` (one settlement) or `intraday_twap` (several slots a day). */
  readonly fundingVariant: 'daily_close' | 'intraday_twap' | null;
  readonly estimatedFundingSupported: boolean;
}

/** Inclusive price-band limits in ticks. */
export interface PriceBand {
  readonly lowerTicks: number;
  readonly upperTicks: number;
}

/**
 * Price bands from the last settlement price: lsp × (1 ∓ pct/100), each rounded inward to the tick
 * (docs/venue-rules.md §3). Negative deviations in some feeds are treated by magnitude.
 */
export function priceBand(instrument: Instrument, lastSettlement: Decimal): PriceBand {
  const lo = lastSettlement.mul(new Decimal(1).minus(instrument.bandLowerPct.abs().div(100)));
  const hi = lastSettlement.mul(new Decimal(1).plus(instrument.bandUpperPct.abs().div(100)));
  return { lowerTicks: instrument.grid.decimalToTicks(lo, 'up'), upperTicks: instrument.grid.decimalToTicks(hi, 'down') };
}

/** True when `priceTicks` lies inside the band (inclusive). */
export const inBand = (band: PriceBand, priceTicks: number): boolean =>
  priceTicks >= band.lowerTicks && priceTicks <= band.upperTicks;

/** USD notional of `qty` contracts at `priceTicks`. */
export const notional = (instrument: Instrument, priceTicks: number, qty: number): Decimal =>
  instrument.grid.toDecimal(priceTicks).mul(qty).mul(instrument.multiplier);

/** Initial margin for `qty` contracts at `priceTicks`: notional × IM% (docs/venue-rules.md §6). */
export const initialMargin = (instrument: Instrument, priceTicks: number, qty: number): Decimal =>
  notional(instrument, priceTicks, Math.abs(qty)).mul(instrument.initialMarginPct).div(100);

/** Snaps a quote price onto the grid: bids down, asks up (the one rounding rule). */
export const snapQuote = (instrument: Instrument, price: Decimal, side: Side): number =>
  instrument.grid.toQuoteTicks(price, side);

/** A read-only catalog of instruments by symbol. */
export interface InstrumentCatalog {
  get(symbol: string): Instrument | undefined;
  all(): readonly Instrument[];
}

/** Builds a catalog over a fixed list of instruments. */
export function instrumentCatalog(instruments: readonly Instrument[]): InstrumentCatalog {
  const bySymbol = new Map<string, Instrument>(instruments.map((i) => [i.symbol, i]));
  return { get: (s) => bySymbol.get(s), all: () => instruments };
}
