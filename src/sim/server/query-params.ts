import { HttpError } from './http-kit.ts';

const WEEK_NS = 7n * 86_400n * 1_000_000_000n;

/** Reads an optional non-negative integer query parameter (400 when malformed). */
export function intParam(q: URLSearchParams, name: string, def: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = q.get(name);
  if (v === null || v === '') return def;
  if (!/^[0-9]+$/.test(v) || Number(v) > max) throw new HttpError(400, `${name} must be an integer in [0, ${max}]`);
  return Number(v);
}

/** Reads an optional epoch-ns query parameter (400 when malformed). */
export function nsParam(q: URLSearchParams, name: string): bigint | null {
  const v = q.get(name);
  if (v === null || v === '') return null;
  if (!/^[0-9]{1,20}$/.test(v)) throw new HttpError(400, `${name} must be an integer number of nanoseconds since the epoch`);
  return BigInt(v);
}

/** Reads sort_ts (asc/desc, default desc). */
export function sortParam(q: URLSearchParams): 'asc' | 'desc' {
  const v = q.get('sort_ts');
  if (v === null || v === '') return 'desc';
  if (v !== 'asc' && v !== 'desc') throw new HttpError(400, 'sort_ts must be asc or desc');
  return v;
}

/** A time range [start, end) in epoch ns. */
export interface NsRange {
  readonly start: bigint;
  readonly end: bigint;
}

/**
 * The explicit range the history endpoints need (/fills, /liquidations, /transactions, /orders
 * without an id filter): both bounds, end > start, at most 7 days. 400 otherwise.
 */
export function requiredRange(q: URLSearchParams): NsRange {
  const start = nsParam(q, 'start_timestamp_ns');
  const end = nsParam(q, 'end_timestamp_ns');
  if (start === null || end === null) throw new HttpError(400, 'start_timestamp_ns and end_timestamp_ns are required');
  return checkRange(start, end, true);
}

/** An optional range (open bounds default to everything); end <= start → 400; `maxWeek` enforces 7 days. */
export function optionalRange(q: URLSearchParams, maxWeek: boolean): NsRange {
  const start = nsParam(q, 'start_timestamp_ns');
  const end = nsParam(q, 'end_timestamp_ns');
  return checkRange(start ?? 0n, end ?? (1n << 63n), maxWeek && start !== null && end !== null);
}

function checkRange(start: bigint, end: bigint, maxWeek: boolean): NsRange {
  if (end <= start) throw new HttpError(400, 'end_timestamp_ns must be greater than start_timestamp_ns');
  if (maxWeek && end - start > WEEK_NS) throw new HttpError(400, 'time range is wider than 7 days; narrow the range or add an order id filter');
  return { start, end };
}

/**
 * Cursor paging over rows sorted by (ts, id): the cursor is `<ts_ns>:<id>` of the last row
 * returned; `next_cursor` is set only when more rows follow.
 */
export function pageByCursor<T>(rows: readonly T[], key: (r: T) => { ts: bigint; id: string }, sort: 'asc' | 'desc', limit: number, cursor: string | null): { page: T[]; next: string | undefined } {
  const sorted = [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka.ts < kb.ts ? -1 : ka.ts > kb.ts ? 1 : ka.id < kb.id ? -1 : ka.id > kb.id ? 1 : 0;
    return sort === 'asc' ? c : -c;
  });
  let startIdx = 0;
  if (cursor) {
    const m = /^([0-9]+):(.+)$/.exec(cursor);
    if (!m) throw new HttpError(400, 'cursor is malformed');
    const cts = BigInt(m[1]!);
    const cid = m[2]!;
    startIdx = sorted.findIndex((r) => {
      const k = key(r);
      const after = k.ts > cts || (k.ts === cts && k.id > cid);
      const before = k.ts < cts || (k.ts === cts && k.id < cid);
      return sort === 'asc' ? after : before;
    });
    if (startIdx < 0) startIdx = sorted.length;
  }
  const page = sorted.slice(startIdx, startIdx + limit);
  const last = page[page.length - 1];
  const more = startIdx + limit < sorted.length;
  return { page, next: more && last ? `${key(last).ts}:${key(last).id}` : undefined };
}
