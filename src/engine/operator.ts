import type { ClientOrderId, Symbol } from '../core/ids.ts';
import type { PlaceOrder } from '../domain/intents.ts';
import { limitsFor, type RiskConfig } from '../risk/config.ts';
import { checkIntent } from '../risk/intent-check.ts';
import type { Strategy } from '../strategy/contract.ts';
import type { EngineCore } from './engine-core.ts';
import type { FlattenResult } from './types.ts';
import { checkedBookDepth, type SlotGroup, type SymbolSlot } from './symbol-slot.ts';

/** The reason shown for a strategy paused by the operator. */
export const PAUSED_REASON = 'paused by operator';
/** The reason shown for a symbol being flattened by the operator. */
export const FLATTEN_REASON = 'flattened by operator';
/** How many reducing IOCs one flatten may send before it gives up (an IOC that fills nothing, a thin book). */
export const FLATTEN_MAX_ORDERS = 20;
/** The least time between two IOCs of one flatten, so a lagging book is not hit again and again at a stale price. */
export const FLATTEN_RETRY_MS = 250;

/**
 * The strategy with this id.
 * @throws RangeError naming the known ids when there is none.
 */
export function groupOf(core: EngineCore, id: string): SlotGroup {
  const g = core.groups.find((x) => x.id === id);
  if (!g) throw new RangeError(`no strategy "${id}" (known: ${core.groups.map((x) => x.id).join(', ')})`);
  return g;
}

/** Pauses a strategy: every symbol of it goes HALTED (its quotes are pulled) until resumed. */
export function pauseStrategy(core: EngineCore, id: string, reason = PAUSED_REASON): void {
  for (const s of groupOf(core, id).slots) core.setTradingState(s.symbol, 'HALTED', reason);
}

/** Resumes a paused (or flattened) strategy: its symbols' operator state goes back to ACTIVE. */
export function resumeStrategy(core: EngineCore, id: string): void {
  for (const s of groupOf(core, id).slots) core.setTradingState(s.symbol, 'ACTIVE', '');
}

/**
 * Swaps a strategy's instance (built from new, already validated params): its timer is disarmed,
 * its last ladder forgotten and an isolation cleared, then it is evaluated at once. Positions,
 * working orders and the operator state are kept (the next ladder diff moves the orders).
 * @throws RangeError for an unknown id; MmError CONFIG_INVALID for a bad bookDepth (nothing changed).
 */
export function replaceStrategy(core: EngineCore, id: string, strategy: Strategy): void {
  const g = groupOf(core, id);
  const depth = checkedBookDepth(id, strategy);
  g.disarm();
  g.strategy = strategy;
  g.failed = null;
  for (const s of g.slots) {
    s.strategy = strategy;
    s.bookDepth = depth;
    s.lastDesired = null;
    s.settledVersion = -1;
  }
  core.wake(g);
}

/**
 * New risk limits and kill-switch thresholds (a config reload): each symbol's limits are replaced,
 * the kill switch keeps its state, and every strategy is re-gated at once.
 */
export function replaceRisk(core: EngineCore, risk: RiskConfig): void {
  for (const s of core.slots.values()) {
    s.limits = limitsFor(risk, s.symbol);
    s.settledVersion = -1;
  }
  core.killSwitch.reconfigure(risk.killSwitch);
  for (const g of core.groups) core.wake(g);
}

/**
 * Flattens a symbol: its quoting is halted (quotes pulled) and a reduce-only IOC order is sent at
 * the opposite touch for the position, capped at max_order_qty and checked by the risk rules as a
 * REDUCING order. The flatten keeps working until the position is flat: when that IOC is done
 * (partly filled, expired) the engine sends the next one at the new touch (`continueFlatten`), at
 * most FLATTEN_MAX_ORDERS in all, one per FLATTEN_RETRY_MS. The strategy stays halted until resumed;
 * resuming (or pausing) stops the flatten.
 * @throws RangeError when the symbol is not quoted by this engine.
 */
export function flattenSymbol(core: EngineCore, symbol: Symbol): FlattenResult {
  const slot = core.slots.get(symbol);
  if (!slot) throw new RangeError(`${symbol} is not quoted by this engine (quoted: ${[...core.slots.keys()].join(', ')})`);
  core.setTradingState(symbol, 'HALTED', FLATTEN_REASON);
  slot.flattenOrdersLeft = FLATTEN_MAX_ORDERS;
  slot.flattenNextMs = 0;
  return sendFlattenOrder(core, slot);
}

/**
 * The engine's follow-up of a flatten, at each evaluation of the symbol: the next reducing IOC
 * once the previous one is done and the position is not flat yet. Stops when flat, when the
 * operator resumed or paused the strategy, or when the flatten's orders are used up.
 */
export function continueFlatten(core: EngineCore, slot: SymbolSlot, nowMs: number): void {
  if (slot.operatorReason !== FLATTEN_REASON || slot.ledger.qty === 0) {
    slot.flattenOrdersLeft = 0;
    return;
  }
  if (nowMs < slot.flattenNextMs) return;
  sendFlattenOrder(core, slot);
}

function sendFlattenOrder(core: EngineCore, slot: SymbolSlot): FlattenResult {
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
  const qty = Math.min(Math.abs(positionQty) - pending, slot.limits.maxOrderQty);
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

/** Cancels every order and pauses every strategy (so nothing is re-quoted until resumed). */
export function cancelEverything(core: EngineCore): void {
  for (const g of core.groups) pauseStrategy(core, g.id, 'cancel-all by operator');
  for (const s of core.slots.values()) core.om.pullAll(s.symbol);
  core.flush();
}
