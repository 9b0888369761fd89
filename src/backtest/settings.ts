import { backtestSectionSchema, type BacktestSection, type LatencyDist, QUEUE_MODEL_KINDS } from '../domain/backtest-section.ts';

export { backtestSectionSchema, type BacktestSection } from '../domain/backtest-section.ts';

/** Resolved settings the runner uses (plain data: it crosses worker_threads in sweeps). */
export interface BacktestSettings {
  readonly seed: number;
  readonly queueModel: { readonly kind: (typeof QUEUE_MODEL_KINDS)[number]; readonly n: number };
  readonly orderLatency: { readonly entry: LatencyDist; readonly response: LatencyDist };
  readonly feedLatencyOffsetMs: number;
  /** Book levels per side delivered to the engine; 'auto' = the deepest the strategies read. */
  readonly feedDepth: number | 'auto';
  readonly feedConflateMs: number;
  readonly fees: { readonly maker: number; readonly taker: number };
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

/** Sandbox fee rates (rules.md §7): maker 0, taker 2 bps. */
export const SANDBOX_FEES = Object.freeze({ maker: 0, taker: 0.0002 });

/** Maps the YAML section onto runner settings; `fallbackFees` is the bot's fee_rates when set. */
export function toSettings(s: BacktestSection, fallbackFees?: { maker: number; taker: number }): BacktestSettings {
  return {
    seed: s.seed,
    queueModel: { kind: s.queue_model.kind, n: s.queue_model.n },
    orderLatency: { entry: s.order_latency.entry, response: s.order_latency.response },
    feedLatencyOffsetMs: s.feed.latency_offset_ms,
    feedDepth: s.feed.depth,
    feedConflateMs: s.feed.conflate_ms,
    fees: s.fees ?? fallbackFees ?? SANDBOX_FEES,
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
