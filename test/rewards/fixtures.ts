import { Decimal } from '../../src/core/decimal.ts';
import type { RewardAccrual, RewardPage, RewardQuery, RewardSource } from '../../src/rewards/types.ts';
import { filterAccruals, totalsByStatus } from '../../src/rewards/ledger.ts';

const DAY = 86_400_000;

/** A synthetic accrual; `day` is days since 2026-01-01. */
export function accrual(id: string, day: number, symbol: string, final: string, status: RewardAccrual['status'], share = '0.25'): RewardAccrual {
  const start = Date.UTC(2026, 0, 1) + day * DAY;
  return {
    id,
    epochStartMs: start,
    epochEndMs: start + DAY,
    symbol,
    rawUsd: new Decimal(final),
    capAdjustmentUsd: new Decimal(0),
    finalUsd: new Decimal(final),
    accountShare: new Decimal(share),
    status,
  };
}

/** An in-memory RewardSource paging over `rows` like the venue (newest first); counts calls. */
export class FakeSource implements RewardSource {
  calls: (RewardQuery & { limit: number; offset: number })[] = [];
  failNext = 0;
  /** Runs before a page is served (lets tests mutate the ledger mid-listing). */
  beforePage: ((n: number) => void) | null = null;
  constructor(public rows: RewardAccrual[]) {}

  async rewardAccruals(q: RewardQuery & { limit: number; offset: number }): Promise<RewardPage> {
    this.calls.push(q);
    this.beforePage?.(this.calls.length);
    if (this.failNext > 0) {
      this.failNext--;
      const { MmError } = await import('../../src/core/errors.ts');
      throw new MmError('VENUE_UNAVAILABLE', 'down for maintenance');
    }
    const set = filterAccruals(this.rows, q).sort((a, b) => b.epochStartMs - a.epochStartMs);
    const t = totalsByStatus(set);
    return {
      limit: q.limit,
      offset: q.offset,
      totalCount: set.length,
      accruals: set.slice(q.offset, q.offset + q.limit),
      summary: { accruedTodayUsd: t.get('accrued')!, awaitingApprovalUsd: t.get('awaiting')!, paidThisMonthUsd: t.get('paid')!, retainedUsd: t.get('retained')! },
      trend: [],
      symbols: [...new Set(this.rows.map((r) => r.symbol))].sort(),
      window: { minDay: null, maxDay: null },
    };
  }
}
