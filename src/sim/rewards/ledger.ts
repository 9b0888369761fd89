import type { Decimal } from '../../core/decimal.ts';
import { RingBuffer } from '../history/ring-buffer.ts';

/** Reward payout statuses (docs/venue-protocol.md §5, "reward payout status"). */
export const PAYOUT_STATUSES = ['accrued', 'awaiting', 'approved', 'paid', 'retained'] as const;
/** One payout status. */
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** One reward for a single (epoch, symbol, account). Money in Decimal USD. */
export interface RewardAccrual {
  readonly id: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly epochStartMs: number;
  readonly epochEndMs: number;
  readonly raw: Decimal;
  readonly capAdjustment: Decimal;
  readonly final: Decimal;
  /** Bonus-weighted average share in [0, 1]. */
  readonly accountShare: number;
  status: PayoutStatus;
  /** When the row became `paid` (epoch ms), else null. */
  paidAtMs: number | null;
  /** False once the epoch's scores are no longer retained: account_share then reads 0. */
  scoresRetained: boolean;
}

/** Timing of the payout lifecycle, relative to the epoch's end. */
export interface PayoutLifecycle {
  readonly awaitingAfterMs: number;
  readonly approvedAfterMs: number;
  readonly paidAfterMs: number;
  /** Scores (and so account_share) are kept this long after the epoch ends. */
  readonly scoreRetentionMs: number;
}

/** The epoch day (UTC date of the epoch start) of an accrual. */
export const epochDay = (a: Pick<RewardAccrual, 'epochStartMs'>): string => new Date(a.epochStartMs).toISOString().slice(0, 10);

/**
 * The reward ledger: every accrual of every account, including the synthetic makers. Advancing it
 * moves statuses accrued → awaiting → approved → paid over time; `retained` is terminal. Keeps the
 * newest `capacity` rows (`retention.reward_rows`); the oldest are paid or retained long before.
 */
export class RewardLedger {
  readonly #rows: RingBuffer<RewardAccrual>;

  constructor(capacity = 100_000) {
    this.#rows = new RingBuffer(capacity);
  }

  /** Adds closed-epoch accruals. */
  add(rows: readonly RewardAccrual[]): void {
    for (const r of rows) this.#rows.push(r);
  }

  /** Every row kept, oldest first (a copy). */
  all(): readonly RewardAccrual[] {
    return this.#rows.toArray();
  }

  /** Rows of one account. */
  forAccount(accountId: string): RewardAccrual[] {
    return this.#rows.filter((r) => r.accountId === accountId);
  }

  /**
   * Moves statuses forward to where they should be at `nowMs`; returns the rows that became
   * `paid` in this call (the caller credits the accounts).
   */
  advance(nowMs: number, life: PayoutLifecycle): RewardAccrual[] {
    const paid: RewardAccrual[] = [];
    for (const r of this.#rows) {
      if (r.scoresRetained && nowMs >= r.epochEndMs + life.scoreRetentionMs) r.scoresRetained = false;
      if (r.status === 'retained' || r.status === 'paid') continue;
      const age = nowMs - r.epochEndMs;
      if (age >= life.paidAfterMs) {
        r.status = 'paid';
        r.paidAtMs = r.epochEndMs + life.paidAfterMs;
        paid.push(r);
      } else if (age >= life.approvedAfterMs) r.status = 'approved';
      else if (age >= life.awaitingAfterMs) r.status = 'awaiting';
    }
    return paid;
  }
}
