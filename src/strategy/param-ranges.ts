/**
 * Upper bounds of the built-in strategies' numeric parameters, by unit. Each is far past any value
 * that makes sense, but finite: `ctl set halfSpreadBps=1e300` is refused with its path instead of
 * being accepted and leaving an ACTIVE bot that sends no quotes (issue 35 #8). A test checks that
 * every numeric parameter of every built-in strategy and overlay has a lower and an upper bound.
 */
export const PARAM_RANGES = {
  /** Contracts (sizes, caps, inventory ranges): 10⁹, past any venue's order or position limit. */
  contracts: 1_000_000_000,
  /** Distances in ticks (half-spreads, spacing, slippage; drift in ticks per second): 100,000. */
  ticks: 100_000,
  /** Distances in bps of the fair value: 1,000 (10 %); at 10,000 a half-spread puts the bid at zero. */
  bps: 1_000,
  /** Durations in seconds (half-lives, horizons, cooldowns): one week. */
  seconds: 604_800,
  /** Intervals in ms between refits: one hour. */
  intervalMs: 3_600_000,
  /** Multipliers, risk aversions and other dimensionless weights: 1,000. */
  factor: 1_000,
  /** Counts of events (fills in a window): 10,000. */
  count: 10_000,
  /** Amounts in USD (a reward pool per day): 10⁹. */
  usd: 1_000_000_000,
} as const;
