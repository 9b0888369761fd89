/** Instrument reference-data decoders. */
import type {
  WireFundingSchedule,
  WireFundingScheduleException,
  WireFundingScheduleTime,
  WireInstrument,
  WireTimeOfDay,
  WireTradingSchedule,
  WireTradingScheduleSegment,
} from '../types/instrument.ts';
import { category } from './enums.ts';
import { arrayOf, nullable, obj, optional, optNull, recordOf } from './kit.ts';
import { bool, date, dateTime, dec, str, uint } from './scalars.ts';

const timeOfDay = obj<WireTimeOfDay>({ hours: uint, minutes: uint, seconds: uint }, 'time of day {hours, minutes, seconds}');
const days = arrayOf(uint, 'array of ISO days of week');

const scheduleTime = obj<WireFundingScheduleTime>({ days_of_week: days, time_of_day: timeOfDay }, 'funding time object');
const scheduleException = obj<WireFundingScheduleException>(
  { date, times: arrayOf(timeOfDay), reason: optNull(str) },
  'funding exception object',
);
const fundingSchedule = obj<WireFundingSchedule>(
  { timezone: str, times: arrayOf(scheduleTime), exceptions: optNull(arrayOf(scheduleException)) },
  'funding schedule object',
);
const segment = obj<WireTradingScheduleSegment>(
  {
    days_of_week: days,
    time_of_day: timeOfDay,
    duration_seconds: uint,
    state: str,
    hide_market_data: optional(bool),
    expire_all_orders: optional(bool),
  },
  'trading schedule segment',
);
const tradingSchedule = obj<WireTradingSchedule>({ segments: arrayOf(segment) }, 'trading schedule object');

const optText = optNull(str);
const optDec = optNull(dec);

/** Decodes one instrument record. */
export const readInstrument = obj<WireInstrument>(
  {
    symbol: str,
    product: str,
    expiration: nullable(dateTime),
    multiplier: dec,
    price_scale: uint,
    minimum_order_size: dec,
    tick_size: dec,
    quote_currency: str,
    price_band_lower_deviation_pct: nullable(dec),
    price_band_upper_deviation_pct: nullable(dec),
    funding_settlement_currency: optText,
    funding_rate_cap_upper_pct: optDec,
    funding_rate_cap_lower_pct: optDec,
    maintenance_margin_pct: dec,
    initial_margin_pct: dec,
    category,
    description: optText,
    underlying_benchmark_price: optText,
    contract_mark_price: optText,
    contract_size: optText,
    price_quotation: optText,
    price_bands: optText,
    funding_schedule_time_description: optText,
    funding_schedule_calendar_description: optText,
    funding_schedule: optNull(fundingSchedule),
    trading_schedule: optNull(tradingSchedule),
    estimated_funding_supported: optional(bool),
    additional_product_specs: optNull(recordOf(str)),
  },
  'instrument object',
);
