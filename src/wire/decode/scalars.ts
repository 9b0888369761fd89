/**
 * Scalar field decoders: strings, booleans, integers, venue decimals, dates, u64 client order ids
 * and query-parameter forms. Each allocates nothing on success and records a failure with `fail`.
 */
import { asClientOrderId, type ClientOrderId } from '../../core/ids.ts';
import { fail, type Decoder, markInexactId } from './kit.ts';

/** A string. */
export const str: Decoder<string> = (v, p, k) => (typeof v === 'string' ? v : fail(v, p, k, 'string'));
/** A boolean. */
export const bool: Decoder<boolean> = (v, p, k) => (typeof v === 'boolean' ? v : fail(v, p, k, 'boolean'));
/** A safe integer (may be negative). */
export const int: Decoder<number> = (v, p, k) =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : fail(v, p, k, 'integer');
/** A non-negative safe integer (quantities, ts, tn). */
export const uint: Decoder<number> = (v, p, k) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : fail(v, p, k, 'non-negative integer');
/** Any integer-valued number, including beyond 2^53 (epoch-ns integers such as `timestamp_ns`). */
export const bigIntNumber: Decoder<number> = (v, p, k) =>
  typeof v === 'number' && Number.isInteger(v) ? v : fail(v, p, k, 'integer');
/** A finite number. */
export const finite: Decoder<number> = (v, p, k) =>
  typeof v === 'number' && Number.isFinite(v) ? v : fail(v, p, k, 'number');
/**
 * The venue decimal grammar `-?[0-9]+(\.[0-9]+)?` (same as core's DECIMAL_RE), as a character
 * loop: about a third faster than the regex, and book frames check dozens of prices each.
 */
export function isDecimal(s: string): boolean {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const intStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  if (i === intStart) return false;
  if (i === n) return true;
  if (s.charCodeAt(i) !== 46 /* . */) return false;
  const fracStart = ++i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
    i++;
  }
  return i > fracStart;
}

/** A decimal string in the venue grammar. */
export const dec: Decoder<string> = (v, p, k) => (typeof v === 'string' && isDecimal(v) ? v : fail(v, p, k, 'decimal string'));

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An RFC 3339 date-time string. */
export const dateTime: Decoder<string> = (v, p, k) =>
  typeof v === 'string' && RFC3339.test(v) ? v : fail(v, p, k, 'RFC 3339 date-time');
/** A `YYYY-MM-DD` date string. */
export const date: Decoder<string> = (v, p, k) => (typeof v === 'string' && DATE.test(v) ? v : fail(v, p, k, 'date YYYY-MM-DD'));
/** Integer epoch seconds or an RFC 3339 string (candle `ts`, risk `timestamp_ns`). */
export const intOrDateTime: Decoder<number | string> = (v, p, k) =>
  typeof v === 'number' ? (Number.isInteger(v) ? v : fail(v, p, k, 'integer or RFC 3339 date-time')) : typeof v === 'string' && RFC3339.test(v) ? v : fail(v, p, k, 'integer or RFC 3339 date-time');

const U64 = /^(0|[1-9][0-9]{0,19})$/;

/**
 * A u64 client order id, as a JSON integer or a decimal string. JSON numbers above 2^53 lose
 * precision in a plain JSON.parse: the text decoders (json-text.ts) quote
 * long ids before parsing so they arrive here as exact strings; already-parsed numbers are
 * accepted as they are.
 */
export const cid: Decoder<ClientOrderId> = (v, p, k) => {
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0 && v <= 18446744073709551615) {
      if (Number.isSafeInteger(v)) return String(v) as ClientOrderId;
      markInexactId();
      return BigInt(v).toString() as ClientOrderId;
    }
  } else if (typeof v === 'string' && U64.test(v) && (v.length < 20 || BigInt(v) <= 18446744073709551615n)) {
    return asClientOrderId(v);
  }
  return fail(v, p, k, 'u64 client order id');
};

/** Strings that are safe integers, or integers: query parameters such as `limit`. */
export const intLike: Decoder<number> = (v, p, k) => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^[0-9]{1,15}$/.test(v)) return Number(v);
  return fail(v, p, k, 'non-negative integer');
};
/** Epoch-ns digits (query parameters; kept as a string because they exceed 2^53). */
export const nsLike: Decoder<string> = (v, p, k) =>
  typeof v === 'string' && /^[0-9]{1,20}$/.test(v) ? v : typeof v === 'number' && Number.isInteger(v) && v >= 0 ? BigInt(v).toString() : fail(v, p, k, 'epoch-ns integer');
