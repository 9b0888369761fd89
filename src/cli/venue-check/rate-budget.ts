/**
 * The rate-budget check: can the configured execution budgets send order requests faster than the
 * venue's per-user budget allows? The venue publishes no limit; mmbot assumes the per-user token
 * bucket of Architect's other API (burst 100, 10 requests/s, shared by REST and WebSocket order
 * requests and by every process on the same user), which the local venue also enforces.
 */
import type { Endpoint, RateBudget } from '../../execution/config.ts';

/** A token bucket's size and refill, requests and requests per second. */
export interface BucketLimit {
  readonly capacity: number;
  readonly refillPerSec: number;
}

/** The per-user budget mmbot assumes for the venue. */
export const VENUE_USER_BUDGET: BucketLimit = Object.freeze({ capacity: 100, refillPerSec: 10 });

const ORDER_ENTRY: readonly Endpoint[] = ['place', 'replace', 'cancel', 'cancel-all'];

/**
 * The most order requests the budgets can let through: per budget, its burst and rate divided by
 * its cheapest order-entry cost, summed over budgets (disjoint buckets add up; shared ones only
 * make this an upper bound).
 * @throws Error naming an order-entry endpoint that no budget charges (it would be unlimited).
 */
export function orderEntryCeiling(budgets: readonly RateBudget[]): BucketLimit {
  for (const e of ORDER_ENTRY) {
    if (!budgets.some((b) => (b.costs[e] ?? 0) > 0)) throw new Error(`no execution budget charges "${e}": order entry would be unlimited (add it to execution.budgets[].costs)`);
  }
  let capacity = 0;
  let refillPerSec = 0;
  for (const b of budgets) {
    const costs = ORDER_ENTRY.map((e) => b.costs[e] ?? 0).filter((c) => c > 0);
    if (costs.length === 0) continue;
    const cheapest = Math.min(...costs);
    capacity += b.capacity / cheapest;
    refillPerSec += b.refillPerSec / cheapest;
  }
  return { capacity, refillPerSec };
}

/**
 * Resolves to a one-line verdict when the budgets fit under `venue` (null: a venue without a limit).
 * @throws Error naming the burst or rate that exceeds the venue's.
 */
export function checkRateBudget(budgets: readonly RateBudget[], venue: BucketLimit | null = VENUE_USER_BUDGET): string {
  const c = orderEntryCeiling(budgets);
  const names = budgets.map((b) => b.name).join(', ');
  if (venue === null) return `order entry at most ${fmt(c.refillPerSec)}/s, burst ${fmt(c.capacity)} (budgets ${names}); the venue sets no limit`;
  if (c.refillPerSec > venue.refillPerSec) {
    throw new Error(`budgets (${names}) allow ${fmt(c.refillPerSec)} order requests/s, over the venue's ${fmt(venue.refillPerSec)}/s per user: lower execution.budgets[].refill_per_sec`);
  }
  if (c.capacity > venue.capacity) {
    throw new Error(`budgets (${names}) allow bursts of ${fmt(c.capacity)} order requests, over the venue's ${fmt(venue.capacity)} per user: lower execution.budgets[].capacity`);
  }
  return `order entry at most ${fmt(c.refillPerSec)}/s, burst ${fmt(c.capacity)} (budgets ${names}); venue per user ${fmt(venue.refillPerSec)}/s, burst ${fmt(venue.capacity)}`;
}

const fmt = (n: number): string => String(Math.round(n * 100) / 100);
