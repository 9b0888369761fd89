/** Market-data and reference-data REST (`/api/...`). */
import type { DateTimeString, DecimalString, EpochNsString, WireEnum, WireSide, WireSortTs } from './common.ts';
import type { WireFundingRate } from './funding.ts';
import type { WireInstrument } from './instrument.ts';
import type { WireBookLevel, WireCandle, WireTicker, WireTrade } from './market.ts';

/** `GET /api/instruments` (no token needed). `GET /api/instrument?symbol=` returns a bare WireInstrument. */
export interface WireInstrumentsResponse {
  readonly instruments: readonly WireInstrument[];
}
/** Queries that take just a symbol (`/api/instrument`, `/api/ticker`, `/api/estimated-funding-rate`). */
export interface WireSymbolQuery {
  readonly symbol: string;
}
/** `GET /api/book` query: level 2 (default) or 3. */
export interface WireBookQuery {
  readonly symbol: string;
  readonly level?: number | undefined;
}
/** The REST book. */
export interface WireRestBook {
  readonly s: string;
  readonly b: readonly WireBookLevel[];
  readonly a: readonly WireBookLevel[];
  readonly ts: number;
  readonly tn: number;
}
/** `GET /api/book` response. */
export interface WireBookResponse {
  readonly book: WireRestBook;
}
/** `GET /api/ticker` response. */
export interface WireTickerResponse {
  readonly ticker: WireTicker;
}
/** `GET /api/tickers` query: `sort` supports only `symbol` (`symbol:asc`). */
export interface WireTickersQuery {
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  readonly sort?: string | undefined;
}
/** `GET /api/tickers` response. */
export interface WireTickersResponse {
  readonly tickers: readonly WireTicker[];
  readonly total_count: number;
  readonly limit: number;
  readonly offset: number;
}
/** `GET /api/trades` query: limit default 10, max 100. */
export interface WireTradesQuery {
  readonly symbol: string;
  readonly limit?: number | undefined;
  readonly start_timestamp_ns?: EpochNsString | undefined;
  readonly end_timestamp_ns?: EpochNsString | undefined;
}
/** `GET /api/trades` response, newest first. */
export interface WireTradesResponse {
  readonly trades: readonly WireTrade[];
}
/** `GET /api/candles` query. */
export interface WireCandlesQuery {
  readonly symbol: string;
  readonly candle_width: string;
  readonly start_timestamp_ns?: EpochNsString | undefined;
  readonly end_timestamp_ns?: EpochNsString | undefined;
}
/** `GET /api/candles` response, ascending. */
export interface WireCandlesResponse {
  readonly candles: readonly WireCandle[];
}
/** `GET /api/candles/current` and `/api/candles/last` query. */
export interface WireCandleQuery {
  readonly symbol: string;
  readonly candle_width: string;
}
/** `GET /api/candles/current` (in progress) and `/api/candles/last` (last completed) response. */
export interface WireCandleResponse {
  readonly candle: WireCandle;
}
/** `GET /api/funding-rates` query. */
export interface WireFundingRatesQuery {
  readonly symbol: string;
  readonly start_timestamp_ns?: EpochNsString | undefined;
  readonly end_timestamp_ns?: EpochNsString | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly sort_ts?: WireEnum<WireSortTs> | undefined;
}
/** `GET /api/funding-rates` response. */
export interface WireFundingRatesResponse {
  readonly funding_rates: readonly WireFundingRate[];
  readonly next_cursor?: string | null | undefined;
  readonly limit?: number | undefined;
  readonly total_count?: number | undefined;
}
/** `GET /api/funding-slots` query: `date` defaults to today in the schedule timezone. */
export interface WireFundingSlotsQuery {
  readonly symbol: string;
  readonly date?: string | undefined;
}
/** `GET /api/underlying-prices` (and deprecated `/api/index-prices`) query. */
export interface WireUnderlyingPricesQuery {
  readonly symbol: string;
  readonly start_timestamp_ns?: EpochNsString | undefined;
  readonly end_timestamp_ns?: EpochNsString | undefined;
  readonly cursor?: string | undefined;
  readonly limit?: number | undefined;
  readonly sort_ts?: WireEnum<WireSortTs> | undefined;
}
/** One underlying (index) price. */
export interface WireUnderlyingPrice {
  readonly symbol: string;
  readonly timestamp: DateTimeString;
  readonly price: DecimalString;
}
/**
 * `GET /api/underlying-prices` response. The deprecated `/api/index-prices` sends the same rows
 * under `index_prices`; the decoder accepts either key and always yields `underlying_prices`.
 */
export interface WireUnderlyingPricesResponse {
  readonly underlying_prices: readonly WireUnderlyingPrice[];
  readonly next_cursor?: string | null | undefined;
  readonly limit?: number | undefined;
  readonly total_count?: number | undefined;
}
/** `POST /api/preview-aggressive-limit-order` body. */
export interface WirePreviewAggressiveLimitOrderRequest {
  readonly symbol: string;
  readonly quantity: number;
  readonly side: WireEnum<WireSide>;
}
/** `POST /api/preview-aggressive-limit-order` response; prices null without liquidity. */
export interface WirePreviewAggressiveLimitOrderResponse {
  readonly limit_price: DecimalString | null;
  readonly vwap: DecimalString | null;
  readonly filled_quantity: number;
  readonly remaining_quantity: number;
}
