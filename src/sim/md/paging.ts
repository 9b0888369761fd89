import { HttpError } from '../server/http-kit.ts';

/** Query helpers shared by the market-data, funding and reward routes. 400s name the parameter. */

/** A required query parameter. */
export function requireParam(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null || v === '') throw new HttpError(400, `${name} is required`);
  return v;
}

/** A non-negative integer parameter with a default and an upper bound. */
export function intParam(q: URLSearchParams, name: string, dflt: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = q.get(name);
  if (v === null || v === '') return dflt;
  if (!/^\d+$/.test(v)) throw new HttpError(400, `${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (n > max) throw new HttpError(400, `${name} must be at most ${max}, got ${v}`);
  return n;
}

/** An optional epoch-ns parameter as bigint. */
export function nsParam(q: URLSearchParams, name: string): bigint | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw new HttpError(400, `${name} must be epoch nanoseconds, got ${JSON.stringify(v)}`);
  return BigInt(v);
}

/**
 * A time range [start, end) from start_timestamp_ns/end_timestamp_ns, both optional (unbounded).
 * @throws HttpError 400 when end <= start.
 */
export function rangeParams(q: URLSearchParams): { start: bigint | undefined; end: bigint | undefined } {
  const start = nsParam(q, 'start_timestamp_ns');
  const end = nsParam(q, 'end_timestamp_ns');
  if (start !== undefined && end !== undefined && end <= start) throw new HttpError(400, 'end_timestamp_ns must be greater than start_timestamp_ns');
  return { start, end };
}

/** `asc` or `desc` (default desc). */
export function sortParam(q: URLSearchParams): 'asc' | 'desc' {
  const v = q.get('sort_ts');
  if (v === null || v === '' || v === 'desc') return 'desc';
  if (v === 'asc') return 'asc';
  throw new HttpError(400, `sort_ts must be asc or desc, got ${JSON.stringify(v)}`);
}

/** A page of a cursor-paged timeseries. */
export interface CursorPage<T> {
  readonly items: T[];
  readonly nextCursor: string | undefined;
  readonly totalCount: number;
  readonly limit: number;
}

/**
 * Cursor paging over `items` (any order): filters to [start, end), sorts by time in `sort`
 * order (ties by key), starts at the item whose key equals `cursor`, returns `limit` items and the
 * key of the next one. Keys are opaque to clients (`<ts_ns>:<unique>`).
 */
export function cursorPage<T>(
  items: readonly T[],
  tsNs: (t: T) => bigint,
  key: (t: T) => string,
  q: URLSearchParams,
  defaultLimit: number,
  maxLimit: number,
): CursorPage<T> {
  const { start, end } = rangeParams(q);
  const sort = sortParam(q);
  const limit = intParam(q, 'limit', defaultLimit, maxLimit);
  const filtered = items.filter((t) => {
    const ts = tsNs(t);
    return (start === undefined || ts >= start) && (end === undefined || ts < end);
  });
  filtered.sort((a, b) => {
    const d = tsNs(a) - tsNs(b);
    const c = d < 0n ? -1 : d > 0n ? 1 : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
    return sort === 'asc' ? c : -c;
  });
  let from = 0;
  const cursor = q.get('cursor');
  if (cursor) {
    from = filtered.findIndex((t) => key(t) === cursor);
    if (from < 0) throw new HttpError(400, `cursor ${JSON.stringify(cursor)} is not valid for this query`);
  }
  const page = filtered.slice(from, from + limit);
  const next = filtered[from + limit];
  return { items: page, nextCursor: next && limit > 0 ? key(next) : undefined, totalCount: filtered.length, limit };
}
