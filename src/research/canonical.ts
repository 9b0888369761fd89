import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and non-finite numbers spelled out, so equal values
 * always give the same text (the input of job ids). `undefined` members are dropped, as JSON does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(`#num:${String(value)}`);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(String(value));
}

/** sha256 of a string, hex. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * JSON that keeps non-finite numbers (Infinity, NaN), which plain JSON turns into null: jobs and
 * results cross Redis and files as this text and must come back unchanged.
 */
export const encodeJson = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $num: String(v) } : v));

/** Inverse of `encodeJson`. @throws SyntaxError on text that is not JSON. */
export const decodeJson = <T>(text: string): T =>
  JSON.parse(text, (_k, v: unknown) => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$num') return Number((v as { $num: string }).$num);
    }
    return v;
  }) as T;
