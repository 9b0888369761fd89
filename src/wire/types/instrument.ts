/** Instrument reference data (`GET /api/instruments`, `GET /api/instrument`). */
import type { DateString, DateTimeString, DecimalString, WireCategory, WireEnum } from './common.ts';

/** A time of day in the schedule's timezone. */
export interface WireTimeOfDay {
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

/** A recurring funding time: ISO days of week (1 = Monday … 7 = Sunday) at a time of day. */
export interface WireFundingScheduleTime {
  readonly days_of_week: readonly number[];
  readonly time_of_day: WireTimeOfDay;
}

/** A dated exception replacing that day's times (empty = no funding that day). */
export interface WireFundingScheduleException {
  readonly date: DateString;
  readonly times: readonly WireTimeOfDay[];
  readonly reason?: string | null | undefined;
}

/** When an instrument settles funding. */
export interface WireFundingSchedule {
  readonly timezone: string;
  readonly times: readonly WireFundingScheduleTime[];
  readonly exceptions?: readonly WireFundingScheduleException[] | null | undefined;
}

/** One segment of a trading schedule (never seen populated; shape from the SDK). */
export interface WireTradingScheduleSegment {
  readonly days_of_week: readonly number[];
  readonly time_of_day: WireTimeOfDay;
  readonly duration_seconds: number;
  readonly state: string;
  readonly hide_market_data?: boolean | undefined;
  readonly expire_all_orders?: boolean | undefined;
}

/** Trading schedule (null for every instrument seen). */
export interface WireTradingSchedule {
  readonly segments: readonly WireTradingScheduleSegment[];
}

/**
 * An instrument record. Dated futures omit every `funding_*` key. `price_scale` is 1/tick (not a
 * digit count). Percent fields are percent (`"6.0"` = 6%). Instruments carry no state.
 */
export interface WireInstrument {
  readonly symbol: string;
  readonly product: string;
  readonly expiration: DateTimeString | null;
  readonly multiplier: DecimalString;
  readonly price_scale: number;
  readonly minimum_order_size: DecimalString;
  readonly tick_size: DecimalString;
  readonly quote_currency: string;
  readonly price_band_lower_deviation_pct: DecimalString | null;
  readonly price_band_upper_deviation_pct: DecimalString | null;
  readonly funding_settlement_currency?: string | null | undefined;
  readonly funding_rate_cap_upper_pct?: DecimalString | null | undefined;
  readonly funding_rate_cap_lower_pct?: DecimalString | null | undefined;
  readonly maintenance_margin_pct: DecimalString;
  readonly initial_margin_pct: DecimalString;
  readonly category: WireEnum<WireCategory>;
  readonly description?: string | null | undefined;
  readonly underlying_benchmark_price?: string | null | undefined;
  readonly contract_mark_price?: string | null | undefined;
  readonly contract_size?: string | null | undefined;
  readonly price_quotation?: string | null | undefined;
  readonly price_bands?: string | null | undefined;
  readonly funding_schedule_time_description?: string | null | undefined;
  readonly funding_schedule_calendar_description?: string | null | undefined;
  readonly funding_schedule?: WireFundingSchedule | null | undefined;
  readonly trading_schedule?: WireTradingSchedule | null | undefined;
  readonly estimated_funding_supported?: boolean | undefined;
  /** Free-form string map (e.g. `on_the_run_bond`, futures-roll compositions). */
  readonly additional_product_specs?: Readonly<Record<string, string>> | null | undefined;
}
