import type { PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { SymbolRiskLimits } from './config.ts';
import { positionRoom } from './position-room.ts';
import type { RiskView } from './quote-gate.ts';

/** Working exposure on the symbol, in-flight included, for checking one raw intent. */
export interface Exposure {
  readonly buyQty: number;
  readonly sellQty: number;
  readonly orders: number;
}

/**
 * Checks one raw place/replace intent (strategies that bypass the ladder). `replacedQty` is the
 * remaining size of the order a replace supersedes (0 for a place). A malformed price or size
 * (`invalid-level`) and a price beyond the fat-finger band around the reference (`fat-finger`) are
 * refused as the quote gate refuses them. Returns the violated rule's name, or null when the intent
 * may go. Pure.
 */
export function checkIntent(
  intent: PlaceOrder | ReplaceOrder,
  side: 'buy' | 'sell',
  v: RiskView,
  exposure: Exposure,
  limits: SymbolRiskLimits,
  replacedQty: number,
): string | null {
  if (v.tradingState === 'HALTED') return 'halted';
  const p = intent.priceTicks;
  // NaN fails every comparison below, so it is refused here first.
  if (!(p > 0 && p < Infinity && Number.isFinite(intent.qty))) return 'invalid-level';
  if (v.referenceTicks !== null && limits.maxQuoteDeviationBps > 0 && Math.abs(p - v.referenceTicks) > (Math.abs(v.referenceTicks) * limits.maxQuoteDeviationBps) / 10_000) return 'fat-finger';
  if (intent.qty <= 0 || intent.qty < v.minOrderSize) return 'min-order-size';
  if (intent.qty > limits.maxOrderQty) return 'max-order-qty';
  if (intent.qty * Math.abs(intent.priceTicks) * v.usdPerTickContract > limits.maxOrderNotionalUsd) return 'max-order-notional';
  if (v.bandLowerTicks !== null && intent.priceTicks < v.bandLowerTicks + limits.bandMarginTicks) return 'price-band';
  if (v.bandUpperTicks !== null && intent.priceTicks > v.bandUpperTicks - limits.bandMarginTicks) return 'price-band';
  if (intent.kind === 'place' && exposure.orders + 1 > limits.maxOpenOrders) return 'max-open-orders';
  const extra = intent.qty - replacedQty;
  if (extra <= 0) return null;
  // The same room as the ladder's (position-room.ts): REDUCING never works more than max position.
  const working = side === 'buy' ? exposure.buyQty : exposure.sellQty;
  if (v.tradingState === 'REDUCING') {
    if (working + extra > (side === 'buy' ? -v.position : v.position)) return 'reducing';
    if (working + extra > limits.maxPosition) return 'max-position';
    return null;
  }
  return working + extra > positionRoom(side, v.position, limits.maxPosition, 0, false) ? 'max-position' : null;
}
