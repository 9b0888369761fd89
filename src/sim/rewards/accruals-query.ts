import { Decimal } from '../../core/decimal.ts';
import type { Result } from '../../core/result.ts';
import { err, ok } from '../../core/result.ts';
import { PAYOUT_STATUSES, epochDay, type PayoutStatus, type RewardAccrual } from './ledger.ts';

/**
 * GET /api/mmlp/v2/reward-accruals semantics (docs/venue-protocol.md §6.4):
 * - the base set is the caller account's whole ledger; `symbols` and `window` come from it;
 * - filters (symbol, payout_status, start_date..end_date inclusive on the epoch day) give the
 *   filtered set; `total_count`, `summary` and `trend` cover all of it;
 * - `accruals` is one page of the filtered set, newest epoch first (then symbol, then id).
 */

/** The service default page size (not published by the venue; ours). */
export const DEFAULT_REWARD_PAGE_SIZE = 100;
/** Largest page the simulator serves. */
export const MAX_REWARD_PAGE_SIZE = 1_000;

/** Parsed query. */
export interface RewardQuery {
  readonly limit: number;
  readonly offset: number;
  readonly symbol: string | undefined;
  readonly status: PayoutStatus | undefined;
  readonly startDate: string | undefined;
  readonly endDate: string | undefined;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function validDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function parseCount(name: string, v: string | null, dflt: number, max: number): Result<number, string> {
  if (v === null || v === '') return ok(dflt);
  if (!/^\d+$/.test(v)) return err(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (n > max) return err(`${name} must be at most ${max}, got ${v}`);
  return ok(n);
}

/** Parses and validates the query string; the error message names the bad parameter. */
export function parseRewardQuery(q: URLSearchParams): Result<RewardQuery, string> {
  const limit = parseCount('limit', q.get('limit'), DEFAULT_REWARD_PAGE_SIZE, MAX_REWARD_PAGE_SIZE);
  if (!limit.ok) return limit;
  const offset = parseCount('offset', q.get('offset'), 0, 2_147_483_647);
  if (!offset.ok) return offset;
  const st = q.get('payout_status') ?? undefined;
  if (st !== undefined && st !== '' && !(PAYOUT_STATUSES as readonly string[]).includes(st))
    return err(`payout_status must be one of ${PAYOUT_STATUSES.join(', ')}, got ${JSON.stringify(st)}`);
  const startDate = q.get('start_date') || undefined;
  const endDate = q.get('end_date') || undefined;
  if (startDate !== undefined && !validDate(startDate)) return err(`start_date must be YYYY-MM-DD, got ${JSON.stringify(startDate)}`);
  if (endDate !== undefined && !validDate(endDate)) return err(`end_date must be YYYY-MM-DD, got ${JSON.stringify(endDate)}`);
  if (startDate !== undefined && endDate !== undefined && startDate > endDate) return err('start_date must not be after end_date');
  return ok({
    limit: limit.value,
    offset: offset.value,
    symbol: q.get('symbol') || undefined,
    status: st ? (st as PayoutStatus) : undefined,
    startDate,
    endDate,
  });
}

/** Wire shape of one accrual. */
export interface RewardAccrualJson {
  id: string;
  epoch_start_ts: string;
  epoch_end_ts: string;
  symbol: string;
  raw_reward_usd: string;
  cap_adjustment_usd: string;
  final_accrued_usd: string;
  account_share: string;
  payout_status: PayoutStatus;
}

/** Wire shape of the whole response. */
export interface RewardAccrualsJson {
  limit: number;
  offset: number;
  total_count: number;
  accruals: RewardAccrualJson[];
  summary: { accrued_today_usd: string; awaiting_approval_usd: string; paid_this_month_usd: string; retained_usd: string };
  trend: { epoch_day: string; symbol: string; accrued_usd: string; paid_usd: string }[];
  symbols: string[];
  window: { min_day: string; max_day: string };
}

/** USD amounts on the reward report: 6 fractional digits. */
export const usd = (d: Decimal): string => d.toFixed(6);

const shareString = (a: RewardAccrual): string => (a.scoresRetained ? new Decimal(a.accountShare).toFixed(12) : '0');

/** Serialises one accrual. */
export function accrualJson(a: RewardAccrual): RewardAccrualJson {
  return {
    id: a.id,
    epoch_start_ts: new Date(a.epochStartMs).toISOString(),
    epoch_end_ts: new Date(a.epochEndMs).toISOString(),
    symbol: a.symbol,
    raw_reward_usd: usd(a.raw),
    cap_adjustment_usd: usd(a.capAdjustment),
    final_accrued_usd: usd(a.final),
    account_share: shareString(a),
    payout_status: a.status,
  };
}

/**
 * Builds the report for one account's ledger rows at `nowMs`. Summary buckets: accrued_today =
 * Σ final of `accrued` rows (earned on the latest closed epoch); awaiting_approval = Σ `awaiting`;
 * paid_this_month = Σ `paid` rows paid in the current UTC month; retained = Σ `retained`.
 */
export function rewardAccruals(accountRows: readonly RewardAccrual[], q: RewardQuery, nowMs: number): RewardAccrualsJson {
  const days = accountRows.map(epochDay).sort();
  const symbols = [...new Set(accountRows.map((r) => r.symbol))].sort();
  const filtered = accountRows.filter((r) => {
    if (q.symbol !== undefined && r.symbol !== q.symbol) return false;
    if (q.status !== undefined && r.status !== q.status) return false;
    const d = epochDay(r);
    if (q.startDate !== undefined && d < q.startDate) return false;
    if (q.endDate !== undefined && d > q.endDate) return false;
    return true;
  });
  filtered.sort((a, b) => b.epochStartMs - a.epochStartMs || cmp(a.symbol, b.symbol) || cmp(a.id, b.id));
  const month = new Date(nowMs).toISOString().slice(0, 7);
  const zero = new Decimal(0);
  let accrued = zero;
  let awaiting = zero;
  let paidMonth = zero;
  let retained = zero;
  const trend = new Map<string, { epoch_day: string; symbol: string; accrued: Decimal; paid: Decimal }>();
  for (const r of filtered) {
    if (r.status === 'accrued') accrued = accrued.plus(r.final);
    else if (r.status === 'awaiting') awaiting = awaiting.plus(r.final);
    else if (r.status === 'retained') retained = retained.plus(r.final);
    else if (r.status === 'paid' && r.paidAtMs !== null && new Date(r.paidAtMs).toISOString().slice(0, 7) === month) paidMonth = paidMonth.plus(r.final);
    const day = epochDay(r);
    const key = `${day}|${r.symbol}`;
    let t = trend.get(key);
    if (!t) {
      t = { epoch_day: day, symbol: r.symbol, accrued: zero, paid: zero };
      trend.set(key, t);
    }
    t.accrued = t.accrued.plus(r.final);
    if (r.status === 'paid') t.paid = t.paid.plus(r.final);
  }
  return {
    limit: q.limit,
    offset: q.offset,
    total_count: filtered.length,
    accruals: filtered.slice(q.offset, q.offset + q.limit).map(accrualJson),
    summary: { accrued_today_usd: usd(accrued), awaiting_approval_usd: usd(awaiting), paid_this_month_usd: usd(paidMonth), retained_usd: usd(retained) },
    trend: [...trend.values()]
      .sort((a, b) => cmp(a.epoch_day, b.epoch_day) || cmp(a.symbol, b.symbol))
      .map((t) => ({ epoch_day: t.epoch_day, symbol: t.symbol, accrued_usd: usd(t.accrued), paid_usd: usd(t.paid) })),
    symbols,
    window: { min_day: days[0] ?? '', max_day: days[days.length - 1] ?? '' },
  };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
