import { Counter, Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from './metrics.ts';

/** The venue's reward summary as plain numbers (USD). */
export interface RewardSummaryValues {
  readonly accruedTodayUsd: number;
  readonly awaitingApprovalUsd: number;
  readonly paidThisMonthUsd: number;
  readonly retainedUsd: number;
}

/** Our local estimate for one symbol, as plain numbers. */
export interface RewardEstimateValues {
  /** Our share of the last sampled minute, in [0, 1]. */
  readonly minuteShare: number;
  /** Our bonus-weighted average share over the current epoch so far, in [0, 1]. */
  readonly epochShare: number;
  /** Our per-minute score (USD-notional weighted) at the last sample. */
  readonly scoreUsd: number;
  /** Expected reward for the current epoch in USD, when the pool is known (null otherwise). */
  readonly expectedUsd: number | null;
}

/** Reward-program metrics with narrow update functions (plain values in). */
export interface RewardMetrics {
  /** Replaces the ledger totals: final accrued USD by symbol and payout status. */
  totals(rows: readonly { readonly symbol: string; readonly status: string; readonly usd: number }[]): void;
  /** Sets the venue summary figures. */
  summary(values: RewardSummaryValues): void;
  /** Sets the venue-reported account_share of the latest closed epoch for a symbol. */
  venueShare(symbol: string, share: number): void;
  /** Sets our local estimate for a symbol. */
  estimate(symbol: string, values: RewardEstimateValues): void;
  /** Sets local estimate − venue share for the latest closed epoch of a symbol. */
  shareGap(symbol: string, gap: number): void;
  /** Counts one poll of the accruals endpoint and its outcome; `tsMs` is the poll time (epoch ms). */
  poll(ok: boolean, tsMs: number): void;
}

/** Registers the reward metrics on `registry`. */
export function createRewardMetrics(registry: Registry): RewardMetrics {
  const registers = [registry];
  const p = `${METRIC_PREFIX}reward_`;
  const totals = new Gauge({ name: `${p}final_accrued_usd`, help: 'Final accrued reward over the ledger by symbol and payout status', labelNames: ['symbol', 'status'], registers });
  const summary = new Gauge({ name: `${p}venue_report_usd`, help: 'Venue reward summary figures by field (accrued_today, awaiting_approval, paid_this_month, retained)', labelNames: ['field'], registers });
  const venueShare = new Gauge({ name: `${p}venue_share_ratio`, help: 'Venue-reported account_share of the latest closed epoch', labelNames: ['symbol'], registers });
  const minuteShare = new Gauge({ name: `${p}estimated_minute_share_ratio`, help: 'Local estimate of our share of the last sampled minute', labelNames: ['symbol'], registers });
  const epochShare = new Gauge({ name: `${p}estimated_epoch_share_ratio`, help: 'Local estimate of our share over the current epoch so far', labelNames: ['symbol'], registers });
  const score = new Gauge({ name: `${p}estimated_score_usd`, help: 'Local estimate of our per-minute maker score', labelNames: ['symbol'], registers });
  const expected = new Gauge({ name: `${p}estimated_epoch_usd`, help: 'Expected reward for the current epoch (estimated share x inferred pool)', labelNames: ['symbol'], registers });
  const gap = new Gauge({ name: `${p}share_gap_ratio`, help: 'Local estimate minus venue account_share, latest closed epoch', labelNames: ['symbol'], registers });
  const polls = new Counter({ name: `${p}polls_total`, help: 'Polls of the reward-accruals endpoint by outcome', labelNames: ['outcome'], registers });
  const lastPoll = new Gauge({ name: `${p}last_poll_timestamp_seconds`, help: 'Time of the last successful poll (unix seconds)', registers });
  polls.inc({ outcome: 'ok' }, 0);
  polls.inc({ outcome: 'error' }, 0);

  return {
    totals(rows) {
      totals.reset();
      for (const r of rows) totals.set({ symbol: r.symbol, status: r.status }, r.usd);
    },
    summary(v) {
      summary.set({ field: 'accrued_today' }, v.accruedTodayUsd);
      summary.set({ field: 'awaiting_approval' }, v.awaitingApprovalUsd);
      summary.set({ field: 'paid_this_month' }, v.paidThisMonthUsd);
      summary.set({ field: 'retained' }, v.retainedUsd);
    },
    venueShare: (symbol, share) => venueShare.set({ symbol }, share),
    estimate(symbol, v) {
      minuteShare.set({ symbol }, v.minuteShare);
      epochShare.set({ symbol }, v.epochShare);
      score.set({ symbol }, v.scoreUsd);
      if (v.expectedUsd !== null) expected.set({ symbol }, v.expectedUsd);
    },
    shareGap: (symbol, g) => gap.set({ symbol }, g),
    poll(ok, tsMs) {
      polls.inc({ outcome: ok ? 'ok' : 'error' });
      if (ok) lastPoll.set(tsMs / 1000);
    },
  };
}
