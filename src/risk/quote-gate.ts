import { truncate } from '../core/arrays.ts';
import type { QuoteLevel } from '../domain/intents.ts';
import type { SymbolRiskLimits } from './config.ts';
import { positionRoom } from './position-room.ts';
import type { TradingState } from './trading-state.ts';

/**
 * What the risk gate needs to know about a symbol right now. Numbers only: this runs on every
 * market event, so it avoids Decimal (limits are comparisons, not accounting).
 */
export interface RiskView {
  /** Signed position in contracts. */
  readonly position: number;
  /** Effective trading state (engine, symbol and instrument combined). */
  readonly tradingState: TradingState;
  /** Inclusive band limits in ticks from the ticker, null when unknown. */
  readonly bandLowerTicks: number | null;
  readonly bandUpperTicks: number | null;
  /**
   * The price quotes must stay near, in (fractional) ticks: the venue's mark, else its index, else
   * the last sane mid (`MdSanity.referenceTicks`); null before any price is known.
   */
  readonly referenceTicks: number | null;
  /** Exposure of orders that will stay out there whatever we quote (pending cancel, unknown outcome). */
  readonly lingeringBuyQty: number;
  readonly lingeringSellQty: number;
  readonly lingeringOrders: number;
  /** USD notional of one contract per tick of price (tick size × multiplier). */
  readonly usdPerTickContract: number;
  readonly minOrderSize: number;
}

/** Desired ladders after the gate, and why anything was cut (rule names, deduplicated). */
export interface GatedQuotes {
  readonly bids: readonly QuoteLevel[];
  readonly asks: readonly QuoteLevel[];
  readonly reasons: readonly string[];
}

const EMPTY: readonly QuoteLevel[] = Object.freeze([]);
const NO_REASONS: readonly string[] = Object.freeze([]);
/** Reasons collected during one gateQuotes call (it is pure and never re-entered): copied out only when any. */
const scratch: string[] = [];

/**
 * Applies the pre-trade limits to a desired ladder: trading state (HALTED drops all, REDUCING keeps
 * only the side that shrinks |position|, capped at the position and at max position), malformed levels (a price that is
 * not a positive finite number or a quantity that is not finite: dropped, `invalid-level`), the
 * fat-finger band around the reference price (`fat-finger`), the venue's price band, max order size and
 * notional (clipped), max position counting lingering in-flight orders (levels clipped best-first),
 * and max open orders (worst levels dropped, alternating sides). Pure. With `out` the result is
 * written there and returned (the engine's hot path reuses one), else a new object.
 */
export function gateQuotes(bids: readonly QuoteLevel[], asks: readonly QuoteLevel[], v: RiskView, limits: SymbolRiskLimits, out?: MutableGatedQuotes): GatedQuotes {
  const reasons = scratch;
  truncate(reasons, 0);
  if (v.tradingState === 'HALTED') {
    return result(out, EMPTY, EMPTY, bids.length > 0 || asks.length > 0 ? ['halted'] : NO_REASONS);
  }
  const reducing = v.tradingState === 'REDUCING';
  const buyRoom = positionRoom('buy', v.position, limits.maxPosition, v.lingeringBuyQty, reducing);
  const sellRoom = positionRoom('sell', v.position, limits.maxPosition, v.lingeringSellQty, reducing);
  if (reducing && ((buyRoom === 0 && bids.length > 0) || (sellRoom === 0 && asks.length > 0))) reasons.push('reducing');
  const b = gateSide(bids, buyRoom, v, limits, reasons);
  const a = gateSide(asks, sellRoom, v, limits, reasons);
  const room = Math.max(0, limits.maxOpenOrders - v.lingeringOrders);
  if (b.length + a.length > room) {
    reasons.push('max-open-orders');
    let nb = 0;
    let na = 0;
    while (nb + na < room) {
      if (nb < b.length && (nb <= na || na >= a.length)) nb++;
      else if (na < a.length) na++;
      else break;
    }
    return result(out, b.slice(0, nb), a.slice(0, na), dedupe(reasons));
  }
  return result(out, b, a, reasons.length === 0 ? NO_REASONS : dedupe(reasons));
}

/** A gateQuotes result a caller reuses across calls. */
export type MutableGatedQuotes = { -readonly [K in keyof GatedQuotes]: GatedQuotes[K] };

function result(out: MutableGatedQuotes | undefined, bids: readonly QuoteLevel[], asks: readonly QuoteLevel[], reasons: readonly string[]): GatedQuotes {
  if (out === undefined) return { bids, asks, reasons };
  out.bids = bids;
  out.asks = asks;
  out.reasons = reasons;
  return out;
}

function gateSide(levels: readonly QuoteLevel[], room: number, v: RiskView, limits: SymbolRiskLimits, reasons: string[]): readonly QuoteLevel[] {
  if (levels.length === 0) return levels;
  let out: QuoteLevel[] | null = null;
  let left = room;
  const lo = v.bandLowerTicks === null ? -Infinity : v.bandLowerTicks + limits.bandMarginTicks;
  const hi = v.bandUpperTicks === null ? Infinity : v.bandUpperTicks - limits.bandMarginTicks;
  const ref = v.referenceTicks;
  const dev = ref === null || limits.maxQuoteDeviationBps === 0 ? Infinity : (Math.abs(ref) * limits.maxQuoteDeviationBps) / 10_000;
  const refLo = ref === null ? -Infinity : ref - dev;
  const refHi = ref === null ? Infinity : ref + dev;
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    let qty = l.qty;
    let why: string | null = null;
    const p = l.priceTicks;
    // NaN fails every comparison: without this a NaN price passed every band, and a NaN quantity
    // made `left` NaN, which switched the position cap off for the side's later levels.
    if (!(p > 0 && p < Infinity && qty > -Infinity && qty < Infinity)) {
      why = 'invalid-level';
      qty = 0;
    } else if (p < refLo || p > refHi) {
      why = 'fat-finger';
      qty = 0;
    } else if (p < lo || p > hi) {
      why = 'price-band';
      qty = 0;
    }
    if (qty > limits.maxOrderQty) {
      why = 'max-order-qty';
      qty = limits.maxOrderQty;
    }
    const unit = Math.abs(l.priceTicks) * v.usdPerTickContract;
    if (unit > 0 && qty * unit > limits.maxOrderNotionalUsd) {
      why = 'max-order-notional';
      qty = Math.floor(limits.maxOrderNotionalUsd / unit);
    }
    if (qty > left) {
      why = 'max-position';
      qty = left;
    }
    if (qty < Math.max(1, v.minOrderSize)) qty = 0;
    left -= qty;
    if (qty !== l.qty) {
      if (why !== null) reasons.push(why);
      out ??= levels.slice(0, i);
      if (qty > 0) out.push({ priceTicks: l.priceTicks, qty });
    } else if (out) out.push(l);
  }
  return out ?? levels;
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}
