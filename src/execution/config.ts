/**
 * Execution budgets as data (style.md §12). Every request the engine makes to the venue is an
 * "endpoint" with a cost in one or more token buckets; buckets refill on the injected clock.
 * Defaults stay under the venue's per-user bucket (docs/venue-rules.md §10: burst 100, 10/s shared across REST
 * and WS order requests) so a reconnect storm or a second process never trips a 429.
 */
import { DEFAULT_ADAPTIVE_RATE_CONFIG, type AdaptiveRateConfig } from './adaptive-rate.ts';

/**
 * What a request is, for budgets, priorities and counters. Order entry: cancel-all, cancel,
 * replace, place. Reads: status (an order's outcome), open-orders (reconciliation), fills (fees,
 * missed fills), positions (start-up and the position check), funding (rates and payments),
 * rewards (reward accruals), prices (index prices).
 */
export type Endpoint = 'cancel' | 'cancel-all' | 'replace' | 'place' | 'status' | 'open-orders' | 'fills' | 'positions' | 'funding' | 'rewards' | 'prices';

/** Every endpoint, in priority order (most urgent first): cancels, then places/replaces, then reads. */
export const ENDPOINTS: readonly Endpoint[] = ['cancel-all', 'cancel', 'replace', 'place', 'status', 'open-orders', 'fills', 'positions', 'funding', 'rewards', 'prices'];

/** A read endpoint (everything that is not order entry). */
export type ReadEndpoint = Exclude<Endpoint, 'cancel' | 'cancel-all' | 'replace' | 'place'>;

/** The read endpoints (everything that is not order entry). */
export const READ_ENDPOINTS: ReadonlySet<Endpoint> = new Set(['status', 'open-orders', 'fills', 'positions', 'funding', 'rewards', 'prices']);

/** One token bucket: `capacity` tokens, refilled continuously at `refillPerSec`. */
export interface RateBudget {
  readonly name: string;
  readonly capacity: number;
  readonly refillPerSec: number;
  /** Tokens each endpoint takes from this bucket; endpoints not listed do not use it. */
  readonly costs: Readonly<Partial<Record<Endpoint, number>>>;
}

/** The execution adapter's configuration. */
export interface ExecutionConfig {
  readonly budgets: readonly RateBudget[];
  /** Max queued (not yet sent) requests; beyond it the lowest-priority newest request is dropped. */
  readonly maxQueue: number;
  /** Max requests awaiting a reply at once. */
  readonly maxInFlight: number;
  /** AIMD control of every budget's rate and burst from the venue's 429s (adaptive-rate.ts). */
  readonly adaptive: AdaptiveRateConfig;
  /**
   * Reads wait behind order entry; one that has waited this long (ms) goes ahead of places and
   * replaces (never of cancels), so a saturated order flow delays reads but never starves them.
   */
  readonly readMaxWaitMs: number;
}

/**
 * Default budget: one shared bucket, burst 20, 8 requests/s (80% of the venue's 10/s). Every
 * request the daemon makes costs 1 token: order entry and every read (a venue may count reads
 * against the same limit, and a read sent outside the budget can cost an order a 429).
 */
export const DEFAULT_ORDER_BUDGET: RateBudget = Object.freeze({
  name: 'user-orders',
  capacity: 20,
  refillPerSec: 8,
  costs: Object.freeze({ cancel: 1, 'cancel-all': 1, replace: 1, place: 1, status: 1, 'open-orders': 1, fills: 1, positions: 1, funding: 1, rewards: 1, prices: 1 }),
});

/** Default execution configuration. */
export const DEFAULT_EXECUTION_CONFIG: ExecutionConfig = Object.freeze({
  budgets: Object.freeze([DEFAULT_ORDER_BUDGET]),
  maxQueue: 256,
  maxInFlight: 32,
  adaptive: DEFAULT_ADAPTIVE_RATE_CONFIG,
  readMaxWaitMs: 10_000,
});
