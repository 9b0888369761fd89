import { MmError } from '../core/errors.ts';
import type { RewardAccrual, RewardPage, RewardQuery, RewardSource } from './types.ts';

/** The whole filtered ledger: every accrual plus the set-wide figures of the last page read. */
export interface RewardLedger extends Omit<RewardPage, 'accruals' | 'limit' | 'offset'> {
  /** Every accrual of the filtered set, newest epoch first (the venue's order), deduplicated by id. */
  readonly accruals: readonly RewardAccrual[];
}

/** Options of `fetchAllAccruals`. */
export interface FetchAllOptions {
  /** Page size asked for (default 100). */
  readonly pageSize?: number;
  /** Restarts allowed when the set changes while paging (default 3). */
  readonly maxRestarts?: number;
  /** Hard stop on pages per pass, against a venue that never ends a listing (default 10 000). */
  readonly maxPages?: number;
}

/**
 * Reads every page of the accruals endpoint. Pages are offset-based and newest first, so an epoch
 * closing mid-listing shifts rows: when `total_count` changes between pages the pass restarts, and
 * rows are deduplicated by id either way.
 * A set that keeps changing past `maxRestarts` is returned as read on the last pass.
 * @throws MmError from the source (retryable ones are for the caller's back-off).
 */
export async function fetchAllAccruals(source: RewardSource, query: RewardQuery, opts: FetchAllOptions = {}): Promise<RewardLedger> {
  const pageSize = opts.pageSize ?? 100;
  const maxRestarts = opts.maxRestarts ?? 3;
  const maxPages = opts.maxPages ?? 10_000;
  if (!Number.isInteger(pageSize) || pageSize <= 0) throw new MmError('USAGE', `reward page size must be a positive integer, got ${pageSize}`);
  for (let pass = 0; ; pass++) {
    const byId = new Map<string, RewardAccrual>();
    let first: RewardPage | null = null;
    let last: RewardPage | null = null;
    let changed = false;
    for (let offset = 0, pages = 0; pages < maxPages; pages++) {
      const page = await source.rewardAccruals({ ...query, limit: pageSize, offset });
      first ??= page;
      last = page;
      if (page.totalCount !== first.totalCount) {
        changed = true;
        break;
      }
      for (const a of page.accruals) byId.set(a.id, a);
      offset += page.accruals.length;
      // An empty page or reaching the count ends the listing (a venue that caps `limit` below our
      // page size still advances by what it returned).
      if (page.accruals.length === 0 || offset >= page.totalCount) break;
    }
    if (changed && pass < maxRestarts) continue;
    const end = last ?? first;
    if (!end) throw new MmError('INVARIANT_BROKEN', 'reward listing returned no page');
    const accruals = [...byId.values()].sort((a, b) => b.epochStartMs - a.epochStartMs || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
    return { totalCount: end.totalCount, accruals, summary: end.summary, trend: end.trend, symbols: end.symbols, window: end.window };
  }
}
