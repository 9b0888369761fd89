import { midTicks, type Book } from '../domain/book.ts';
import type { QuoteLevel } from '../domain/intents.ts';

/** A distance from a price given either in ticks or in basis points of that price. */
export interface TickOrBps {
  readonly ticks?: number | undefined;
  readonly bps?: number | undefined;
}

/** Converts a tick-or-bps distance to ticks at `refTicks` (bps of the reference price). */
export const distanceTicks = (d: TickOrBps, refTicks: number, fallbackTicks: number): number =>
  d.ticks ?? (d.bps !== undefined ? (Math.abs(refTicks) * d.bps) / 10_000 : fallbackTicks);

/** Mid in (possibly half) ticks from the best levels, null when a side is empty. */
export function bookMid(book: Pick<Book, 'bids' | 'asks'> | null): number | null {
  return book === null ? null : (midTicks(book) ?? null);
}

/** Size-weighted mid ("microprice"): (Pb·Qa + Pa·Qb)/(Qa + Qb), in ticks; null when a side is empty. */
export function microprice(book: Pick<Book, 'bids' | 'asks'> | null): number | null {
  const b = book?.bids[0];
  const a = book?.asks[0];
  if (!b || !a) return null;
  const w = a.qty + b.qty;
  return w > 0 ? (b.priceTicks * a.qty + a.priceTicks * b.qty) / w : (a.priceTicks + b.priceTicks) / 2;
}

/**
 * Hummingbot-style inventory size multipliers (docs/strategy-models.md §4.3): with q the position minus
 * target and R the range in contracts, bid = clamp(1 − q/R, 0, 2), ask = 2 − bid. Flat → 1 and 1;
 * long R or more → bids 0, asks 2.
 */
export function inventorySizeMultipliers(q: number, rangeContracts: number): { readonly bid: number; readonly ask: number } {
  if (!(rangeContracts > 0)) return { bid: 1, ask: 1 };
  const bid = Math.min(2, Math.max(0, 1 - q / rangeContracts));
  return { bid, ask: 2 - bid };
}

/**
 * A ladder of `sizes.length` levels from `startTicks` stepping `spacingTicks` away from the touch
 * (down for bids, up for asks). Zero sizes are skipped; sizes below `minSize` are dropped; with
 * `capQty` the cumulative size stops at the cap (hard position cap).
 */
export function ladder(startTicks: number, spacingTicks: number, sizes: readonly number[], isBid: boolean, minSize = 1, capQty = Infinity): QuoteLevel[] {
  const out: QuoteLevel[] = [];
  const step = Math.max(1, Math.round(spacingTicks));
  let left = capQty;
  for (let i = 0; i < sizes.length && left > 0; i++) {
    const qty = Math.min(Math.floor(sizes[i]!), Math.floor(left));
    if (qty < Math.max(1, minSize)) continue;
    out.push({ priceTicks: isBid ? startTicks - i * step : startTicks + i * step, qty });
    left -= qty;
  }
  return out;
}

/** True when `levels` is what `ladder` would build from the same arguments (without building it). */
export function isLadder(levels: readonly QuoteLevel[], startTicks: number, spacingTicks: number, sizes: readonly number[], isBid: boolean, minSize = 1, capQty = Infinity): boolean {
  const step = Math.max(1, Math.round(spacingTicks));
  let left = capQty;
  let n = 0;
  for (let i = 0; i < sizes.length && left > 0; i++) {
    const qty = Math.min(Math.floor(sizes[i]!), Math.floor(left));
    if (qty < Math.max(1, minSize)) continue;
    const l = levels[n++];
    if (l === undefined || l.qty !== qty || l.priceTicks !== (isBid ? startTicks - i * step : startTicks + i * step)) return false;
    left -= qty;
  }
  return n === levels.length;
}
