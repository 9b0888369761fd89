import { resolve } from 'node:path';
import type { FeeRates } from '../domain/fee-rates.ts';
import { backtestSectionSchema, type BacktestSection, type LatencyDist, QUEUE_MODEL_KINDS } from '../domain/backtest-section.ts';

export { backtestSectionSchema, type BacktestSection } from '../domain/backtest-section.ts';

/** Resolved settings the runner uses (plain data: it crosses worker_threads in sweeps). */
export interface BacktestSettings {
  readonly seed: number;
  /** `module`: an absolute path (toSettings resolves it against the config's folder); `params` go to its create(). */
  readonly queueModel: {
    readonly kind: (typeof QUEUE_MODEL_KINDS)[number];
    readonly n: number;
    readonly module?: string;
    readonly params?: Readonly<Record<string, unknown>>;
    /** L2 models: read a plain print where no displayed volume stood as hidden (infer-hidden.ts). */
    readonly inferHidden?: boolean;
  };
  /**
   * Order latency: `source` 'model' (or absent) = the entry/response distributions; 'recorded' = the
   * recording's round trips split `entryShare` / rest; 'auto' = recorded when the recording has round
   * trips, else the distributions.
   */
  readonly orderLatency: {
    readonly entry: LatencyDist;
    readonly response: LatencyDist;
    readonly source?: 'auto' | 'recorded' | 'model';
    readonly entryShare?: number;
  };
  /** The venue's order-entry rate limit the replay exchange enforces (429 when spent); null = unlimited. */
  readonly rateLimit: { readonly burst: number; readonly perSecond: number } | null;
  readonly feedLatencyOffsetMs: number;
  /** Exchange-side rows replay in venue-time order within this window (venue-time.ts); 0 = receive order, time clamped forward. */
  readonly reorderWindowMs: number;
  /** A print within this many ms after a frame that moved our order up nets against it (depth-before-print.ts). */
  readonly nettingWindowMs: number;
  /** Book levels per side delivered to the engine; 'auto' = the deepest the strategies read. */
  readonly feedDepth: number | 'auto';
  readonly feedConflateMs: number;
  /** Mean of the seeded exponential delay added to every receive time (0 or absent: the recorded times). */
  readonly feedJitterMs?: number;
  /** The competitor reaction model; null or absent = off (competitor-reaction.ts). */
  readonly reaction?: ReactionSettings | null;
  /** Explicit fee rates (backtest.fees, else bot.fee_rates); null = the recording account's, else the venue default (resolveFeeRates). */
  readonly fees: FeeRates | null;
  readonly funding: 'auto' | 'recorded' | 'schedule' | 'off';
  /** What to do with the recording bot's own orders (`o` lines). */
  readonly ownOrders: 'subtract' | 'keep';
  readonly rewards: {
    readonly maxSpreadBps: number;
    readonly minNotionalUsd: number;
    readonly minRestMs: number;
    readonly curve: 'quadratic' | 'dydx' | 'exp';
    readonly singleSidedDivisor: number;
    readonly poolUsdPerDay: number;
  };
  readonly sampleMs: number;
  readonly startMs: number | null;
  readonly endMs: number | null;
}

/** The competitor reaction model's parameters (`backtest.reaction`), seeded by the run's seed. */
export interface ReactionSettings {
  readonly probability: number;
  readonly delayMedianMs: number;
  readonly delaySigma: number;
  readonly size: number;
}

/** Sandbox fee rates (docs/venue-rules.md §7): maker 0, taker 2 bps. */
export const SANDBOX_FEES = Object.freeze({ maker: 0, taker: 0.0002 });

/** The venue's documented order-entry limit (docs/venue-rules.md §10 and the local venue's default): 100 burst, 10/s per user. */
export const VENUE_RATE_LIMIT = Object.freeze({ burst: 100, perSecond: 10 });

/**
 * Maps the YAML section onto runner settings. `fallbackFees` is the bot's fee_rates when set;
 * `venueRateLimit` the embedded venue's configured limit when the config runs one (same budget as live).
 */
export function toSettings(
  s: BacktestSection,
  fallbackFees?: FeeRates | null,
  venueRateLimit?: { readonly enabled?: boolean; readonly burst?: number; readonly perSecond?: number } | null,
  baseDir: string = process.cwd(),
): BacktestSettings {
  const qm = s.queue_model;
  const ol = s.order_latency;
  // An explicit distribution means the user wants the model, unless they asked for recorded by name.
  const source = ol.source === 'auto' && (ol.entry !== undefined || ol.response !== undefined) ? 'model' : ol.source;
  const enabled = s.rate_limit.enabled && venueRateLimit?.enabled !== false;
  return {
    seed: s.seed,
    queueModel: { kind: qm.kind, n: qm.n, ...(qm.module !== undefined ? { module: resolve(baseDir, qm.module) } : {}), ...(qm.params !== undefined ? { params: qm.params } : {}), ...(qm.infer_hidden ? { inferHidden: true } : {}) },
    orderLatency: { entry: ol.entry ?? 5, response: ol.response ?? 5, source, entryShare: ol.entry_share },
    rateLimit: enabled
      ? { burst: s.rate_limit.burst ?? venueRateLimit?.burst ?? VENUE_RATE_LIMIT.burst, perSecond: s.rate_limit.per_second ?? venueRateLimit?.perSecond ?? VENUE_RATE_LIMIT.perSecond }
      : null,
    feedLatencyOffsetMs: s.feed.latency_offset_ms,
    reorderWindowMs: s.venue_time.reorder_window_ms,
    nettingWindowMs: s.venue_time.netting_window_ms,
    feedDepth: s.feed.depth,
    feedConflateMs: s.feed.conflate_ms,
    ...(s.feed.jitter_ms > 0 ? { feedJitterMs: s.feed.jitter_ms } : {}),
    ...(s.reaction.enabled ? { reaction: { probability: s.reaction.probability, delayMedianMs: s.reaction.delay_ms.median_ms, delaySigma: s.reaction.delay_ms.sigma, size: s.reaction.size } } : {}),
    fees: s.fees ?? fallbackFees ?? null,
    funding: s.funding,
    ownOrders: s.own_orders,
    rewards: {
      maxSpreadBps: s.rewards.max_spread_bps,
      minNotionalUsd: s.rewards.min_notional_usd,
      minRestMs: s.rewards.min_rest_ms,
      curve: s.rewards.curve,
      singleSidedDivisor: s.rewards.single_sided_divisor,
      poolUsdPerDay: s.rewards.pool_usd_per_day,
    },
    sampleMs: s.sample_ms,
    startMs: s.start_ms ?? null,
    endMs: s.end_ms ?? null,
  };
}

/** Settings with every default (tests, benches). */
export const defaultSettings = (overrides: Partial<BacktestSettings> = {}): BacktestSettings => ({
  ...toSettings(backtestSectionSchema.parse({})),
  ...overrides,
});
