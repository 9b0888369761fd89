import { Decimal } from '../core/decimal.ts';
import type { Side } from './enums.ts';

/**
 * The market-maker liquidity program's scoring model (docs/venue-rules.md §12.3, an inferred model with every
 * parameter configurable). Pure: the venue simulator scores every account with it, and the bot's
 * reward tracker estimates its own share with the same functions.
 *
 * Scores use floats (they are relative weights, never money); payouts use Decimal.
 */

/** How an order's score decays with its distance from the mid. */
export type ScoreCurve = 'quadratic' | 'dydx' | 'exp';

/** Every knob of the per-minute score and the epoch payout. */
export interface RewardScoreParams {
  /** Maximum qualifying distance from the mid, in bps of the mid. */
  readonly maxSpreadBps: number;
  /** Minimum USD notional of a single order to count. */
  readonly minNotionalUsd: number;
  /** Minimum time an order must have rested before the sample, in ms. */
  readonly minRestMs: number;
  /** Distance weighting: quadratic ((v−d)/v)², dydx 1/d, exp e^(−k·d_bps). */
  readonly curve: ScoreCurve;
  /** Decay constant per bp for the `exp` curve. */
  readonly expKPerBps: number;
  /** Floor on d for the `dydx` curve, in bps (avoids 1/0 at the mid). */
  readonly dydxMinBps: number;
  /** Divisor c for one-sided quoting: Q = max(min(Qb,Qa), max(Qb,Qa)/c). */
  readonly singleSidedDivisor: number;
  /** Exponent on uptime (fraction of scored minutes with Q > 0); 1 = linear (the default model). */
  readonly uptimeExponent: number;
}

/** Defaults of docs/venue-rules.md §12.3. */
export const DEFAULT_REWARD_SCORE_PARAMS: RewardScoreParams = Object.freeze({
  maxSpreadBps: 50,
  minNotionalUsd: 100,
  minRestMs: 3_000,
  curve: 'quadratic',
  expKPerBps: 0.1,
  dydxMinBps: 0.1,
  singleSidedDivisor: 3,
  uptimeExponent: 1,
});

/** One resting order as seen at the sample instant. */
export interface ScoredOrder {
  readonly accountId: string;
  readonly side: Side;
  /** Limit price in quote units (USD). */
  readonly price: number;
  /** Remaining quantity in contracts. */
  readonly qty: number;
  /** Contract multiplier (1 on this venue). */
  readonly multiplier: number;
  /** How long the order has rested at its current price, in ms. */
  readonly restedMs: number;
}

/** One account's score for one minute. */
export interface AccountMinuteScore {
  readonly qBid: number;
  readonly qAsk: number;
  /** The combined score Q(a). */
  readonly q: number;
  /** Q(a) / Σ Q over all accounts (0 when nobody scores). */
  readonly share: number;
}

/** The score a single order contributes: N × f(d), or 0 when it does not qualify. */
export function orderScore(order: ScoredOrder, mid: number, p: RewardScoreParams): number {
  if (!(mid > 0) || order.qty <= 0 || order.restedMs < p.minRestMs) return 0;
  const notionalUsd = order.price * order.qty * order.multiplier;
  if (notionalUsd < p.minNotionalUsd) return 0;
  const dBps = (Math.abs(order.price - mid) / mid) * 1e4;
  if (dBps > p.maxSpreadBps + 1e-9) return 0;
  return notionalUsd * distanceWeight(dBps, p);
}

/** f(d) for a distance in bps, per the configured curve. */
export function distanceWeight(dBps: number, p: RewardScoreParams): number {
  switch (p.curve) {
    case 'quadratic': {
      const x = (p.maxSpreadBps - dBps) / p.maxSpreadBps;
      return x > 0 ? x * x : 0;
    }
    case 'dydx':
      // 1/d with d as a fraction of the mid, as in dYdX's worked example.
      return 1 / (Math.max(dBps, p.dydxMinBps) / 1e4);
    case 'exp':
      return Math.exp(-p.expKPerBps * dBps);
  }
}

/** Combines the two sides: two-sided → min; one-sided → max(min, max/c). */
export function combineSides(qBid: number, qAsk: number, p: RewardScoreParams): number {
  const lo = Math.min(qBid, qAsk);
  const hi = Math.max(qBid, qAsk);
  return lo > 0 ? lo : Math.max(lo, hi / p.singleSidedDivisor);
}

/**
 * Scores one minute sample for every account that has orders (docs/venue-rules.md §12.3). Accounts absent
 * from the result scored nothing. Returns an empty map when there is no mid.
 */
