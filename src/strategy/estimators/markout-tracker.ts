/**
 * Fill markouts, streaming: how far the mid moved in our favour some time after each of our fills.
 *
 * markout(h) = side × (mid(t + h) − mid(t)) / mid(t) × 10⁴ bps, with side +1 for a buy and −1 for a
 * sell, mid(t) the mid at the fill and mid(t + h) the mid in force at that instant (the last update
 * at or before it). Positive is good for us: the market moved our way after we traded. The edge at
 * the fill, side × (mid(t) − price) / mid(t) × 10⁴, is kept apart: edge + markout(h) is the fill's
 * PnL marked at mid(t + h), in bps of mid(t). Pure (times come from the caller), O(1) amortised per
 * event: fills wait in one ring in time order, each horizon keeps a cursor into it, and a mid update
 * that passes no pending horizon costs one comparison.
 */

/** One matured markout, as `onMarkout` reports it. */
export interface Markout {
  /** Sequence number of the fill in this tracker (0, 1, 2... in `fill()` order). */
  readonly fillSeq: number;
  /** Index of the horizon in `horizonsMs`. */
  readonly horizonIdx: number;
  readonly horizonMs: number;
  /** +1 buy, −1 sell. */
  readonly side: 1 | -1;
  readonly bps: number;
  /** The fill's weight as given to `fill()`. */
  readonly weight: number;
}

/** Options of a `MarkoutTracker`. */
export interface MarkoutTrackerOptions {
  /** Horizons in ms, ascending, ≥ 0 (e.g. [1000, 10000, 60000]). */
  readonly horizonsMs: readonly number[];
  /** Markouts per horizon in the rolling mean (`recentMeanBps`), default 50. */
  readonly recentWindow?: number;
  /** Called once per fill and horizon as the markout matures. */
  readonly onMarkout?: (m: Markout) => void;
}

/** Weighted mean markouts of one horizon: overall and per side. */
export interface MarkoutStats {
  readonly horizonMs: number;
  /** Fills whose markout at this horizon has matured (overall / buys / sells). */
  readonly count: number;
  readonly buyCount: number;
  readonly sellCount: number;
  /** Weighted mean markout in bps (NaN when no fill has matured). */
  readonly meanBps: number;
  readonly buyMeanBps: number;
  readonly sellMeanBps: number;
  /** Σ weight and Σ weight × bps (to combine trackers, e.g. symbols into a total). */
  readonly weight: number;
  readonly weightedSumBps: number;
  readonly buyWeight: number;
  readonly buyWeightedSumBps: number;
  readonly sellWeight: number;
  readonly sellWeightedSumBps: number;
}

/** Per-horizon accumulators. */
interface Acc {
  n: number;
  nb: number;
  w: number;
  wm: number;
  wb: number;
  wmb: number;
  recentSum: number;
  recentN: number;
  recentAt: number;
  /** Σ weight and Σ weight × bps over the same window. */
  recentW: number;
  recentWm: number;
}

/** Streaming markout tracker for one instrument (see the file comment for the definition). */
export class MarkoutTracker {
  readonly horizonsMs: readonly number[];
  #mid = NaN;
  #lastFillMs = -Infinity;
  /** Ring of pending fills: time, side, reference mid, weight. Capacity is a power of two. */
  #t = new Float64Array(64);
  #side = new Int8Array(64);
  #ref = new Float64Array(64);
  #w = new Float64Array(64);
  #mask = 63;
  /** Absolute sequence numbers: the next fill's, and per horizon the next fill to mature. */
  #seq = 0;
  readonly #cursor: number[];
  readonly #acc: Acc[];
  readonly #recent: Float64Array[];
  readonly #recentWeight: Float64Array[];
  readonly #window: number;
  readonly #onMarkout: ((m: Markout) => void) | undefined;
  /** The earliest instant a pending markout matures (Infinity when none is pending). */
  #nextDue = Infinity;
  #edgeW = 0;
  #edgeWm = 0;

  constructor(options: MarkoutTrackerOptions) {
    const hs = options.horizonsMs;
    if (hs.length === 0) throw new RangeError('MarkoutTracker: at least one horizon is needed');
    for (let k = 0; k < hs.length; k++)
      if (!(hs[k]! >= 0) || !Number.isFinite(hs[k]!) || (k > 0 && hs[k]! <= hs[k - 1]!)) throw new RangeError(`MarkoutTracker: horizons must be finite, >= 0 and ascending (got ${hs.join(', ')})`);
    this.horizonsMs = [...hs];
    this.#window = Math.max(1, Math.floor(options.recentWindow ?? 50));
    this.#onMarkout = options.onMarkout;
    this.#cursor = hs.map(() => 0);
    this.#acc = hs.map(() => ({ n: 0, nb: 0, w: 0, wm: 0, wb: 0, wmb: 0, recentSum: 0, recentN: 0, recentAt: 0, recentW: 0, recentWm: 0 }));
    this.#recent = hs.map(() => new Float64Array(this.#window));
    this.#recentWeight = hs.map(() => new Float64Array(this.#window));
  }

