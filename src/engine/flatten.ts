import type { Clock } from '../core/clock.ts';
import type { ClientOrderId } from '../core/ids.ts';
import type { PlaceOrder } from '../domain/intents.ts';
import { checkIntent } from '../risk/intent-check.ts';
import type { RiskView } from '../risk/quote-gate.ts';
import type { EngineEvent } from './events.ts';
import type { OrderManager } from './order-manager.ts';
import type { OrderStore } from './order-store.ts';
import type { SymbolSlot } from './symbol-slot.ts';
import type { FlattenResult } from './types.ts';

/** The reason shown for a symbol being flattened by the operator. */
export const FLATTEN_REASON = 'flattened by operator';
/** How many reducing IOCs one flatten may send before it gives up (an IOC that fills nothing, a thin book). */
export const FLATTEN_MAX_ORDERS = 20;
/** The least time between two IOCs of one flatten, so a lagging book is not hit again and again at a stale price. */
export const FLATTEN_RETRY_MS = 250;

/** The parts of the engine core a flatten uses (structural, to avoid an import cycle). */
export interface FlattenHost {
  readonly deps: { readonly clock: Clock };
  readonly om: OrderManager;
  readonly store: OrderStore;
  emit(ev: EngineEvent): void;
  riskView(slot: SymbolSlot): RiskView;
}

/**
 * The engine's follow-up of a flatten, at each evaluation of the symbol: the next reducing IOC
 * once the previous one is done and the position is not flat yet. Stops when flat, when the
 * operator resumed or paused the strategy, or when the flatten's orders are used up.
 */
export function continueFlatten(core: FlattenHost, slot: SymbolSlot, nowMs: number): void {
  if (slot.operatorReason !== FLATTEN_REASON || slot.ledger.qty === 0) {
    slot.flattenOrdersLeft = 0;
    return;
  }
  if (nowMs < slot.flattenNextMs) return;
  sendFlattenOrder(core, slot);
}

/** Sends the flatten's next reducing IOC when one is due (see `flattenSymbol` in operator.ts). */
export function sendFlattenOrder(core: FlattenHost, slot: SymbolSlot): FlattenResult {
  const symbol = slot.symbol;
  const positionQty = slot.ledger.qty;
  if (positionQty === 0) return { sent: false, reason: 'flat', positionQty };
  const side = positionQty > 0 ? 'sell' : 'buy';
  const priceTicks = side === 'sell' ? slot.market.bestBid() : slot.market.bestAsk();
  if (priceTicks === null) return { sent: false, reason: 'no-book', positionQty };
  // Reducing orders already out (an earlier flatten) count; the pulled quotes do not.
  let buy = 0;
  let sell = 0;
  let n = 0;
  for (const o of core.store.forSymbol(symbol)) {
    if (o.cancelWanted && !o.hedge) continue;
    n++;
    if (o.side === 'buy') buy += o.qty - o.filledQty;
    else sell += o.qty - o.filledQty;
  }
  const pending = side === 'sell' ? sell : buy;
  // A reducing side never works more than max position (risk/position-room.ts): a position over
  // the cap is flattened max position at a time.
  const qty = Math.min(Math.abs(positionQty) - pending, slot.limits.maxOrderQty, slot.limits.maxPosition - pending);
  if (qty <= 0) return { sent: false, reason: 'already-reducing', positionQty };
  const intent: PlaceOrder = {
    kind: 'place',
    symbol,
    side,
    priceTicks,
    qty,
    tif: 'IOC',
    postOnly: false,
    reprice: 'rej',
    selfTrade: 'CancelIncoming',
    clientOrderId: '' as ClientOrderId,
    tag: 'flatten',
  };
  const view = { ...core.riskView(slot), tradingState: 'REDUCING' as const };
  const why = checkIntent(intent, side, view, { buyQty: buy, sellQty: sell, orders: n }, slot.limits, 0);
  if (why !== null) {
    core.emit({ type: 'reject', source: 'risk', kind: 'place', symbol, clientOrderId: null, reason: why, text: `flatten refused by the risk gate: ${why}`, tsMs: core.deps.clock.nowMs() });
    slot.flattenOrdersLeft = 0; // the same gate would refuse every retry: stop, the operator saw why
    return { sent: false, reason: why, positionQty };
  }
  core.om.placeNew(symbol, side, priceTicks, qty, 'IOC', true);
  slot.flattenOrdersLeft--;
  slot.flattenNextMs = core.deps.clock.nowMs() + FLATTEN_RETRY_MS;
  return { sent: true, side, qty, priceTicks, positionQty };
}
