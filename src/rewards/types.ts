import type { Decimal } from '../core/decimal.ts';

/** Payout statuses of a reward accrual (docs/venue-protocol.md §5, "reward payout status"); the domain twin of wire's WIRE_PAYOUT_STATUSES. */
export const PAYOUT_STATUSES = ['accrued', 'awaiting', 'approved', 'paid', 'retained'] as const;
/** One payout status. */
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** True for a known payout status. */
export const isPayoutStatus = (s: string): s is PayoutStatus => (PAYOUT_STATUSES as readonly string[]).includes(s);

/** One reward for one epoch, symbol and account, in domain units (epoch ms, Decimal USD). */
export interface RewardAccrual {
  readonly id: string;
  readonly epochStartMs: number;
  readonly epochEndMs: number;
  readonly symbol: string;
  readonly rawUsd: Decimal;
  readonly capAdjustmentUsd: Decimal;
  readonly finalUsd: Decimal;
  /** Bonus-weighted average share of all makers' scores, in [0, 1]. */
  readonly accountShare: Decimal;
  /** A known status, or the venue's raw string when it is one we do not know. */
  readonly status: PayoutStatus | { readonly unknown: string };
}

/** The venue's summary over the filtered set (USD). */
export interface RewardSummary {
  readonly accruedTodayUsd: Decimal;
  readonly awaitingApprovalUsd: Decimal;
  readonly paidThisMonthUsd: Decimal;
  readonly retainedUsd: Decimal;
}

/** One trend point: a symbol on an epoch day (YYYY-MM-DD). */
export interface RewardTrendPoint {
  readonly day: string;
  readonly symbol: string;
  readonly accruedUsd: Decimal;
  readonly paidUsd: Decimal;
}

/** Inclusive epoch-day bounds of the unfiltered ledger; null when there are no rewards. */
export interface RewardWindow {
  readonly minDay: string | null;
  readonly maxDay: string | null;
}

/** Query filters of the accruals endpoint. Dates are YYYY-MM-DD, inclusive, on the epoch day. */
export interface RewardQuery {
  readonly accountId?: string;
  readonly symbol?: string;
  readonly status?: PayoutStatus;
  readonly startDate?: string;
  readonly endDate?: string;
}

/** One page of the accruals endpoint (summary, trend, symbols and window cover the whole filtered set). */
export interface RewardPage {
  readonly limit: number;
  readonly offset: number;
  readonly totalCount: number;
  readonly accruals: readonly RewardAccrual[];
  readonly summary: RewardSummary;
  readonly trend: readonly RewardTrendPoint[];
  readonly symbols: readonly string[];
  readonly window: RewardWindow;
}

/**
 * Where the tracker reads pages from: the REST client in the daemon, a fake in unit tests.
 * Rejects with an MmError (retryable or not) on failure.
 */
export interface RewardSource {
  rewardAccruals(query: RewardQuery & { readonly limit: number; readonly offset: number }): Promise<RewardPage>;
}

/** The status label of an accrual (the raw string for unknown ones). */
export const statusLabel = (s: RewardAccrual['status']): string => (typeof s === 'string' ? s : s.unknown);
