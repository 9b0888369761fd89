import { z } from 'zod';
import { MmError } from '../../core/errors.ts';
import { DEFAULT_REWARD_SCORE_PARAMS } from '../../domain/reward-score.ts';

/**
 * The venue YAML sections sim-market owns (`market`, `md`, `funding`, `rewards`, `liquidation`),
 * parsed strictly with every knob defaulted. The venue's own loader passes these through raw.
 */

const underlying = z.strictObject({
  daily_vol_pct: z.number().min(0).optional(),
  /** Multiplies the category's default daily vol when daily_vol_pct is not set (presets use it). */
  vol_scale: z.number().min(0).optional(),
  jumps_per_day: z.number().min(0).optional(),
  jump_size_bps: z.number().min(0).optional(),
  mean_reversion_per_day: z.number().min(0).optional(),
  /** Perp premium over the underlying in bps (what funding charges). */
  basis_bps: z.number().optional(),
  /** Standard deviation of the instrument's own basis noise around basis_bps, bps (mean-reverting). */
  basis_noise_bps: z.number().min(0).optional(),
  basis_half_life_s: z.number().positive().optional(),
  /** Volatility multiplier of the volatile regime (1 = no regimes). */
  volatile_vol_mult: z.number().min(0).optional(),
  /** Mean minutes in the calm and in the volatile regime before switching (0 calm minutes: never volatile). */
  calm_mean_min: z.number().min(0).optional(),
  volatile_mean_min: z.number().positive().optional(),
  /** Trending episodes: starts per day, mean length in minutes, drift in bps per minute (random sign). */
  trends_per_day: z.number().min(0).optional(),
  trend_mean_min: z.number().positive().optional(),
  trend_bps_per_min: z.number().min(0).optional(),
  /** Loading on the correlation group's common factor (0 = independent, 1 = same diffusion). */
  correlation: z.number().min(0).max(1).optional(),
  /** Which underlyings move together (default: fx, equities, oil, precious, base_metals... from the product). */
  correlation_group: z.string().min(1).optional(),
});
const makers = z.strictObject({
  accounts: z.number().int().min(0).max(10).optional(),
  levels: z.number().int().min(1).max(50).optional(),
  half_spread_bps: z.number().positive().optional(),
  half_spread_ticks: z.number().int().min(1).optional(),
  level_spacing_ticks: z.number().int().min(1).optional(),
  min_lots: z.number().int().min(1).optional(),
  max_lots: z.number().int().min(1).optional(),
  requote_threshold_ticks: z.number().int().min(1).optional(),
  /** Makers quote the underlying as it was this many venue ms ago (their reaction time). */
  reaction_ms: z.number().int().min(0).max(10_000).optional(),
  /** In the volatile regime the half spread is multiplied by this and level sizes by volatile_size_mult. */
  volatile_spread_mult: z.number().min(1).optional(),
  volatile_size_mult: z.number().positive().max(1).optional(),
  /** Right after a jump the half spread is multiplied by this, easing back to 1 over jump_recovery_ms. */
  jump_spread_mult: z.number().min(1).optional(),
  jump_recovery_ms: z.number().int().min(0).optional(),
  /** Random level refreshes (cancel + re-place with a new size) per second per symbol: depth churn. */
  churn_per_s: z.number().min(0).optional(),
});
const takers = z.strictObject({
  rate_per_min: z.number().min(0).optional(),
  median_lots: z.number().positive().optional(),
  size_sigma: z.number().min(0).optional(),
  max_lots: z.number().int().min(1).optional(),
  sweep_ticks: z.number().int().min(0).optional(),
  fair_skew: z.number().min(0).optional(),
  /** Share of taker orders that trade on where the underlying will be informed_horizon_ms ahead. */
  informed_share: z.number().min(0).max(1).optional(),
  informed_horizon_ms: z.number().int().min(0).max(600_000).optional(),
  /** Taker arrival rate multiplier in the volatile regime. */
  volatile_rate_mult: z.number().min(0).optional(),
});
const impact = z.strictObject({
  /** Permanent move of the underlying by a taker order of median size, bps (square root in size). */
  permanent_bps: z.number().min(0).optional(),
  /** Temporary shift of the makers' quotes by a median taker order, bps, decaying with the half life. */
  temporary_bps: z.number().min(0).optional(),
  temporary_half_life_ms: z.number().positive().optional(),
});
const flowParams = z.strictObject({ underlying: underlying.optional(), makers: makers.optional(), takers: takers.optional(), impact: impact.optional() });

/** Named market presets: each sets defaults for the flow knobs (see presets.ts). */
export const MARKET_PRESETS = ['calm', 'normal', 'toxic', 'trending', 'news'] as const;
/** One of the market presets. */
export type MarketPreset = (typeof MARKET_PRESETS)[number];

const marketSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Defaults for every flow knob below; explicit defaults/overrides win. */
  preset: z.enum(MARKET_PRESETS).default('normal'),
  /** Symbols with synthetic flow (default: every listed instrument). */
  symbols: z.array(z.string()).optional(),
  /** Venue ms between price steps and maker requotes. */
  step_ms: z.number().int().min(10).default(250),
  defaults: flowParams.prefault({}),
  overrides: z.record(z.string(), flowParams).default({}),
});

