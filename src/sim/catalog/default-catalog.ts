import { readFileSync } from 'node:fs';
import { Decimal } from '../../core/decimal.ts';
import { asSymbol } from '../../core/ids.ts';
import type { FundingSchedule, Instrument, InstrumentCatalog } from '../../domain/instrument.ts';
import { instrumentCatalog } from '../../domain/instrument.ts';
import { TickGrid } from '../../domain/tick-grid.ts';

/** The raw instrument record as `GET /api/instruments` serves it (the captured sandbox catalog). */
export type RawInstrument = Readonly<Record<string, unknown>> & { readonly symbol: string };

let cachedRaw: readonly RawInstrument[] | undefined;

/** The shipped catalog (29 instruments, a copy of the captured sandbox catalog), raw wire records. */
export function defaultRawInstruments(): readonly RawInstrument[] {
  if (!cachedRaw) {
    const text = readFileSync(new URL('./instruments.json', import.meta.url), 'utf8');
    const parsed = JSON.parse(text) as { instruments: RawInstrument[] };
    cachedRaw = Object.freeze(parsed.instruments.map((i) => Object.freeze(i)));
  }
  return cachedRaw;
}

const str = (r: RawInstrument, k: string): string | null => {
  const v = r[k];
  return typeof v === 'string' ? v : null;
};

function schedule(raw: unknown): FundingSchedule | null {
  if (!raw || typeof raw !== 'object') return null;
  const s = raw as {
    timezone: string;
    times: { days_of_week: number[]; time_of_day: { hours: number; minutes: number; seconds: number } }[];
    exceptions?: { date: string; times: { hours: number; minutes: number; seconds: number }[]; reason: string }[];
  };
  return {
    timezone: s.timezone,
    times: s.times.map((t) => ({ daysOfWeek: t.days_of_week, hours: t.time_of_day.hours, minutes: t.time_of_day.minutes, seconds: t.time_of_day.seconds })),
    exceptions: (s.exceptions ?? []).map((e) => ({ date: e.date, times: e.times, reason: e.reason })),
  };
}

/**
 * Maps a raw catalog record to the domain Instrument.
 * @throws RangeError naming the symbol and field when a required field is missing or malformed.
 */
export function toInstrument(r: RawInstrument): Instrument {
  const need = (k: string): string => {
    const v = str(r, k);
    if (v === null) throw new RangeError(`instrument ${r.symbol}: field ${k} must be a string`);
    return v;
  };
  const expiration = str(r, 'expiration');
  const sched = schedule(r['funding_schedule']);
  const capU = str(r, 'funding_rate_cap_upper_pct');
  const capL = str(r, 'funding_rate_cap_lower_pct');
  return {
    symbol: asSymbol(r.symbol),
    product: need('product'),
    kind: expiration ? 'dated' : 'perpetual',
    category: need('category'),
    description: str(r, 'description') ?? '',
    expirationMs: expiration ? Date.parse(expiration) : null,
    grid: new TickGrid(need('tick_size')),
    multiplier: new Decimal(need('multiplier')),
    minOrderSize: Number(need('minimum_order_size')),
    initialMarginPct: new Decimal(need('initial_margin_pct')),
    maintenanceMarginPct: new Decimal(need('maintenance_margin_pct')),
    bandLowerPct: new Decimal(str(r, 'price_band_lower_deviation_pct') ?? '10'),
    bandUpperPct: new Decimal(str(r, 'price_band_upper_deviation_pct') ?? '10'),
    fundingCapUpperPct: capU === null ? null : new Decimal(capU),
    fundingCapLowerPct: capL === null ? null : new Decimal(capL),
    fundingSchedule: sched,
    fundingVariant: sched === null ? null : sched.times.length > 1 ? 'intraday_twap' : 'daily_close',
    estimatedFundingSupported: r['estimated_funding_supported'] === true,
  };
}

/** The shipped catalog as domain instruments. */
export function defaultCatalog(): InstrumentCatalog {
  return instrumentCatalog(defaultRawInstruments().map(toInstrument));
}

/**
 * Starting last-settlement prices per symbol (≈ the sandbox on 2026-09-24; equities from the
 * captured tickers where present). Bands are ±10% around these until the first settlement.
 */
export const INITIAL_PRICES: Readonly<Record<string, string>> = Object.freeze({
  'USO-PERP': '78.45',
  'AAPL-PERP': '337.02',
  'QQQ-PERP': '612.35',
  'AMZN-PERP': '249.27',
  'GOOGL-PERP': '251.64',
  'EURUSD-PERP': '1.1401',
  'XAU-PERP': '4012.5',
  'INTC-PERP': '31.84',
  'SNDK-PERP': '118.66',
  'UNG-PERP': '13.27',
  'UST10Y-PERP': '101.18',
  'MSFT-PERP': '523.41',
  'XAU-2026-SEP': '4015.2',
  'NVDA-PERP': '187.94',
  'XAG-PERP': '65.48',
  'XAU-2026-DEC': '4048.7',
  'BRLUSD-PERP': '0.1944',
  'BNO-PERP': '60.36',
  'SPY-PERP': '668.12',
  'TSLA-PERP': '442.79',
  'GBPUSD-PERP': '1.3452',
  'XCU-PERP': '4.7215',
  'META-PERP': '761.33',
  'AMD-PERP': '614.61',
  'JPYUSD-PERP': '0.006742',
  'MXNUSD-PERP': '0.05461',
  'MU-PERP': '171.05',
  'WTIOIL-PERP': '64.215',
  'XAL-PERP': '2.6875',
});
