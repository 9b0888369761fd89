/** REST decoders: market-maker reward accruals. */
import type {
  WireRewardAccrual,
  WireRewardAccrualsQuery,
  WireRewardAccrualsResponse,
  WireRewardSummary,
  WireRewardTrendPoint,
  WireRewardWindow,
} from '../types/rest-rewards.ts';
import { payoutStatus } from './enums.ts';
import { arrayOf, fail, obj, optional, type Decoder } from './kit.ts';
import { date, dateTime, dec, intLike, str, uint } from './scalars.ts';

const optStr = optional(str);
/** Decodes a WireRewardAccrualsQuery. */
export const readRewardAccrualsQuery = obj<WireRewardAccrualsQuery>(
  {
    account_id: optStr,
    limit: optional(intLike),
    offset: optional(intLike),
    symbol: optStr,
    payout_status: optional(payoutStatus),
    start_date: optional(date),
    end_date: optional(date),
  },
  'reward accruals query',
);

/** A decimal string in [0, 1] (account share). */
const share: Decoder<string> = (v, p, k) => {
  const s = dec(v, p, k);
  if (typeof s === 'string' && (s.startsWith('-') || Number(s) > 1)) return fail(v, p, k, 'decimal string in [0, 1]');
  return s;
};

const accrual = obj<WireRewardAccrual>(
  {
    id: str,
    epoch_start_ts: dateTime,
    epoch_end_ts: dateTime,
    symbol: str,
    raw_reward_usd: dec,
    cap_adjustment_usd: dec,
    final_accrued_usd: dec,
    account_share: share,
    payout_status: payoutStatus,
  },
  'reward accrual object',
);
const summary = obj<WireRewardSummary>(
  { accrued_today_usd: dec, awaiting_approval_usd: dec, paid_this_month_usd: dec, retained_usd: dec },
  'reward summary object',
);
const trendPoint = obj<WireRewardTrendPoint>({ epoch_day: date, symbol: str, accrued_usd: dec, paid_usd: dec }, 'reward trend point');
const dayOrEmpty: Decoder<string> = (v, p, k) => (v === '' ? '' : date(v, p, k));
const window = obj<WireRewardWindow>({ min_day: dayOrEmpty, max_day: dayOrEmpty }, 'reward window object');

/** Decodes a WireRewardAccrualsResponse. */
export const readRewardAccrualsResponse = obj<WireRewardAccrualsResponse>(
  {
    limit: uint,
    offset: uint,
    total_count: uint,
    accruals: arrayOf(accrual, 'array of accruals'),
    summary,
    trend: arrayOf(trendPoint, 'array of trend points'),
    symbols: arrayOf(str, 'array of symbols'),
    window,
  },
  'reward accruals response',
);