  /** The earliest instant (ms) at which a pending markout matures; Infinity when none is pending. */
  get nextDueMs(): number {
    return this.#nextDue;
  }

  /** The last mid given (NaN before the first). */
  get mid(): number {
    return this.#mid;
  }

  /** Fills whose markouts have not all matured yet. */
  get pending(): number {
    return this.#seq - this.#cursor[this.#cursor.length - 1]!;
  }

  /** Fills given so far (with a usable reference mid). */
  get fills(): number {
    return this.#seq;
  }

  /**
   * The mid changed to `mid` at `tMs` (any price unit: ticks or USD; markouts are ratios). Every
   * markout due strictly before `tMs` matures on the previous mid first. NaN or ≤ 0 = no mid (an
   * empty book side): markouts due while there is no mid wait for the next valid one.
   */
  updateMid(tMs: number, mid: number): void {
    if (tMs > this.#nextDue) this.#mature(tMs);
    this.#mid = mid > 0 ? mid : NaN;
  }

  /**
   * Time moved to `tMs`: markouts due strictly before `tMs` mature. `midBefore`, when given, is the
   * mid in force just before `tMs` (it becomes the current mid). Callers that only read the mid when
   * they look (a book they do not follow change by change) call `advance(tMs, midNow)` only when
   * `tMs > nextDueMs`, before applying the changes at `tMs`, and give `fill()` its `refMid`: one
   * comparison per event, and the same markouts as following every change (each pending due instant
   * is at or after the previous look, so the book has not changed since it).
   */
  advance(tMs: number, midBefore?: number): void {
    if (midBefore !== undefined) this.#mid = midBefore > 0 ? midBefore : NaN;
    if (tMs > this.#nextDue) this.#mature(tMs);
  }

  /**
   * One of our fills at `tMs` (an earlier time than the previous fill's counts as that time). `refMid` is the mid at the fill
   * (default: the last `updateMid`); without a positive one the fill is not measured (returns
   * false). `weight` weighs the means (default 1; e.g. notional for a notional-weighted mean).
   */
  fill(tMs: number, side: 'buy' | 'sell' | 1 | -1, price: number, weight = 1, refMid: number = this.#mid): boolean {
    if (!(refMid > 0) || !(weight > 0)) return false;
    if (tMs < this.#lastFillMs) tMs = this.#lastFillMs;
    this.#lastFillMs = tMs;
    this.advance(tMs);
    const s: 1 | -1 = side === 'buy' || side === 1 ? 1 : -1;
    if (this.#seq - this.#cursor[this.#cursor.length - 1]! > this.#mask) this.#grow();
    const i = this.#seq & this.#mask;
    this.#t[i] = tMs;
    this.#side[i] = s;
    this.#ref[i] = refMid;
    this.#w[i] = weight;
    this.#seq++;
    if (price > 0) {
      this.#edgeW += weight;
      this.#edgeWm += weight * ((s * (refMid - price)) / refMid) * 1e4;
    }
    const due = tMs + this.horizonsMs[0]!;
    if (due < this.#nextDue) this.#nextDue = due;
    return true;
  }

  /** Weighted mean edge at the fill, side × (mid − price) / mid in bps, over every measured fill (NaN when none). */
  get edgeBps(): number {
    return this.#edgeW > 0 ? this.#edgeWm / this.#edgeW : NaN;
  }

  /** Σ weight of the fills behind `edgeBps`. */
  get edgeWeight(): number {
    return this.#edgeW;
  }

  /** Mean of the last `recentWindow` markouts (unweighted) at horizon `horizonIdx`, NaN when none matured yet. */
  recentMeanBps(horizonIdx = 0): number {
    const a = this.#acc[horizonIdx];
    if (!a || a.recentN === 0) return NaN;
    return a.recentSum / a.recentN;
  }

  /**
   * Weighted mean of the last `recentWindow` markouts at horizon `horizonIdx` (each fill's weight as
   * given to `fill()`, e.g. its size: the partial fills of one sweep then count as their total, not
   * as that many fills), NaN when none matured yet.
   */
  recentWeightedMeanBps(horizonIdx = 0): number {
    const a = this.#acc[horizonIdx];
    if (!a || a.recentN === 0 || !(a.recentW > 0)) return NaN;
    return a.recentWm / a.recentW;
  }

  /** Matured markouts at horizon `horizonIdx` so far (`stats(h).count`, without building the stats). */
  count(horizonIdx = 0): number {
    const a = this.#acc[horizonIdx];
    if (!a) throw new RangeError(`MarkoutTracker: no horizon #${horizonIdx}`);
    return a.n;
  }

  /** Matured markouts at horizon `horizonIdx` so far (overall and per side). */
  stats(horizonIdx: number): MarkoutStats {
    const a = this.#acc[horizonIdx];
    if (!a) throw new RangeError(`MarkoutTracker: no horizon #${horizonIdx}`);
    const ws = a.w - a.wb;
    const wms = a.wm - a.wmb;
    return {
      horizonMs: this.horizonsMs[horizonIdx]!,
      count: a.n,
      buyCount: a.nb,
      sellCount: a.n - a.nb,
      meanBps: a.w > 0 ? a.wm / a.w : NaN,
      buyMeanBps: a.wb > 0 ? a.wmb / a.wb : NaN,
      sellMeanBps: ws > 0 ? wms / ws : NaN,
      weight: a.w,
      weightedSumBps: a.wm,
      buyWeight: a.wb,
      buyWeightedSumBps: a.wmb,
      sellWeight: ws,
      sellWeightedSumBps: wms,
    };
  }

  /** Matures, horizon by horizon, every pending markout due strictly before `tMs` (when there is a mid). */
  #mature(tMs: number): void {
    const mid = this.#mid;
    if (!(mid > 0)) return; // no mid: wait for the next valid one
    let next = Infinity;
    for (let h = 0; h < this.horizonsMs.length; h++) {
      const hMs = this.horizonsMs[h]!;
      const acc = this.#acc[h]!;
      const recent = this.#recent[h]!;
      let c = this.#cursor[h]!;
      while (c < this.#seq) {
        const i = c & this.#mask;
        if (this.#t[i]! + hMs >= tMs) break;
        const s = this.#side[i]!;
        const ref = this.#ref[i]!;
        const w = this.#w[i]!;
        const bps = ((s * (mid - ref)) / ref) * 1e4;
        acc.n++;
        acc.w += w;
        acc.wm += w * bps;
        if (s > 0) {
          acc.nb++;
          acc.wb += w;
          acc.wmb += w * bps;
        }
        const rw = this.#recentWeight[h]!;
        if (acc.recentN === this.#window) {
          acc.recentSum -= recent[acc.recentAt]!;
          acc.recentW -= rw[acc.recentAt]!;
          acc.recentWm -= rw[acc.recentAt]! * recent[acc.recentAt]!;
        } else acc.recentN++;
        recent[acc.recentAt] = bps;
        rw[acc.recentAt] = w;
        acc.recentSum += bps;
        acc.recentW += w;
        acc.recentWm += w * bps;
        if (++acc.recentAt === this.#window) {
          // The running sums drift with float error over millions of updates: rebuild them once per window.
          acc.recentAt = 0;
          let sum = 0;
          let sw = 0;
          let swm = 0;
          for (let j = 0; j < recent.length; j++) {
            sum += recent[j]!;
            sw += rw[j]!;
            swm += rw[j]! * recent[j]!;
          }
          acc.recentSum = sum;
          acc.recentW = sw;
          acc.recentWm = swm;
        }
        if (this.#onMarkout) this.#onMarkout({ fillSeq: c, horizonIdx: h, horizonMs: hMs, side: s as 1 | -1, bps, weight: w });
        c++;
      }
      this.#cursor[h] = c;
      if (c < this.#seq) {
        const due = this.#t[c & this.#mask]! + hMs;
        if (due < next) next = due;
      }
    }
    this.#nextDue = next;
  }

  /** Doubles the ring, keeping pending fills at their sequence positions. */
  #grow(): void {
    const cap = (this.#mask + 1) * 2;
    const mask = cap - 1;
    const t = new Float64Array(cap);
    const side = new Int8Array(cap);
    const ref = new Float64Array(cap);
    const w = new Float64Array(cap);
    for (let c = this.#cursor[this.#cursor.length - 1]!; c < this.#seq; c++) {
      const a = c & this.#mask;
      const b = c & mask;
      t[b] = this.#t[a]!;
      side[b] = this.#side[a]!;
      ref[b] = this.#ref[a]!;
      w[b] = this.#w[a]!;
    }
    this.#t = t;
    this.#side = side;
    this.#ref = ref;
    this.#w = w;
    this.#mask = mask;
  }
}