export function scoreMinute(
  orders: Iterable<ScoredOrder>,
  mid: number | undefined,
  p: RewardScoreParams,
): Map<string, AccountMinuteScore> {
  const sides = new Map<string, { b: number; a: number }>();
  if (mid === undefined || !(mid > 0)) return new Map();
  for (const o of orders) {
    const s = orderScore(o, mid, p);
    let acc = sides.get(o.accountId);
    if (!acc) {
      acc = { b: 0, a: 0 };
      sides.set(o.accountId, acc);
    }
    if (o.side === 'buy') acc.b += s;
    else acc.a += s;
  }
  let total = 0;
  const qs = new Map<string, { b: number; a: number; q: number }>();
  for (const [id, { b, a }] of sides) {
    const q = combineSides(b, a, p);
    total += q;
    qs.set(id, { b, a, q });
  }
  const out = new Map<string, AccountMinuteScore>();
  for (const [id, { b, a, q }] of qs) out.set(id, { qBid: b, qAsk: a, q, share: total > 0 ? q / total : 0 });
  return out;
}

/** One scored minute: the per-account shares and the minute's bonus weight. */
export interface ScoredMinute {
  readonly weight: number;
  readonly shares: ReadonlyMap<string, number>;
}

/**
 * Per-account epoch share: Σ w·share / Σ w over the scored minutes, times uptime^(exponent − 1)
 * (so exponent 1 keeps uptime linear, as in §12.3). Result values lie in [0, 1].
 */
export function epochShares(minutes: readonly ScoredMinute[], p: Pick<RewardScoreParams, 'uptimeExponent'>): Map<string, number> {
  const acc = new EpochScoreAccumulator();
  for (const m of minutes) acc.add(m.weight, m.shares);
  return acc.shares(p);
}

/**
 * Running sums for one (symbol, epoch): Σ w, Σ w·share and uptime counts per account, so an epoch
 * of minutes needs no per-minute storage. `shares()` gives the same result as `epochShares`.
 */
export class EpochScoreAccumulator {
  #wSum = 0;
  #minutes = 0;
  readonly #acc = new Map<string, { ws: number; up: number }>();

  /** Adds one scored minute (its bonus weight and per-account shares). */
  add(weight: number, shares: ReadonlyMap<string, number>): void {
    this.#wSum += weight;
    this.#minutes += 1;
    for (const [id, share] of shares) {
      let a = this.#acc.get(id);
      if (!a) {
        a = { ws: 0, up: 0 };
        this.#acc.set(id, a);
      }
      a.ws += weight * share;
      if (share > 0) a.up += 1;
    }
  }

  /** Number of scored minutes so far. */
  get minutes(): number {
    return this.#minutes;
  }

  /** Per-account epoch shares in [0, 1] (see `epochShares`). */
  shares(p: Pick<RewardScoreParams, 'uptimeExponent'>): Map<string, number> {
    const out = new Map<string, number>();
    if (this.#wSum <= 0 || this.#minutes === 0) return out;
    for (const [id, { ws, up }] of this.#acc) {
      const uptime = up / this.#minutes;
      const adj = p.uptimeExponent === 1 ? 1 : Math.pow(uptime, p.uptimeExponent - 1);
      out.set(id, Math.min(1, Math.max(0, (ws / this.#wSum) * adj)));
    }
    return out;
  }
}

/** One account's payout after the cap. */
export interface CappedPayout {
  readonly raw: Decimal;
  readonly capAdjustment: Decimal;
  readonly final: Decimal;
}

/**
 * Applies a per-account cap by water-filling: any account above the cap is set to the cap and the
 * excess is redistributed pro rata by share among the uncapped accounts, repeated until nobody
 * exceeds the cap. Excess nobody can absorb stays with the exchange. `capUsd` null = no cap.
 */
export function waterFillCap(
  shares: ReadonlyMap<string, number>,
  poolUsd: Decimal,
  capUsd: Decimal | null,
): Map<string, CappedPayout> {
  const raw = new Map<string, Decimal>();
  for (const [id, s] of shares) raw.set(id, poolUsd.mul(s));
  const final = new Map<string, Decimal>(raw);
  if (capUsd !== null) {
    const capped = new Set<string>();
    for (let guard = 0; guard <= shares.size; guard++) {
      let excess = new Decimal(0);
      for (const [id, v] of final) {
        if (!capped.has(id) && v.gt(capUsd)) {
          excess = excess.plus(v.minus(capUsd));
          final.set(id, capUsd);
          capped.add(id);
        }
      }
      if (excess.lte(0)) break;
      let weight = 0;
      for (const [id, s] of shares) if (!capped.has(id)) weight += s;
      if (weight <= 0) break;
      for (const [id, s] of shares) {
        if (capped.has(id) || s <= 0) continue;
        final.set(id, final.get(id)!.plus(excess.mul(s / weight)));
      }
    }
  }
  const out = new Map<string, CappedPayout>();
  for (const [id, r] of raw) {
    const f = final.get(id)!;
    out.set(id, { raw: r, capAdjustment: f.minus(r), final: f });
  }
  return out;
}

/** The cap in USD from a percent of the pool and/or an absolute amount (the tighter wins; null = none). */
export function capUsdFor(poolUsd: Decimal, capPct: number | null, capAbsUsd: number | null): Decimal | null {
  const caps: Decimal[] = [];
  if (capPct !== null) caps.push(poolUsd.mul(capPct).div(100));
  if (capAbsUsd !== null) caps.push(new Decimal(capAbsUsd));
  return caps.length === 0 ? null : Decimal.min(...caps);
}
