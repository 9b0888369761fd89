import type { Symbol } from '../core/ids.ts';
import { limitsFor, type RiskConfig } from '../risk/config.ts';
import { DEFAULT_MD_SANITY_CONFIG } from '../risk/md-sanity.ts';
import type { Strategy } from '../strategy/contract.ts';
import type { EngineCore } from './engine-core.ts';
import { FLATTEN_MAX_ORDERS, FLATTEN_REASON, sendFlattenOrder } from './flatten.ts';
import type { FlattenResult } from './types.ts';
import { checkedBookDepth, type SlotGroup } from './symbol-slot.ts';

export { FLATTEN_MAX_ORDERS, FLATTEN_REASON, FLATTEN_RETRY_MS } from './flatten.ts';

/** The reason shown for a strategy paused by the operator. */
export const PAUSED_REASON = 'paused by operator';
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
  // The old strategy's stability says nothing about the new one: it is called at the next chance.
  g.stableUntilMs = -Infinity;
  for (const s of g.slots) {
    s.strategy = strategy;
    s.bookDepth = depth;
    s.lastDesired = null;
    s.settled.forget();
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
    s.sanity.config = risk.marketData ?? DEFAULT_MD_SANITY_CONFIG;
    s.settled.forget();
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

/** Cancels every order and pauses every strategy (so nothing is re-quoted until resumed). */
export function cancelEverything(core: EngineCore): void {
  for (const g of core.groups) pauseStrategy(core, g.id, 'cancel-all by operator');
  for (const s of core.slots.values()) core.om.pullAll(s.symbol);
  core.flush();
}
