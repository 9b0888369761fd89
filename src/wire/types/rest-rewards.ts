/** Market-maker liquidity program: `GET /api/mmlp/v2/reward-accruals`. */
import type { DateString, DateTimeString, DecimalString, WireEnum, WirePayoutStatus } from './common.ts';

/** Query (all optional). */
export interface WireRewardAccrualsQuery {
  readonly account_id?: string | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  readonly symbol?: string | undefined;
  readonly payout_status?: WireEnum<WirePayoutStatus> | undefined;
  readonly start_date?: DateString | undefined;
  readonly end_date?: DateString | undefined;
}
/** One epoch's reward for one symbol and account (all nine fields required). */
export interface WireRewardAccrual {
  readonly id: string;
  readonly epoch_start_ts: DateTimeString;
  readonly epoch_end_ts: DateTimeString;
  readonly symbol: string;
  readonly raw_reward_usd: DecimalString;
  readonly cap_adjustment_usd: DecimalString;
  readonly final_accrued_usd: DecimalString;
  /** In [0, 1]. */
  readonly account_share: DecimalString;
  readonly payout_status: WireEnum<WirePayoutStatus>;
}
/** Totals over the whole filtered set. */
export interface WireRewardSummary {
  readonly accrued_today_usd: DecimalString;
  readonly awaiting_approval_usd: DecimalString;
  readonly paid_this_month_usd: DecimalString;
  readonly retained_usd: DecimalString;
}
/** One point per symbol per epoch day. */
export interface WireRewardTrendPoint {
  readonly epoch_day: DateString;
  readonly symbol: string;
  readonly accrued_usd: DecimalString;
  readonly paid_usd: DecimalString;
}
/** Inclusive epoch-day bounds of the unfiltered ledger; both empty strings when there are no rewards. */
export interface WireRewardWindow {
  readonly min_day: string;
  readonly max_day: string;
}
/** Response 200. */
export interface WireRewardAccrualsResponse {
  readonly limit: number;
  readonly offset: number;
  readonly total_count: number;
  readonly accruals: readonly WireRewardAccrual[];
  readonly summary: WireRewardSummary;
  readonly trend: readonly WireRewardTrendPoint[];
  readonly symbols: readonly string[];
  readonly window: WireRewardWindow;
}
