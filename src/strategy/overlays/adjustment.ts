import type { DesiredQuotes, QuoteLevel } from '../../domain/intents.ts';
import type { StrategyContext } from '../contract.ts';

/**
 * What the overlays of one evaluation ask of the inner strategy's quotes, accumulated in config
 * order. Prices in ticks (fractional allowed), sizes as multipliers and floors in contracts.
 */
export interface QuoteAdjustment {
  /** Added to every price: a fair-value / reservation-price shift (negative = lower). */
  shiftTicks: number;
  /** Bids move down by this much (extra half-spread on the bid side). */
  bidWidenTicks: number;
  /** Asks move up by this much. */
  askWidenTicks: number;
  /** Multipliers on each side's sizes (≤ 1: overlays never add size beyond the inner strategy's). */
  bidSizeMult: number;
  askSizeMult: number;
  /** The best bid/ask may not end farther than this from the mid (ticks); Infinity = no limit. */
  maxBidDistanceTicks: number;
  maxAskDistanceTicks: number;
  /** Size floors per level in contracts (capped at the inner strategy's size). */
  minBidQty: number;
  minAskQty: number;
}

/** A neutral adjustment (changes nothing). */
export function neutralAdjustment(): QuoteAdjustment {
  return { shiftTicks: 0, bidWidenTicks: 0, askWidenTicks: 0, bidSizeMult: 1, askSizeMult: 1, maxBidDistanceTicks: Infinity, maxAskDistanceTicks: Infinity, minBidQty: 0, minAskQty: 0 };
}

/** Resets `a` to neutral in place (no allocation per evaluation). */
export function resetAdjustment(a: QuoteAdjustment): void {
  a.shiftTicks = 0;
  a.bidWidenTicks = 0;
  a.askWidenTicks = 0;
  a.bidSizeMult = 1;
  a.askSizeMult = 1;
  a.maxBidDistanceTicks = Infinity;
  a.maxAskDistanceTicks = Infinity;
  a.minBidQty = 0;
  a.minAskQty = 0;
}

/** Half the distance between the inner strategy's best bid and ask (ticks), NaN when a side is empty. */
export function innerHalfSpread(q: DesiredQuotes): number {
  const b = q.bids[0];
  const a = q.asks[0];
  return b && a ? (a.priceTicks - b.priceTicks) / 2 : Number.NaN;
}

/**
 * Applies an adjustment to the inner strategy's quotes: prices shift and widen (bids floor, asks
 * ceil), the best level is pulled back within the distance limits, sizes scale (floored to whole
 * contracts, never above the inner size, at least the floors), levels below the minimum order size
 * are dropped, and the result stays post-only (bids below the best ask, asks above the best bid,
 * strictly ordered). Total size per side never exceeds the inner strategy's, so its position cap
 * still holds. Pure; when the result equals `last` (same symbol, prices and sizes), `last` itself is
 * returned and nothing is allocated (most evaluations leave the quotes as they were).
 */
export function applyAdjustment(ctx: Pick<StrategyContext, 'book' | 'instrument'>, inner: DesiredQuotes, a: QuoteAdjustment, last: DesiredQuotes | null = null): DesiredQuotes {
  const bb = ctx.book?.bids[0]?.priceTicks;
  const ba = ctx.book?.asks[0]?.priceTicks;
  const mid = bb !== undefined && ba !== undefined ? (bb + ba) / 2 : Number.NaN;
  const minSize = Math.max(1, ctx.instrument.minOrderSize);
  const nb = side(inner.bids, true, a.shiftTicks - a.bidWidenTicks, a.bidSizeMult, a.minBidQty, Number.isNaN(mid) ? -Infinity : mid - a.maxBidDistanceTicks, ba, minSize, bidScratch);
  const na = side(inner.asks, false, a.shiftTicks + a.askWidenTicks, a.askSizeMult, a.minAskQty, Number.isNaN(mid) ? Infinity : mid + a.maxAskDistanceTicks, bb, minSize, askScratch);
  if (last !== null && last.symbol === inner.symbol && sameSide(last.bids, bidScratch, nb) && sameSide(last.asks, askScratch, na)) return last;
  return { symbol: inner.symbol, bids: levelsOf(bidScratch, nb), asks: levelsOf(askScratch, na) };
}

/** Price/size pairs of one side being built (grown as needed; one evaluation at a time). */
let bidScratch: Float64Array = new Float64Array(64);
let askScratch: Float64Array = new Float64Array(64);

function sameSide(levels: readonly QuoteLevel[], s: Float64Array, n: number): boolean {
  if (levels.length !== n) return false;
  for (let i = 0; i < n; i++) if (levels[i]!.priceTicks !== s[2 * i] || levels[i]!.qty !== s[2 * i + 1]) return false;
  return true;
}

function levelsOf(s: Float64Array, n: number): QuoteLevel[] {
  const out: QuoteLevel[] = [];
  for (let i = 0; i < n; i++) out.push({ priceTicks: s[2 * i]!, qty: s[2 * i + 1]! });
  return out;
}

/** Writes the adjusted levels of one side into `out` as (price, size) pairs; returns how many. */
function side(levels: readonly QuoteLevel[], isBid: boolean, moveTicks: number, mult: number, floorQty: number, limit: number, opposite: number | undefined, minSize: number, out: Float64Array): number {
  if (out.length < 2 * levels.length) {
    out = new Float64Array(4 * levels.length);
    if (isBid) bidScratch = out;
    else askScratch = out;
  }
  let n = 0;
  let prev = Number.NaN;
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    let px = isBid ? Math.floor(l.priceTicks + moveTicks + 1e-9) : Math.ceil(l.priceTicks + moveTicks - 1e-9);
    // A best level the inner strategy placed within the limit is held there; deeper ones follow.
    if (i === 0 && (isBid ? l.priceTicks >= limit : l.priceTicks <= limit)) px = isBid ? Math.max(px, Math.ceil(limit - 1e-9)) : Math.min(px, Math.floor(limit + 1e-9));
    if (opposite !== undefined) px = isBid ? Math.min(px, opposite - 1) : Math.max(px, opposite + 1);
    if (!Number.isNaN(prev)) px = isBid ? Math.min(px, prev - 1) : Math.max(px, prev + 1);
    const qty = Math.min(l.qty, Math.max(Math.floor(l.qty * mult), Math.floor(floorQty)));
    if (qty < minSize) continue;
    out[2 * n] = px;
    out[2 * n + 1] = qty;
    n++;
    prev = px;
  }
  return n;
}
