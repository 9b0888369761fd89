/** Instrument mapping: wire record ⇄ domain Instrument (grid, funding schedule, variant, kind). */
import { Decimal } from '../../core/decimal.ts';
import { asSymbol } from '../../core/ids.ts';
import type { Result } from '../../core/result.ts';
import type { FundingSchedule, Instrument } from '../../domain/instrument.ts';
import { TickGrid } from '../../domain/tick-grid.ts';
import type { DecodeError } from '../decode/kit.ts';
import { WIRE_CATEGORIES, enumRaw, type WireCategory } from '../types/common.ts';
import type { WireFundingSchedule, WireInstrument } from '../types/instrument.ts';
import { dateTimeToMs, decimal, decimalOrNull, mapFail, mapping, msToDateTime } from './kit.ts';

/** Funding variant from a schedule: more than one time on any weekday → intraday TWAP slots. */
export function fundingVariantOf(schedule: FundingSchedule | null): 'daily_close' | 'intraday_twap' | null {
  if (schedule === null) return null;
  const perDay = new Map<number, number>();
  for (const t of schedule.times) for (const d of t.daysOfWeek) perDay.set(d, (perDay.get(d) ?? 0) + 1);
  return Math.max(0, ...perDay.values()) > 1 ? 'intraday_twap' : 'daily_close';
}

function scheduleOf(w: WireFundingSchedule): FundingSchedule {
  return {
    timezone: w.timezone,
    times: w.times.map((t) => ({ daysOfWeek: t.days_of_week, hours: t.time_of_day.hours, minutes: t.time_of_day.minutes, seconds: t.time_of_day.seconds })),
    exceptions: (w.exceptions ?? []).map((e) => ({ date: e.date, times: e.times, reason: e.reason ?? '' })),
  };
}

function requiredPct(v: string | null, path: string): Decimal {
  return v === null ? mapFail(path, 'a percentage', v) : decimal(v);
}

/** Maps a wire instrument to the domain Instrument. Never throws. */
export function toDomainInstrument(w: WireInstrument): Result<Instrument, DecodeError> {
  return mapping(() => {
    let grid: TickGrid;
    try {
      grid = new TickGrid(w.tick_size);
    } catch {
      return mapFail('$.tick_size', 'a positive tick size', w.tick_size);
    }
    const minSize = Number(w.minimum_order_size);
    if (!Number.isSafeInteger(minSize) || minSize <= 0) mapFail('$.minimum_order_size', 'a positive integer', w.minimum_order_size);
    const schedule = w.funding_schedule ? scheduleOf(w.funding_schedule) : null;
    return {
      symbol: asSymbol(w.symbol),
      product: w.product,
      kind: w.expiration === null ? 'perpetual' : 'dated',
      category: enumRaw(w.category),
      description: w.description ?? '',
      expirationMs: w.expiration === null ? null : dateTimeToMs(w.expiration, '$.expiration'),
      grid,
      multiplier: decimal(w.multiplier),
      minOrderSize: minSize,
      initialMarginPct: decimal(w.initial_margin_pct),
      maintenanceMarginPct: decimal(w.maintenance_margin_pct),
      bandLowerPct: requiredPct(w.price_band_lower_deviation_pct, '$.price_band_lower_deviation_pct'),
      bandUpperPct: requiredPct(w.price_band_upper_deviation_pct, '$.price_band_upper_deviation_pct'),
      fundingCapUpperPct: decimalOrNull(w.funding_rate_cap_upper_pct),
      fundingCapLowerPct: decimalOrNull(w.funding_rate_cap_lower_pct),
      fundingSchedule: schedule,
      fundingVariant: fundingVariantOf(schedule),
      estimatedFundingSupported: w.estimated_funding_supported ?? false,
    } satisfies Instrument;
  });
}

/**
 * Maps a domain Instrument back to the wire record (for the local venue). Fields the domain does
 * not keep (descriptions, currencies) get neutral values; dated futures omit the funding keys.
 */
export function toWireInstrument(i: Instrument): WireInstrument {
  const base = {
    symbol: i.symbol,
    product: i.product,
    expiration: i.expirationMs === null ? null : msToDateTime(i.expirationMs),
    multiplier: i.multiplier.toString(),
    price_scale: new Decimal(1).div(i.grid.tickSize).toNumber(),
    minimum_order_size: String(i.minOrderSize),
    tick_size: i.grid.tickSize.toFixed(),
    quote_currency: 'USD',
    price_band_lower_deviation_pct: i.bandLowerPct.toString(),
    price_band_upper_deviation_pct: i.bandUpperPct.toString(),
  };
  const tail = {
    maintenance_margin_pct: i.maintenanceMarginPct.toString(),
    initial_margin_pct: i.initialMarginPct.toString(),
    category: (WIRE_CATEGORIES as readonly string[]).includes(i.category) ? (i.category as WireCategory) : { unknown: i.category },
    description: i.description,
  };
  if (i.kind === 'dated') return { ...base, ...tail, estimated_funding_supported: i.estimatedFundingSupported, additional_product_specs: null };
  const s = i.fundingSchedule;
  return {
    ...base,
    funding_settlement_currency: 'USD',
    funding_rate_cap_upper_pct: i.fundingCapUpperPct?.toString() ?? null,
    funding_rate_cap_lower_pct: i.fundingCapLowerPct?.toString() ?? null,
    ...tail,
    funding_schedule:
      s === null
        ? null
        : {
            timezone: s.timezone,
            times: s.times.map((t) => ({ days_of_week: t.daysOfWeek, time_of_day: { hours: t.hours, minutes: t.minutes, seconds: t.seconds } })),
            exceptions: s.exceptions.map((e) => ({ date: e.date, times: e.times, reason: e.reason })),
          },
    trading_schedule: null,
    estimated_funding_supported: i.estimatedFundingSupported,
    additional_product_specs: null,
  };
}
