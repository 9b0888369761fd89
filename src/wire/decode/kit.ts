/**
 * Decoding primitives. Design for speed (the order and market-data streams decode on the hot path):
 * - a decoder is a plain function `(value, parent, key) => T`; the JSON path of a value is built
 *   from `parent` + `key` ONLY when something fails, so a successful decode allocates no paths;
 * - the first failure is parked in a module-level slot and the top-level runner turns it into a
 *   Result, so field readers need no per-call closures or wrapper objects;
 * - decoders never throw: `runDecoder` also converts any unexpected exception into a DecodeError.
 * Decoders are synchronous and not re-entrant across `runDecoder` calls, which JS guarantees.
 *
 * Scalar decoders (strings, numbers, decimals, dates, cids) live in scalars.ts; parsing venue JSON
 * text with long ids kept exact lives in json-text.ts.
 */
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

// Set when a decoder met an integer id beyond 2^53 that JSON.parse may already have rounded: the
// text runner then parses again with long ids quoted (json-text.ts). Rare, so the common frame
// pays no pre-scan.
let inexactId = false;

/** Notes that the value being decoded holds an id JSON.parse may have rounded. */
export const markInexactId = (): void => {
  inexactId = true;
};

/** Reads and clears the inexact-id note. */
export function takeInexactId(): boolean {
  const v = inexactId;
  inexactId = false;
  return v;
}

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

/** True for a non-array, non-null object. */
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** `obj` post-check for order references (cancel, replace, status; WS and REST): exactly one of `oid`/`cid`. */
export const oidOrCid = <T>(out: T, raw: Rec, path: string): T => {
  exactlyOne(raw, path, 'oid', 'cid');
  return out;
};
