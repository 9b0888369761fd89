import { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import type { WireRewardAccrual, WireRewardAccrualsQuery, WireRewardAccrualsResponse } from '../wire/index.ts';
import { isPayoutStatus, type RewardAccrual, type RewardPage, type RewardQuery } from './types.ts';

/**
 * Maps a decoded accruals response to domain units (epoch ms, Decimal USD).
 * @throws MmError DECODE_FAILED naming the accrual and field when a timestamp or decimal is malformed.
 */
export function fromWireRewardPage(w: WireRewardAccrualsResponse): RewardPage {
  return {
    limit: w.limit,
    offset: w.offset,
    totalCount: w.total_count,
    accruals: w.accruals.map((a, i) => fromWireAccrual(a, `$.accruals[${i}]`)),
    summary: {
      accruedTodayUsd: dec(w.summary.accrued_today_usd, '$.summary.accrued_today_usd'),
      awaitingApprovalUsd: dec(w.summary.awaiting_approval_usd, '$.summary.awaiting_approval_usd'),
      paidThisMonthUsd: dec(w.summary.paid_this_month_usd, '$.summary.paid_this_month_usd'),
      retainedUsd: dec(w.summary.retained_usd, '$.summary.retained_usd'),
    },
    trend: w.trend.map((t, i) => ({
      day: t.epoch_day,
      symbol: t.symbol,
      accruedUsd: dec(t.accrued_usd, `$.trend[${i}].accrued_usd`),
      paidUsd: dec(t.paid_usd, `$.trend[${i}].paid_usd`),
    })),
    symbols: w.symbols,
    window: { minDay: w.window.min_day === '' ? null : w.window.min_day, maxDay: w.window.max_day === '' ? null : w.window.max_day },
  };
}

/** Maps one accrual; `path` names it in errors. */
export function fromWireAccrual(a: WireRewardAccrual, path: string): RewardAccrual {
  const status = a.payout_status;
  return {
    id: a.id,
    epochStartMs: ts(a.epoch_start_ts, `${path}.epoch_start_ts`),
    epochEndMs: ts(a.epoch_end_ts, `${path}.epoch_end_ts`),
    symbol: a.symbol,
    rawUsd: dec(a.raw_reward_usd, `${path}.raw_reward_usd`),
    capAdjustmentUsd: dec(a.cap_adjustment_usd, `${path}.cap_adjustment_usd`),
    finalUsd: dec(a.final_accrued_usd, `${path}.final_accrued_usd`),
    accountShare: dec(a.account_share, `${path}.account_share`),
    status: typeof status === 'string' && isPayoutStatus(status) ? status : { unknown: typeof status === 'string' ? status : status.unknown },
  };
}

/** The wire query for a domain query plus paging. */
export function toWireRewardQuery(q: RewardQuery & { readonly limit?: number; readonly offset?: number }): WireRewardAccrualsQuery {
  return {
    account_id: q.accountId,
    limit: q.limit,
    offset: q.offset,
    symbol: q.symbol,
    payout_status: q.status,
    start_date: q.startDate,
    end_date: q.endDate,
  };
}

function dec(s: string, path: string): Decimal {
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(s)) throw new MmError('DECODE_FAILED', `${path}: expected a decimal string, got ${JSON.stringify(s)}`, { path });
  return new Decimal(s);
}

function ts(s: string, path: string): number {
  const ms = Date.parse(s);
  if (!Number.isFinite(ms)) throw new MmError('DECODE_FAILED', `${path}: expected an RFC 3339 date-time, got ${JSON.stringify(s)}`, { path });
  return ms;
}
