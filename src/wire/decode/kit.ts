/**
 * Decoding primitives. Design for speed (the order and market-data streams decode on the hot path):
 * - a decoder is a plain function `(value, parent, key) => T`; the JSON path of a value is built
 *   from `parent` + `key` ONLY when something fails, so a successful decode allocates no paths;
 * - the first failure is parked in a module-level slot and the top-level runner turns it into a
 *   Result, so field readers need no per-call closures or wrapper objects;
 * - decoders never throw: `runDecoder` also converts any unexpected exception into a DecodeError.
 * Decoders are synchronous and not re-entrant across `runDecoder` calls, which JS guarantees.
 */
import { asClientOrderId, type ClientOrderId } from '../../core/ids.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { WireEnum } from '../types/common.ts';

/** Why a value failed to decode: where (`$.o.q`), what was expected, what was there. */
export interface DecodeError {
  readonly path: string;
  readonly expected: string;
  readonly got: unknown;
  readonly message: string;
}

/** A JSON-path key: an object member name, an array index, or null for "this value itself". */
export type PathKey = string | number | null;

/** A field decoder. On failure it records the error (see `fail`) and returns a placeholder. */
export type Decoder<T> = (v: unknown, parent: string, key: PathKey) => T;

/** A plain JSON object as seen by decoders. */
export type Rec = Record<string, unknown>;

let failure: DecodeError | null = null;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Joins a parent path and a key: `$.o` + `q` → `$.o.q`, `$.b` + 3 → `$.b[3]`, odd keys bracketed. */
export function pathOf(parent: string, key: PathKey): string {
  if (key === null) return parent;
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENT.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** A short, safe rendering of an offending value for messages (never throws). */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'function' || typeof v === 'symbol') return typeof v;
  // Big containers are summarised rather than serialised whole (messages stay short and cheap).
  if (Array.isArray(v) && v.length > 20) return `an array of ${v.length} items`;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length > 20) return `an object with ${keys.length} keys (${keys.slice(0, 5).join(', ')}, ...)`;
  }
  try {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return Array.isArray(v) ? 'an array' : typeof v;
  }
}

/** Builds a DecodeError (used directly for errors found outside a decoder, e.g. JSON.parse). */
export function decodeError(path: string, expected: string, got: unknown): DecodeError {
  return { path, expected, got, message: `${path}: expected ${expected}, got ${describe(got)}` };
}

/**
 * Records a failure at `parent`/`key` (only the first one counts) and returns a placeholder that
 * callers hand back; the runner discards the whole value once a failure is recorded.
 */
export function fail<T>(v: unknown, parent: string, key: PathKey, expected: string): T {
  if (failure === null) failure = decodeError(pathOf(parent, key), expected, v);
  return undefined as T;
}

/** True once a failure has been recorded in the current run (lets loops stop early). */
export const failed = (): boolean => failure !== null;

/** Runs a decoder on `value` at `$`. Never throws. */
export function runDecoder<T>(decoder: Decoder<T>, value: unknown): Result<T, DecodeError> {
  failure = null;
  try {
    const out = decoder(value, '$', null);
    const f = failure as DecodeError | null;
    if (f !== null) {
      failure = null;
      return err(f);
    }
    return ok(out);
  } catch (e) {
    failure = null;
    return err(decodeError('$', 'a decodable value', e instanceof Error ? e.message : e));
  }
}

// One pass to detect a long id (the common case is none), a global replace only when there is one.
const LONG_ID_TEST = /"(?:cid|clord_id)" *: *[0-9]{16}/;
const LONG_ID_ALL = /("(?:cid|clord_id)" *: *)([0-9]{16,})/g;

/**
 * Quotes `cid`/`clord_id` integers too long for a double (16+ digits) so JSON.parse keeps them
 * exact: u64 client order ids above 2^53 would otherwise silently lose precision. One regex scan
 * when there is nothing to do.
 */
export function quoteLongIds(text: string): string {
  return LONG_ID_TEST.test(text) ? text.replace(LONG_ID_ALL, '$1"$2"') : text;
}

/**
 * JSON.parse that keeps long `cid`/`clord_id` integers exact (as digit strings). Use it for any
 * venue text that may carry client order ids (WS frames, REST order bodies).
 * @throws SyntaxError on invalid JSON, like JSON.parse.
 */
export const parseWireJson = (text: string): unknown => JSON.parse(quoteLongIds(text));

/** Parses JSON text (keeping long ids exact) and runs a decoder on it. Never throws. */
export function runDecoderOnText<T>(decoder: Decoder<T>, text: string): Result<T, DecodeError> {
  let value: unknown;
  try {
    value = JSON.parse(quoteLongIds(text));
  } catch (e) {
    return err(decodeError('$', 'valid JSON', e instanceof Error ? e.message : String(e)));
  }
  return runDecoder(decoder, value);
}

