/**
 * The run's settings as report.json and report.html show them: snake_case keys like the config's
 * `backtest:` section (the runner's settings are camelCase), and plain words for people.
 */
import { basename } from 'node:path';
import type { LatencyDist } from '../domain/backtest-section.ts';
import type { BacktestSettings } from './settings.ts';

/** report.json `settings`: the resolved settings, keys as the config spells them. */
export interface SettingsReport {
  readonly seed: number;
  /** `params` (a queue-model module's own) are echoed as the config gives them. */
  readonly queue_model: { readonly kind: string; readonly n: number; readonly module?: string; readonly params?: Readonly<Record<string, unknown>> };
  readonly order_latency: { readonly entry: LatencyDist; readonly response: LatencyDist; readonly source: string; readonly entry_share: number | null };
  readonly rate_limit: { readonly burst: number; readonly per_second: number } | null;
  readonly feed: { readonly latency_offset_ms: number; readonly depth: number | 'auto'; readonly conflate_ms: number; readonly jitter_ms?: number };
  readonly venue_time: { readonly reorder_window_ms: number; readonly netting_window_ms: number };
  /** The competitor reaction model, only when on (absent: the recorded book never answers us). */
  readonly reaction?: { readonly probability: number; readonly delay_ms: { readonly median_ms: number; readonly sigma: number }; readonly size: number };
  readonly fees: { readonly maker: number; readonly taker: number } | null;
  readonly funding: string;
  readonly own_orders: string;
  readonly rewards: { readonly max_spread_bps: number; readonly min_notional_usd: number; readonly min_rest_ms: number; readonly curve: string; readonly single_sided_divisor: number; readonly pool_usd_per_day: number };
  readonly sample_ms: number;
  readonly start_ms: number | null;
  readonly end_ms: number | null;
}

/** Maps the runner's settings onto report.json's snake_case `settings`. */
export function settingsReport(s: BacktestSettings): SettingsReport {
  const q = s.queueModel;
  const r = s.rewards;
  return {
    seed: s.seed,
    queue_model: { kind: q.kind, n: q.n, ...(q.module !== undefined ? { module: q.module } : {}), ...(q.params !== undefined ? { params: q.params } : {}) },
    order_latency: { entry: s.orderLatency.entry, response: s.orderLatency.response, source: s.orderLatency.source ?? 'model', entry_share: s.orderLatency.entryShare ?? null },
    rate_limit: s.rateLimit ? { burst: s.rateLimit.burst, per_second: s.rateLimit.perSecond } : null,
    // Jitter and reaction only when on, so the reports of runs without them read as before.
    feed: { latency_offset_ms: s.feedLatencyOffsetMs, depth: s.feedDepth, conflate_ms: s.feedConflateMs, ...(s.feedJitterMs ? { jitter_ms: s.feedJitterMs } : {}) },
    venue_time: { reorder_window_ms: s.reorderWindowMs, netting_window_ms: s.nettingWindowMs },
    ...(s.reaction ? { reaction: { probability: s.reaction.probability, delay_ms: { median_ms: s.reaction.delayMedianMs, sigma: s.reaction.delaySigma }, size: s.reaction.size } } : {}),
    fees: s.fees ? { maker: s.fees.maker, taker: s.fees.taker } : null,
    funding: s.funding,
    own_orders: s.ownOrders,
    rewards: { max_spread_bps: r.maxSpreadBps, min_notional_usd: r.minNotionalUsd, min_rest_ms: r.minRestMs, curve: r.curve, single_sided_divisor: r.singleSidedDivisor, pool_usd_per_day: r.poolUsdPerDay },
    sample_ms: s.sampleMs,
    start_ms: s.startMs,
    end_ms: s.endMs,
  };
}

/** Counters keyed by kind (`cancel-all`) with snake_case keys (`cancel_all`). */
export const snakeKeys = (o: Readonly<Record<string, number>>): Record<string, number> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/-/g, '_'), v]));

/** One latency leg in words: "5 ms", "uniform 2–8 ms", "lognormal median 5 ms σ 0.5", "1.5 × feed latency + 2 ms". */
export function latencyText(d: LatencyDist): string {
  if (typeof d === 'number') return `${d} ms`;
  if ('uniform' in d) return `uniform ${d.uniform[0]}–${d.uniform[1]} ms`;
  if ('lognormal' in d) return `lognormal median ${d.lognormal.median_ms} ms σ ${d.lognormal.sigma}`;
  return `${d.feed_multiple.multiplier} × feed latency${d.feed_multiple.offset_ms ? ` + ${d.feed_multiple.offset_ms} ms` : ''}`;
}

/** The order-latency model in words: "entry 5 ms, response lognormal median 5 ms σ 0.5", or the recorded round trips. */
export function orderLatencyText(s: BacktestSettings, used: 'recorded' | 'model', roundTrips: number): string {
  if (used === 'recorded') return `recorded: ${roundTrips} round trips of the recording, ${Math.round((s.orderLatency.entryShare ?? 0.5) * 100)}% of each on the way in`;
  return `entry ${latencyText(s.orderLatency.entry)}, response ${latencyText(s.orderLatency.response)}`;
}

/** The queue model in words: "risk-averse", "power(2)", "module ahead-share.ts (name)", "l3-fifo (order-level recording)". */
export function queueModelText(s: BacktestSettings, name: string, l3: boolean): string {
  if (l3) return 'l3-fifo (order-level recording)';
  const q = s.queueModel;
  return q.kind === 'module' && q.module !== undefined ? `module ${basename(q.module)} (${name})` : name;
}
