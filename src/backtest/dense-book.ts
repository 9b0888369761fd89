import { MmError } from '../core/errors.ts';
import type { BookLevel } from '../domain/book.ts';

/** Side index: bids 0, asks 1. */
export const BID = 0;
/** Side index: bids 0, asks 1. */
export const ASK = 1;

/** Largest price range (in ticks) a dense book allocates per side. */
const MAX_RANGE = 8_000_000;

/**
 * An L2 book over a fixed tick range as two dense quantity arrays: setting a level and reading the
 * best price are O(1) amortised, with no allocation, which is what the replay hot path needs. The
 * range comes from the recording (every price it contains is known before replay starts).
 */
export class DenseBook {
  readonly lo: number;
  readonly size: number;
  readonly bids: Float64Array;
  readonly asks: Float64Array;
  /** Index of the best bid, −1 when the side is empty. */
  bestBidIdx = -1;
  /** Index of the best ask, `size` when the side is empty. */
  bestAskIdx: number;
  /** Levels shown per side. */
  nBids = 0;
  nAsks = 0;
  /**
   * The last quantity each price showed before it was removed (a float32 estimate, 0 = never seen):
   * for orders joining at a level beyond the recorded depth (book-window.ts).
   */
  readonly lastBids: Float32Array;
  readonly lastAsks: Float32Array;

  /** @throws MmError RECORDING_INVALID when the price range is too wide for a dense book. */
  constructor(minTick: number, maxTick: number, padTicks = 0) {
    if (!Number.isFinite(minTick) || !Number.isFinite(maxTick) || maxTick < minTick) {
      minTick = 0;
      maxTick = 0;
    }
    this.lo = minTick - padTicks;
    this.size = maxTick - minTick + 1 + 2 * padTicks;
    if (this.size > MAX_RANGE) throw new MmError('RECORDING_INVALID', `price range of ${this.size} ticks is too wide to replay (max ${MAX_RANGE})`);
    this.bids = new Float64Array(this.size);
    this.asks = new Float64Array(this.size);
    this.lastBids = new Float32Array(this.size);
    this.lastAsks = new Float32Array(this.size);
    this.bestAskIdx = this.size;
  }

  /** Best bid in ticks, NaN when empty. */
  bestBid(): number {
    return this.bestBidIdx >= 0 ? this.lo + this.bestBidIdx : NaN;
  }

  /** Best ask in ticks, NaN when empty. */
  bestAsk(): number {
    return this.bestAskIdx < this.size ? this.lo + this.bestAskIdx : NaN;
  }

  /** Displayed quantity at a price (0 outside the range). */
  qty(side: number, priceTicks: number): number {
    const i = priceTicks - this.lo;
    if (i < 0 || i >= this.size) return 0;
    return side === BID ? this.bids[i]! : this.asks[i]!;
  }

  /** Sets a level (qty 0 removes it); prices outside the range are ignored. Returns the previous qty. */
  set(side: number, priceTicks: number, qty: number): number {
    const i = priceTicks - this.lo;
    if (i < 0 || i >= this.size) return 0;
    if (side === BID) {
      const prev = this.bids[i]!;
      this.bids[i] = qty;
      if (qty > 0) {
        if (prev === 0) this.nBids++;
        if (i > this.bestBidIdx) this.bestBidIdx = i;
      } else {
        if (prev > 0) {
          this.nBids--;
          this.lastBids[i] = prev;
        }
        if (i === this.bestBidIdx) {
          let j = i - 1;
          while (j >= 0 && this.bids[j] === 0) j--;
          this.bestBidIdx = j;
        }
      }
      return prev;
    }
    const prev = this.asks[i]!;
    this.asks[i] = qty;
    if (qty > 0) {
      if (prev === 0) this.nAsks++;
      if (i < this.bestAskIdx) this.bestAskIdx = i;
    } else {
      if (prev > 0) {
        this.nAsks--;
        this.lastAsks[i] = prev;
      }
      if (i === this.bestAskIdx) {
        let j = i + 1;
        while (j < this.size && this.asks[j] === 0) j++;
        this.bestAskIdx = j;
      }
    }
    return prev;
  }

  /** Empties both sides (before a snapshot). */
  clear(): void {
    // Only the occupied span needs zeroing; walking from the best prices outward bounds the work.
    for (let i = 0; i <= this.bestBidIdx; i++) if (this.bids[i]! > 0) this.lastBids[i] = this.bids[i]!;
    for (let i = this.bestAskIdx; i < this.size; i++) if (this.asks[i]! > 0) this.lastAsks[i] = this.asks[i]!;
    if (this.bestBidIdx >= 0) this.bids.fill(0, 0, this.bestBidIdx + 1);
    if (this.bestAskIdx < this.size) this.asks.fill(0, this.bestAskIdx);
    this.bestBidIdx = -1;
    this.bestAskIdx = this.size;
    this.nBids = 0;
    this.nAsks = 0;
  }

  /** The last quantity a price showed before it was removed (0 when never seen). */
  lastQty(side: number, priceTicks: number): number {
    const i = priceTicks - this.lo;
    if (i < 0 || i >= this.size) return 0;
    return side === BID ? this.lastBids[i]! : this.lastAsks[i]!;
  }

  /** How many levels of a side are strictly better than `priceTicks`, counting up to `cap`. */
  levelsBetter(side: number, priceTicks: number, cap: number): number {
    const k = priceTicks - this.lo;
    let n = 0;
    if (side === BID) {
      for (let i = this.bestBidIdx; i > k && i >= 0 && n < cap; i--) if (this.bids[i]! > 0) n++;
    } else {
      for (let i = this.bestAskIdx; i < k && i < this.size && n < cap; i++) if (this.asks[i]! > 0) n++;
    }
    return n;
  }


  /** Replaces the book with a snapshot from a columnar level pool: `levels[2j], levels[2j+1]` for j in [start, start + nb + na), bids first. */
  load(levels: Float64Array, start: number, nb: number, na: number): void {
    this.clear();
    for (let j = start, end = start + nb + na; j < end; j++) this.set(j - start < nb ? BID : ASK, levels[2 * j]!, levels[2 * j + 1]!);
  }

  /** The best `depth` levels of a side as BookLevels (allocates; for the engine feed, not the hot path). */
  levels(side: number, depth: number): BookLevel[] {
    const out: BookLevel[] = [];
    if (side === BID) {
      for (let i = this.bestBidIdx; i >= 0 && out.length < depth; i--) {
        const q = this.bids[i]!;
        if (q > 0) out.push({ priceTicks: this.lo + i, qty: q });
      }
    } else {
      for (let i = this.bestAskIdx; i < this.size && out.length < depth; i++) {
        const q = this.asks[i]!;
        if (q > 0) out.push({ priceTicks: this.lo + i, qty: q });
      }
    }
    return out;
  }
}
