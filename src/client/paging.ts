/**
 * Async iterators over the venue's two paging schemes. Both stop on an empty page, and guard
 * against a venue that repeats itself (same cursor, or an offset that does not move).
 */

/** One limit/offset page: items plus the venue's `total_count` when sent. */
export interface OffsetPage<T> {
  readonly items: readonly T[];
  readonly totalCount?: number | undefined;
}

/** One cursor page: items plus `next_cursor` (absent, null or empty on the last page). */
export interface CursorPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | null | undefined;
}

/**
 * Iterates every item of a limit/offset-paged endpoint, `limit` at a time, from `startOffset`.
 * Stops at `total_count`, on a short or empty page, or after `maxPages`.
 */
export async function* offsetPaged<T>(
  fetchPage: (offset: number, limit: number) => Promise<OffsetPage<T>>,
  limit = 100,
  startOffset = 0,
  maxPages = 10_000,
): AsyncGenerator<T, void, undefined> {
  let offset = startOffset;
  for (let page = 0; page < maxPages; page++) {
    const { items, totalCount } = await fetchPage(offset, limit);
    for (const item of items) yield item;
    offset += items.length;
    if (items.length === 0 || items.length < limit) return;
    if (totalCount !== undefined && offset >= totalCount) return;
  }
}

/**
 * Iterates every item of a cursor-paged endpoint (time series: fills, transactions, funding...),
 * following `next_cursor` until the venue stops sending one or `maxPages` is reached.
 */
export async function* cursorPaged<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  maxPages = 10_000,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; page < maxPages; page++) {
    const { items, nextCursor } = await fetchPage(cursor);
    for (const item of items) yield item;
    if (!nextCursor || items.length === 0 || seen.has(nextCursor)) return;
    seen.add(nextCursor);
    cursor = nextCursor;
  }
}

/** Collects an async iterable into an array (for small result sets). */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