/** True for a non-array, non-null object. */
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

// ------------------------------------------------------------------ primitives (no allocation on success)

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
 * precision in a plain JSON.parse: the text decoders (`runDecoderOnText`, `parseWireJson`) quote
 * long ids before parsing so they arrive here as exact strings; already-parsed numbers are
 * accepted as they are.
 */
export const cid: Decoder<ClientOrderId> = (v, p, k) => {
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0 && v <= 18446744073709551615) {
      return (Number.isSafeInteger(v) ? String(v) : BigInt(v).toString()) as ClientOrderId;
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
/** Booleans or `"true"`/`"false"` (query parameters). */
export const boolLike: Decoder<boolean> = (v, p, k) =>
  typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : fail(v, p, k, 'boolean');
/** Epoch-ns digits (query parameters; kept as a string because they exceed 2^53). */
export const nsLike: Decoder<string> = (v, p, k) =>
  typeof v === 'string' && /^[0-9]{1,20}$/.test(v) ? v : typeof v === 'number' && Number.isInteger(v) && v >= 0 ? BigInt(v).toString() : fail(v, p, k, 'epoch-ns integer');

// ------------------------------------------------------------------ combinators (built once at module load)

/** Accepts `null` as well. */
export const nullable =
  <T>(d: Decoder<T>): Decoder<T | null> =>
  (v, p, k) =>
    v === null ? null : d(v, p, k);

/** Accepts a missing member (undefined). */
export const optional =
  <T>(d: Decoder<T>): Decoder<T | undefined> =>
  (v, p, k) =>
    v === undefined ? undefined : d(v, p, k);

/** Accepts a missing member or `null`. */
export const optNull = <T>(d: Decoder<T>): Decoder<T | null | undefined> => optional(nullable(d));

/** A fixed string value. */
export const literal =
  <T extends string>(value: T): Decoder<T> =>
  (v, p, k) =>
    v === value ? value : fail(v, p, k, JSON.stringify(value));

/**
 * An enum: documented values pass through, other strings become `{ unknown: raw }` (open-ended
 * venue enums must not break decoding); non-strings fail.
 */
export function enumOf<T extends string>(values: readonly T[], name: string): Decoder<WireEnum<T>> {
  const known: ReadonlySet<string> = new Set(values);
  const expected = `${name} string`;
  return (v, p, k) => (typeof v === 'string' ? (known.has(v) ? (v as T) : { unknown: v }) : fail(v, p, k, expected));
}

/** An array whose elements all decode. Stops at the first failing element. */
export function arrayOf<T>(d: Decoder<T>, expected = 'array'): Decoder<T[]> {
  return (v, p, k) => {
    if (!Array.isArray(v)) return fail(v, p, k, expected);
    const path = pathOf(p, k);
    const out: T[] = new Array<T>(v.length);
    for (let i = 0; i < v.length; i++) {
      out[i] = d(v[i], path, i);
      if (failure !== null) break;
    }
    return out;
  };
}

/** An object used as a map: every member decodes with `d`. */
export function recordOf<T>(d: Decoder<T>): Decoder<Record<string, T>> {
  return (v, p, k) => {
    if (!isRec(v)) return fail(v, p, k, 'object');
    const path = pathOf(p, k);
    const out: Record<string, T> = {};
    for (const key of Object.keys(v)) {
      out[key] = d(v[key], path, key);
      if (failure !== null) break;
    }
    return out;
  };
}

/** Field decoders for every member of `T`. */
export type Fields<T> = { readonly [K in keyof T]-?: Decoder<T[K]> };

/**
 * An object with the given members. Unknown members are ignored; members decoding to undefined are
 * left out. `post` may normalise (deprecated names) or check cross-field rules, calling `fail`.
 */
export function obj<T>(fields: Fields<T>, name = 'object', post?: (out: T, raw: Rec, path: string) => T): Decoder<T> {
  const keys = Object.keys(fields) as (keyof T & string)[];
  const decs = keys.map((key) => fields[key] as Decoder<unknown>);
  return (v, p, k) => {
    if (!isRec(v)) return fail(v, p, k, name);
    const path = pathOf(p, k);
    const out: Rec = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const x = decs[i]!(v[key], path, key);
      if (failure !== null) return undefined as T;
      if (x !== undefined) out[key] = x;
    }
    return post ? post(out as T, v, path) : (out as T);
  };
}

/** Exactly one of `a`/`b` must be present (oid or cid). */
export function exactlyOne(raw: Rec, path: string, a: string, b: string): void {
  const hasA = raw[a] !== undefined && raw[a] !== null;
  const hasB = raw[b] !== undefined && raw[b] !== null;
  if (hasA === hasB) fail(hasA ? { [a]: raw[a], [b]: raw[b] } : undefined, path, null, `exactly one of ${a} or ${b}`);
}
