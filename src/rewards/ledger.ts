import { Decimal } from '../core/decimal.ts';
import { PAYOUT_STATUSES, statusLabel, type PayoutStatus, type RewardAccrual, type RewardQuery } from './types.ts';

/** Epoch day of an accrual: the UTC date (YYYY-MM-DD) of its epoch start. */
export const epochDay = (a: Pick<RewardAccrual, 'epochStartMs'>): string => utcDay(a.epochStartMs);

/** The UTC date (YYYY-MM-DD) of an epoch-ms instant. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Final accrued USD by payout status (every known status present, unknown ones under their raw name). */
export function totalsByStatus(accruals: Iterable<RewardAccrual>): Map<string, Decimal> {
  const out = new Map<string, Decimal>(PAYOUT_STATUSES.map((s) => [s, new Decimal(0)]));
  for (const a of accruals) {
    const k = statusLabel(a.status);
    out.set(k, (out.get(k) ?? new Decimal(0)).plus(a.finalUsd));
  }
  return out;
}

/** One row of totals by symbol and status. */
export interface SymbolStatusTotal {
  readonly symbol: string;
  readonly status: string;
  readonly finalUsd: Decimal;
  readonly count: number;
}

/** Final accrued USD and counts by (symbol, status), sorted by symbol then status order. */
export function totalsBySymbolStatus(accruals: Iterable<RewardAccrual>): SymbolStatusTotal[] {
  const m = new Map<string, { symbol: string; status: string; finalUsd: Decimal; count: number }>();
  for (const a of accruals) {
    const status = statusLabel(a.status);
    const key = `${a.symbol}\u0000${status}`;
    const row = m.get(key) ?? { symbol: a.symbol, status, finalUsd: new Decimal(0), count: 0 };
    row.finalUsd = row.finalUsd.plus(a.finalUsd);
    row.count += 1;
    m.set(key, row);
  }
  return [...m.values()].sort((x, y) => (x.symbol === y.symbol ? statusRank(x.status) - statusRank(y.status) : x.symbol < y.symbol ? -1 : 1));
}

/** One day of the per-day trend computed from accruals. */
export interface DayTotal {
  readonly day: string;
  /** Final USD of every accrual of the day, whatever its status. */
  readonly finalUsd: Decimal;
  /** Final USD by status. */
  readonly byStatus: ReadonlyMap<string, Decimal>;
  readonly count: number;
}

/** Per-epoch-day totals, oldest day first. */
export function trendByDay(accruals: Iterable<RewardAccrual>): DayTotal[] {
  const m = new Map<string, { finalUsd: Decimal; byStatus: Map<string, Decimal>; count: number }>();
  for (const a of accruals) {
    const day = epochDay(a);
    const row = m.get(day) ?? { finalUsd: new Decimal(0), byStatus: new Map<string, Decimal>(), count: 0 };
    const s = statusLabel(a.status);
    row.finalUsd = row.finalUsd.plus(a.finalUsd);
    row.byStatus.set(s, (row.byStatus.get(s) ?? new Decimal(0)).plus(a.finalUsd));
    row.count += 1;
    m.set(day, row);
  }
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([day, r]) => ({ day, ...r }));
}

/** Applies the endpoint's filters locally (same semantics: inclusive dates on the epoch day). */
export function filterAccruals(accruals: readonly RewardAccrual[], q: RewardQuery): RewardAccrual[] {
  return accruals.filter((a) => {
    if (q.symbol !== undefined && a.symbol !== q.symbol) return false;
    if (q.status !== undefined && statusLabel(a.status) !== q.status) return false;
    const day = epochDay(a);
    if (q.startDate !== undefined && day < q.startDate) return false;
    if (q.endDate !== undefined && day > q.endDate) return false;
    return true;
  });
}

/** The latest closed epoch per symbol (max epoch end), for share comparisons. */
export function latestBySymbol(accruals: Iterable<RewardAccrual>): Map<string, RewardAccrual> {
  const out = new Map<string, RewardAccrual>();
  for (const a of accruals) {
    const cur = out.get(a.symbol);
    if (!cur || a.epochEndMs > cur.epochEndMs) out.set(a.symbol, a);
  }
  return out;
}

/**
 * The symbol's pool implied by past accruals (raw = share × pool), from the latest accrual with a
 * positive share; null when none. The venue does not publish pools, so this is how we price an estimate.
 */
export function impliedPoolUsd(accruals: Iterable<RewardAccrual>, symbol: string): Decimal | null {
  let best: RewardAccrual | null = null;
  for (const a of accruals) {
    if (a.symbol !== symbol || !a.accountShare.gt(0)) continue;
    if (!best || a.epochEndMs > best.epochEndMs) best = a;
  }
  return best ? best.rawUsd.div(best.accountShare) : null;
}

function statusRank(s: string): number {
  const i = (PAYOUT_STATUSES as readonly string[]).indexOf(s as PayoutStatus);
  return i < 0 ? PAYOUT_STATUSES.length : i;
}
