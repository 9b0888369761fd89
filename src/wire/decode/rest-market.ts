/** REST decoders: instruments, book, tickers, trades, candles, funding, prices, preview. */
import type {
  WireBookQuery,
  WireBookResponse,
  WireCandleQuery,
  WireCandleResponse,
  WireCandlesQuery,
  WireCandlesResponse,
  WireFundingRatesQuery,
  WireFundingRatesResponse,
  WireFundingSlotsQuery,
  WireInstrumentsResponse,
  WirePreviewAggressiveLimitOrderRequest,
  WirePreviewAggressiveLimitOrderResponse,
  WireRestBook,
  WireSymbolQuery,
  WireTickerResponse,
  WireTickersQuery,
  WireTickersResponse,
  WireTradesQuery,
  WireTradesResponse,
  WireUnderlyingPrice,
  WireUnderlyingPricesQuery,
  WireUnderlyingPricesResponse,
} from '../types/rest-market.ts';
import { side, sortTs } from './enums.ts';
import { readFundingRate } from './funding.ts';
import { readInstrument } from './instrument.ts';
import { arrayOf, fail, isRec, nullable, obj, optional, optNull, pathOf, type Decoder } from './kit.ts';
import { date, dateTime, dec, int, intLike, nsLike, str, uint } from './scalars.ts';
import { readCandle, readLevels, readTicker, readTrade } from './market.ts';

const optStr = optional(str);
const optInt = optional(int);
const optCursor = optNull(str);
const optNs = optional(nsLike);

/** Decodes a WireInstrumentsResponse. */
export const readInstrumentsResponse = obj<WireInstrumentsResponse>(
  { instruments: arrayOf(readInstrument, 'array of instruments') },
  'instruments response',
);
/** Decodes a WireSymbolQuery. */
export const readSymbolQuery = obj<WireSymbolQuery>({ symbol: str }, 'query with symbol');
/** Decodes a WireBookQuery. */
export const readBookQuery = obj<WireBookQuery>({ symbol: str, level: optional(intLike) }, 'book query');

const restBook: Decoder<WireRestBook> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'book object');
  const path = pathOf(p, k);
  return {
    s: str(v.s, path, 's'),
    b: readLevels(v.b, path, 'b', false),
    a: readLevels(v.a, path, 'a', false),
    ts: uint(v.ts, path, 'ts'),
    tn: uint(v.tn, path, 'tn'),
  };
};
/** Decodes a WireBookResponse. */
export const readBookResponse = obj<WireBookResponse>({ book: restBook }, 'book response {book}');
/** Decodes a WireTickerResponse. */
export const readTickerResponse = obj<WireTickerResponse>({ ticker: readTicker }, 'ticker response {ticker}');
/** Decodes a WireTickersQuery. */
export const readTickersQuery = obj<WireTickersQuery>({ limit: optional(intLike), offset: optional(intLike), sort: optStr }, 'tickers query');
/** Decodes a WireTickersResponse. */
export const readTickersResponse = obj<WireTickersResponse>(
  { tickers: arrayOf(readTicker, 'array of tickers'), total_count: uint, limit: uint, offset: uint },
  'tickers response',
);
/** Decodes a WireTradesQuery. */
export const readTradesQuery = obj<WireTradesQuery>(
  { symbol: str, limit: optional(intLike), start_timestamp_ns: optNs, end_timestamp_ns: optNs },
  'trades query',
);
/** Decodes a WireTradesResponse. */
export const readTradesResponse = obj<WireTradesResponse>({ trades: arrayOf(readTrade, 'array of trades') }, 'trades response');
/** Decodes a WireCandlesQuery. */
export const readCandlesQuery = obj<WireCandlesQuery>(
  { symbol: str, candle_width: str, start_timestamp_ns: optNs, end_timestamp_ns: optNs },
  'candles query',
);
/** Decodes a WireCandlesResponse. */
export const readCandlesResponse = obj<WireCandlesResponse>({ candles: arrayOf(readCandle, 'array of candles') }, 'candles response');
/** Decodes a WireCandleQuery. */
export const readCandleQuery = obj<WireCandleQuery>({ symbol: str, candle_width: str }, 'candle query');
/** Decodes a WireCandleResponse. */
export const readCandleResponse = obj<WireCandleResponse>({ candle: readCandle }, 'candle response {candle}');
/** Decodes a WireFundingRatesQuery. */
export const readFundingRatesQuery = obj<WireFundingRatesQuery>(
  { symbol: str, start_timestamp_ns: optNs, end_timestamp_ns: optNs, limit: optional(intLike), cursor: optStr, sort_ts: optional(sortTs) },
  'funding rates query',
);
/** Decodes a WireFundingRatesResponse. */
export const readFundingRatesResponse = obj<WireFundingRatesResponse>(
  { funding_rates: arrayOf(readFundingRate, 'array of funding rates'), next_cursor: optCursor, limit: optInt, total_count: optInt },
  'funding rates response',
);
/** Decodes a WireFundingSlotsQuery. */
export const readFundingSlotsQuery = obj<WireFundingSlotsQuery>({ symbol: str, date: optional(date) }, 'funding slots query');
/** Decodes a WireUnderlyingPricesQuery. */
export const readUnderlyingPricesQuery = obj<WireUnderlyingPricesQuery>(
  { symbol: str, start_timestamp_ns: optNs, end_timestamp_ns: optNs, cursor: optStr, limit: optional(intLike), sort_ts: optional(sortTs) },
  'underlying prices query',
);
const price = obj<WireUnderlyingPrice>({ symbol: str, timestamp: dateTime, price: dec }, 'underlying price object');
const prices = arrayOf(price, 'array of prices');

/** Underlying prices under `underlying_prices`, or the deprecated `index_prices` key. */
export const readUnderlyingPricesResponse: Decoder<WireUnderlyingPricesResponse> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'underlying prices response');
  const path = pathOf(p, k);
  const useIndex = v.underlying_prices === undefined && v.index_prices !== undefined;
  const rows = useIndex ? prices(v.index_prices, path, 'index_prices') : prices(v.underlying_prices, path, 'underlying_prices');
  const out: { -readonly [K in keyof WireUnderlyingPricesResponse]: WireUnderlyingPricesResponse[K] } = { underlying_prices: rows };
  const nc = optCursor(v.next_cursor, path, 'next_cursor');
  const limit = optInt(v.limit, path, 'limit');
  const total = optInt(v.total_count, path, 'total_count');
  if (nc !== undefined) out.next_cursor = nc;
  if (limit !== undefined) out.limit = limit;
  if (total !== undefined) out.total_count = total;
  return out;
};

/** Decodes a WirePreviewAggressiveLimitOrderRequest. */
export const readPreviewRequest = obj<WirePreviewAggressiveLimitOrderRequest>(
  { symbol: str, quantity: uint, side },
  'preview aggressive limit order request',
);
/** Decodes a WirePreviewAggressiveLimitOrderResponse. */
export const readPreviewResponse = obj<WirePreviewAggressiveLimitOrderResponse>(
  { limit_price: nullable(dec), vwap: nullable(dec), filled_quantity: uint, remaining_quantity: uint },
  'preview aggressive limit order response',
);
