import type { DesiredQuotes, QuoteLevel } from '../domain/intents.ts';
import type { SymbolView, WorkingOrder } from './contract.ts';
import { isLadder, ladder } from './helpers.ts';

/**
 * Contracts on one side that may still fill whatever the new ladder says: orders being cancelled
 * or replaced, or whose last request's outcome is unknown. The hard cap (docs/strategy-models.md §4.3)
 * counts them as exposure, as NautilusTrader counts in-flight orders.
 */
export function inFlightQty(orders: readonly WorkingOrder[], side: 'buy' | 'sell'): number {
  let n = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    if (o.side === side && (o.status === 'pending-cancel' || o.status === 'pending-replace' || o.status === 'unknown')) n += o.qty;
  }
  return n;
}

/** Room left on each side under the hard cap |q + in-flight same-side qty + new qty| ≤ maxPosition. */
export function sideCapacity(view: Pick<SymbolView, 'position' | 'workingOrders'>, maxPosition: number): { bid: number; ask: number } {
  const q = view.position.qty;
  return {
    bid: Math.max(0, maxPosition - q - inFlightQty(view.workingOrders, 'buy')),
    ask: Math.max(0, maxPosition + q - inFlightQty(view.workingOrders, 'sell')),
  };
}

/** What a model strategy wants before snapping: raw prices (fractional ticks) and sizes. */
export interface RawQuote {
  /** Bid price in ticks (fractional), NaN or −Infinity for no bid. */
  readonly bidTicks: number;
  /** Ask price in ticks (fractional), NaN or +Infinity for no ask. */
  readonly askTicks: number;
  /** Contracts per level on each side, best first. */
  readonly bidSizes: readonly number[];
  readonly askSizes: readonly number[];
  /** Ticks between levels (≥ 1). */
  readonly spacingTicks: number;
}

/**
 * Snaps a raw quote to the grid (bids down, asks up), keeps it post-only (bid below the best ask,
 * ask above the best bid, bid below ask), and trims each side's ladder to the hard cap counting
 * in-flight orders. The result never crosses the book and never lets |position| exceed `maxPosition`.
 * When it equals `last` (same symbol, prices and sizes), `last` itself is returned, nothing allocated.
 */
export function buildQuotes(view: Pick<SymbolView, 'symbol' | 'book' | 'position' | 'workingOrders' | 'instrument'>, raw: RawQuote, maxPosition: number, last: DesiredQuotes | null = null): DesiredQuotes {
  const bestBid = view.book?.bids[0]?.priceTicks;
  const bestAsk = view.book?.asks[0]?.priceTicks;
  let bid0 = Number.isFinite(raw.bidTicks) ? Math.floor(raw.bidTicks + 1e-9) : Number.NaN;
  let ask0 = Number.isFinite(raw.askTicks) ? Math.ceil(raw.askTicks - 1e-9) : Number.NaN;
  if (bestAsk !== undefined && bid0 >= bestAsk) bid0 = bestAsk - 1;
  if (bestBid !== undefined && ask0 <= bestBid) ask0 = bestBid + 1;
  if (ask0 <= bid0) bid0 = ask0 - 1;
  // sideCapacity, without its result object.
  const q = view.position.qty;
  const capBid = Math.max(0, maxPosition - q - inFlightQty(view.workingOrders, 'buy'));
  const capAsk = Math.max(0, maxPosition + q - inFlightQty(view.workingOrders, 'sell'));
  const minSize = view.instrument.minOrderSize;
  if (
    last !== null &&
    last.symbol === view.symbol &&
    (Number.isNaN(bid0) ? last.bids.length === 0 : isLadder(last.bids, bid0, raw.spacingTicks, raw.bidSizes, true, minSize, capBid)) &&
    (Number.isNaN(ask0) ? last.asks.length === 0 : isLadder(last.asks, ask0, raw.spacingTicks, raw.askSizes, false, minSize, capAsk))
  )
    return last;
  return {
    symbol: view.symbol,
    bids: Number.isNaN(bid0) ? NONE : ladder(bid0, raw.spacingTicks, raw.bidSizes, true, minSize, capBid),
    asks: Number.isNaN(ask0) ? NONE : ladder(ask0, raw.spacingTicks, raw.askSizes, false, minSize, capAsk),
  };
}

const NONE: readonly QuoteLevel[] = Object.freeze([]);
