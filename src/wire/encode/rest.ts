/** Encoders for REST bodies (requests and responses) and queries. Cold path: generic writer. */
import type { WireInstrument } from '../types/instrument.ts';
import type { WireUnderlyingPricesResponse } from '../types/rest-market.ts';
import { encodeQuery, writeJson } from './json.ts';

/**
 * Encodes any REST body (request or response) as compact JSON: `cid`/`clord_id` as bare integers,
 * unknown enums as their raw string, `undefined` members omitted.
 */
export const encodeRestBody = (body: object): string => writeJson(body);

/** Encodes a REST query object as a URL query string (without `?`). */
export const encodeRestQuery = (query: object): string => encodeQuery(query);

/** Encodes the REST error body `{"error": message}`. */
export const encodeErrorBody = (message: string): string => writeJson({ error: message });

/** Encodes the deprecated `/api/index-prices` response (rows under `index_prices`). */
export function encodeIndexPricesResponse(r: WireUnderlyingPricesResponse): string {
  const { underlying_prices, ...rest } = r;
  return writeJson({ index_prices: underlying_prices, ...rest });
}

/** Encodes `GET /api/instruments`. */
export const encodeInstrumentsResponse = (instruments: readonly WireInstrument[]): string => writeJson({ instruments });
