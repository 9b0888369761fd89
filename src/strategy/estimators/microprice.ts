import { Ewma } from './ewma.ts';

/**
 * Online microprice (after Stoikov 2018): fair = mid + g(I, s), where I = Q_b/(Q_b + Q_a) is the
 * touch imbalance and s the spread (1 tick or wider), and g is learned as the average change of the
 * mid over the next `horizonMs` given the imbalance bucket and spread class at the start. Until a
 * bucket has `minSamples` observations, the size-weighted mid (P_b·Q_a + P_a·Q_b)/(Q_b + Q_a) is
 * used instead. The mid is sampled once per `horizonMs` step; O(1) per update, no allocation.
 */
export class MicropriceEstimator {
  readonly #buckets: number;
  readonly #adj: Ewma[];
  #lastBucket = -1;
  #lastMid = Number.NaN;
  #lastMs = Number.NaN;

  /**
   * @param horizonMs prediction horizon and sampling step (engine ms)
   * @param halfLifeMs half-life of each bucket's average (engine ms)
   * @param imbalanceBuckets number of imbalance buckets (per spread class)
   * @param minSamples observations before a bucket's learnt adjustment is used
   */
  constructor(readonly horizonMs = 1000, halfLifeMs = 3_600_000, imbalanceBuckets = 5, readonly minSamples = 30) {
    if (!(horizonMs > 0)) throw new RangeError(`microprice horizon must be positive, got ${horizonMs} ms`);
    this.#buckets = Math.max(1, Math.floor(imbalanceBuckets));
    this.#adj = Array.from({ length: this.#buckets * 2 }, () => new Ewma(halfLifeMs));
  }

  #bucket(bidQty: number, askQty: number, spreadTicks: number): number {
    const w = bidQty + askQty;
    const imb = w > 0 ? bidQty / w : 0.5;
    const i = Math.min(this.#buckets - 1, Math.floor(imb * this.#buckets));
    return (spreadTicks > 1 ? this.#buckets : 0) + i;
  }

  /** Feeds the touch (ticks, contracts) at `nowMs`. */
  update(bidTicks: number, bidQty: number, askTicks: number, askQty: number, nowMs: number): void {
    if (!(askTicks > bidTicks)) return;
    const mid = (bidTicks + askTicks) / 2;
    if (!Number.isNaN(this.#lastMs) && nowMs - this.#lastMs < this.horizonMs) return;
    if (this.#lastBucket >= 0) this.#adj[this.#lastBucket]!.update(mid - this.#lastMid, nowMs);
    this.#lastBucket = this.#bucket(bidQty, askQty, askTicks - bidTicks);
    this.#lastMid = mid;
    this.#lastMs = nowMs;
  }

  /** The microprice in ticks for the given touch (learnt adjustment, or the size-weighted mid). */
  value(bidTicks: number, bidQty: number, askTicks: number, askQty: number): number {
    const mid = (bidTicks + askTicks) / 2;
    const e = this.#adj[this.#bucket(bidQty, askQty, askTicks - bidTicks)]!;
    if (e.weight >= this.minSamples) {
      // The learnt drift is bounded by the half-spread: the fair value stays inside the touch.
      const half = (askTicks - bidTicks) / 2;
      return mid + Math.max(-half, Math.min(half, e.value));
    }
    const w = bidQty + askQty;
    return w > 0 ? (bidTicks * askQty + askTicks * bidQty) / w : mid;
  }
}
