/**
 * Compact JSON writing for wire messages. Hand-rolled rather than `JSON.stringify` because the wire
 * needs three things the built-in cannot do: `cid`/`clord_id` (u64 kept as decimal strings) must go
 * out as bare JSON integers, unknown enum values (`{ unknown: 'RAW' }`) go out as their raw string,
 * and events need `t` as the first key.
 */
import { enumRaw, isUnknownEnum } from '../types/common.ts';

// Characters that force JSON.stringify's escaping: quotes, backslash, controls, lone surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal for `s` (fast path when nothing needs escaping). */
export function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** A JSON string literal for an enum value, known or unknown. */
export function quoteEnum(v: string | { readonly unknown: string }): string {
  return quote(enumRaw(v));
}

/** A JSON number; non-finite numbers (never valid on the wire) become `null` as in JSON.stringify. */
export function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** Keys whose string values are u64 ids written as bare integers. */
const INTEGER_ID_KEYS: ReadonlySet<string> = new Set(['cid', 'clord_id']);
const DIGITS = /^[0-9]+$/;

/**
 * Writes any wire value as compact JSON. Object keys keep insertion order, `undefined` members are
 * skipped, and the keys in `first` (if given) are written first at the top level.
 */
export function writeJson(v: unknown, first?: readonly string[]): string {
  return write(v, undefined, first);
}

function write(v: unknown, key: string | undefined, first?: readonly string[]): string {
  switch (typeof v) {
    case 'string':
      return key !== undefined && INTEGER_ID_KEYS.has(key) && DIGITS.test(v) ? v : quote(v);
    case 'number':
      return num(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          const x: unknown = v[i];
          out += x === undefined ? 'null' : write(x, undefined);
        }
        return `${out}]`;
      }
      if (isUnknownEnum(v)) return quote(v.unknown);
      const rec = v as Record<string, unknown>;
      let out = '{';
      let sep = false;
      if (first !== undefined) {
        for (const k of first) {
          const x = rec[k];
          if (x === undefined) continue;
          out += `${sep ? ',' : ''}${quote(k)}:${write(x, k)}`;
          sep = true;
        }
      }
      for (const k of Object.keys(rec)) {
        const x = rec[k];
        if (x === undefined || typeof x === 'function' || (first !== undefined && first.includes(k))) continue;
        out += `${sep ? ',' : ''}${quote(k)}:${write(x, k)}`;
        sep = true;
      }
      return `${out}}`;
    }
    default:
      return 'null';
  }
}

/**
 * Encodes a REST query object as `a=1&b=x` (URL-encoded, undefined members skipped, enums raw).
 * Key order follows the object.
 */
export function encodeQuery(q: object): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null) continue;
    const s = isUnknownEnum(v) ? v.unknown : String(v);
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(s)}`);
  }
  return parts.join('&');
}