const mdSchema = z.strictObject({
  /** Send `st:false` deltas after the first snapshot instead of a snapshot per change. */
  delta_mode: z.boolean().default(false),
  /** Minimum venue ms between ticker frames per symbol (venue: ≤ 1/s). */
  ticker_interval_ms: z.number().int().min(1).default(1000),
  /** Server heartbeat on the MD WS, real ms. */
  heartbeat_ms: z.number().int().positive().default(5000),
  /** Levels per side in book frames and REST books. */
  book_depth: z.number().int().min(1).max(1000).default(20),
  /** Trades kept per symbol for REST. */
  trade_history: z.number().int().min(1).default(1000),
  /** Completed candles kept per symbol and width, trade and BBO candles each (default: 33 hours of 1-minute candles). */
  candle_history: z.number().int().min(1).default(2_000),
  /** Rows of underlying prices kept per symbol for /api/underlying-prices (default two days of minutes). */
  underlying_history: z.number().int().min(1).default(2_880),
  /** One underlying row per this many venue ms (the bucket's latest observation); 0 = every observation (about one a second). */
  underlying_bucket_ms: z.number().int().min(0).default(60_000),
  /** Frames buffered per connection before the slowest consumers are dropped. */
  max_buffered_bytes: z.number().int().positive().default(8 * 1024 * 1024),
});

const fundingSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** daily_close mark: VWAP of trades in this window before the settlement (TWAP of marks if none). */
  mark_window_ms: z.number().int().positive().default(900_000),
  /** intraday_twap: charge premium / N per slot (false = the full premium each slot). */
  divide_intraday_by_count: z.boolean().default(true),
  /** ef reads settlement_pending this long after each settlement. */
  settlement_pending_ms: z.number().int().min(0).default(5_000),
  /** Underlying older than this makes the estimate unavailable. */
  stale_underlying_ms: z.number().int().positive().default(120_000),
  /** Minimum venue ms of mark data in the window before an estimate is ready. */
  min_estimate_window_ms: z.number().int().min(0).default(60_000),
  /** Post daily mark_to_market rows at each daily settlement. */
  mark_to_market: z.boolean().default(true),
});

const rewardsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  epoch_ms: z.number().int().min(60_000).default(86_400_000),
  pools_usd: z.record(z.string(), z.number().min(0)).default({}),
  default_pool_usd: z.number().min(0).default(1000),
  cap_pct: z.number().min(0).max(100).nullable().default(25),
  cap_usd: z.number().min(0).nullable().default(null),
  min_payout_usd: z.number().min(0).default(1),
  /** Lifecycle delays after the epoch end (default 1, 2 and 3 epochs). */
  awaiting_after_ms: z.number().int().min(0).optional(),
  approved_after_ms: z.number().int().min(0).optional(),
  paid_after_ms: z.number().int().min(0).optional(),
  score_retention_ms: z.number().int().min(0).default(30 * 86_400_000),
  max_spread_bps: z.number().positive().default(DEFAULT_REWARD_SCORE_PARAMS.maxSpreadBps),
  min_notional_usd: z.number().min(0).default(DEFAULT_REWARD_SCORE_PARAMS.minNotionalUsd),
  min_rest_ms: z.number().int().min(0).default(DEFAULT_REWARD_SCORE_PARAMS.minRestMs),
  curve: z.enum(['quadratic', 'dydx', 'exp']).default('quadratic'),
  exp_k_per_bps: z.number().positive().default(DEFAULT_REWARD_SCORE_PARAMS.expKPerBps),
  single_sided_divisor: z.number().min(1).default(DEFAULT_REWARD_SCORE_PARAMS.singleSidedDivisor),
  uptime_exponent: z.number().min(0).default(1),
  bonus_windows: z
    .array(z.strictObject({ from_utc: z.string().regex(/^\d\d:\d\d$/), to_utc: z.string().regex(/^\d\d:\d\d$/), weight: z.number().min(0) }))
    .default([]),
});

const liquidationSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Venue ms between margin checks. */
  check_interval_ms: z.number().int().positive().default(1000),
  /** How far through the touch the IOC liquidation orders may sweep, in percent of the mark. */
  slippage_pct: z.number().positive().default(5),
});

const schema = z.strictObject({
  market: marketSchema.prefault({}),
  md: mdSchema.prefault({}),
  funding: fundingSchema.prefault({}),
  rewards: rewardsSchema.prefault({}),
  liquidation: liquidationSchema.prefault({}),
});

/** Parsed sim-market configuration (snake_case as in YAML). */
export type MarketConfig = z.output<typeof schema>;
/** Flow parameters as written (every field optional). */
export type FlowParamsInput = z.output<typeof flowParams>;

/**
 * Parses the sim-market sections of a venue config.
 * @throws MmError CONFIG_INVALID naming `source`, the section path and the value.
 */
export function parseMarketConfig(raw: { market?: unknown; md?: unknown; funding?: unknown; rewards?: unknown; liquidation?: unknown }, source = '<inline>'): MarketConfig {
  const input = { market: raw.market ?? {}, md: raw.md ?? {}, funding: raw.funding ?? {}, rewards: raw.rewards ?? {}, liquidation: raw.liquidation ?? {} };
  const res = schema.safeParse(input);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const path = [...issue.path, issue.keys[0]!].join('.');
      throw new MmError('CONFIG_INVALID', `${source}: ${path}: unknown key`, { source, path });
    }
    let value: unknown = input;
    for (const k of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined;
    const path = issue.path.join('.');
    throw new MmError('CONFIG_INVALID', `${source}: ${path}: ${issue.message} (got ${JSON.stringify(value)})`, { source, path });
  }
  return res.data;
}

const hhmm = (s: string): number => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

/** Converts bonus windows to minutes of the UTC day. */
export const bonusWindowsOf = (c: MarketConfig['rewards']): { fromUtcMinute: number; toUtcMinute: number; weight: number }[] =>
  c.bonus_windows.map((w) => ({ fromUtcMinute: hhmm(w.from_utc), toUtcMinute: hhmm(w.to_utc), weight: w.weight }));
