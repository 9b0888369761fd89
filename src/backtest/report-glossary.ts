/**
 * What each figure of report.html means: shown as the row's tooltip (`title`) and listed under
 * "Definitions" at the end of the page, so a number is never left unexplained.
 */
import { MARKOUT_BASIS, MIN_RATIO_PERIODS } from './report-stats.ts';

/** Definitions by key (the keys the report's rows refer to). */
export const GLOSSARY = {
  spread_capture: 'Σ side × (mid − price) × qty at each fill: what the fills earned against the mid the match met (for a fill by a book crossing, the mid before that frame).',
  inventory: 'Trading PnL − spread capture: the mark-to-market result of holding the position while the mid moved (adverse selection shows up here).',
  fees: 'Maker and taker fees charged on each fill\'s notional at the rates stated under Run; negative = paid, positive = a rebate.',
  funding: 'Funding settled on the position held at each settlement (longs pay a positive rate).',
  net: 'Spread capture + inventory + fees + funding, the position marked at the last mid. Estimated rewards are not included.',
  rewards: 'The reward pool (rewards.pool_usd_per_day) × our estimated share each minute (§12.3 scoring, the displayed book standing in for the other makers). An estimate, kept out of net.',
  sharpe: `Mean / standard deviation of the per-minute changes of net PnL (at UTC minute boundaries) × √1440: a one-day figure, no risk-free rate. Needs at least ${MIN_RATIO_PERIODS} minutes; fewer give n/a rather than noise scaled by √1440.`,
  sortino: `Like Sharpe, with the downside deviation √(Σ min(r, 0)² / n) of the per-minute PnL changes in place of the standard deviation. n/a under ${MIN_RATIO_PERIODS} minutes, or when no minute lost (unbounded).`,
  drawdown: 'The largest fall of net PnL from an earlier peak (equity sampled every backtest.sample_ms), and the time from that peak until PnL got back to it, or to the end of the window when it did not.',
  orders: 'Placed = place + replace requests (a replace is a new order at the venue); cancels = cancel + replace + cancel-all requests.',
  fill_ratio: 'Fills / orders placed. Every partial fill counts, so it can exceed 1: 2.05 means about two fills per order placed.',
  filled_order_share: 'The share of orders placed that traded at least once.',
  cancel_to_fill: 'Cancels / fills: orders withdrawn per fill (venues watch this ratio).',
  fills: 'Our fills: maker = our resting order was hit; taker = our order took liquidity.',
  maker_share: 'The share of our fills that were maker fills.',
  volume: 'Contracts we traded, and their share of the contracts the recorded prints traded in the window (can exceed 100% where fills come from book crossings).',
  cross_share: 'Contracts filled because the book crossed our resting order, not by a recorded print: no recorded trade backs them, so read them with care. Share of our volume.',
  inventory_stats: 'Position in contracts, from the samples every backtest.sample_ms: mean |position|, the largest long and short, and the position at the end.',
  inventory_pct: 'Percentiles of |position| over the samples (nearest rank).',
  time_at_limit: 'The share of market time with |position| at or beyond the risk limit (risk.max_position).',
  markouts: `Markout: ${MARKOUT_BASIS}.`,
  markouts_side: 'The 60 s markout of our buys and of our sells alone (bps, positive = good).',
  edge: 'Side × (mid − price) / mid at the fill, bps: what a fill earned against the mid at once. Edge + markout = the PnL of the fill marked at the horizon.',
  uptime: 'The share of time the book had a mid during which we had orders resting on both sides / on at least one side.',
  reward_spread: 'The share of time two-sided with both sides within the reward program\'s max spread and above its minimum notional.',
  reward_share: 'The mean of our estimated per-minute share of the reward pool.',
  queue_model: 'How the replay places our orders in the queue at their price (backtest.queue_model; src/backtest/README.md).',
  order_latency: 'Request → matching engine (entry) and matching engine → bot (response) delays the replay applies (backtest.order_latency).',
  fee_rates: 'Maker and taker fee rates charged, in bps of notional, and where they came from (config, recording, or the venue\'s default schedule).',
  rate_limit: 'The venue\'s order-entry token bucket the replay enforces; requests over it are answered 429 as live.',
  limits: 'The risk limits of the config (risk:), enforced by the same gate as live: no order may take the position, order size or notional past them.',
  kill_switch_limits: 'The kill switch\'s triggers (risk.kill_switch): a trip pulls every quote; the report names each trip, its reason and the share of the window spent stopped. off = that trigger is disabled.',
  events: 'Recorded events replayed, and those that reached the engine (book changes within the depth the strategies read).',
} as const;

/** A key of GLOSSARY. */
export type GlossaryKey = keyof typeof GLOSSARY;

/** The names the Definitions list gives each key. */
export const GLOSSARY_TERMS: Readonly<Record<GlossaryKey, string>> = {
  spread_capture: 'Spread capture',
  inventory: 'Inventory PnL',
  fees: 'Fees',
  funding: 'Funding',
  net: 'Net PnL',
  rewards: 'Estimated rewards',
  sharpe: 'Sharpe',
  sortino: 'Sortino',
  drawdown: 'Max drawdown',
  orders: 'Orders placed / cancels',
  fill_ratio: 'Fill ratio',
  filled_order_share: 'Filled-order share',
  cancel_to_fill: 'Cancel-to-fill',
  fills: 'Fills',
  maker_share: 'Maker share',
  volume: 'Volume and market share',
  cross_share: 'Volume from book crossings',
  inventory_stats: 'Inventory',
  inventory_pct: '|Inventory| p50 / p95',
  time_at_limit: 'Time at the position limit',
  markouts: 'Markouts',
  markouts_side: 'Markouts by side',
  edge: 'Edge at fill',
  uptime: 'Quote uptime',
  reward_spread: 'Inside the reward spread',
  reward_share: 'Reward share',
  queue_model: 'Queue model',
  order_latency: 'Order latency',
  fee_rates: 'Fee rates',
  rate_limit: 'Venue rate limit',
  limits: 'Limits applied',
  kill_switch_limits: 'Kill-switch triggers',
  events: 'Events',
};
