import type { SchedulerLike } from 'rxjs';
import { MmError } from '../core/errors.ts';
import type { Clock } from '../core/clock.ts';
import type { PlaceOrder } from '../domain/intents.ts';
import { checkIntent } from '../risk/intent-check.ts';
import type { RiskView } from '../risk/quote-gate.ts';
import type { HedgeOrder, StrategyPlan } from '../strategy/contract.ts';
import type { EngineEvent } from './events.ts';
import type { OrderManager } from './order-manager.ts';
import type { OrderStore } from './order-store.ts';
import type { SlotGroup, SymbolSlot } from './symbol-slot.ts';

/** The parts of the engine core a plan uses (structural, to avoid an import cycle). */
export interface PlanHost {
  readonly deps: { readonly clock: Clock; readonly scheduler: SchedulerLike };
  readonly om: OrderManager;
  readonly store: OrderStore;
  readonly awaitingResync: boolean;
  emit(ev: EngineEvent): void;
  riskView(slot: SymbolSlot): RiskView;
  /** Re-evaluates the strategy (its timer fired). */
  wake(g: SlotGroup): void;
}

/**
 * Checks a plan's shape: ladders and hedges on declared symbols, integer prices and sizes, a finite
 * wake-up time. These are strategy bugs, so they throw (the engine isolates the strategy).
 * @throws MmError INVARIANT_BROKEN naming the strategy and the bad field.
 */
export function checkPlan(g: SlotGroup, plan: StrategyPlan): void {
  const bad = (what: string): never => {
    throw new MmError('INVARIANT_BROKEN', `strategy ${g.id} returned a bad plan: ${what}`, { strategy: g.id });
  };
  if (!Array.isArray(plan.quotes)) bad('quotes must be an array');
  for (const q of plan.quotes) if (slotOf(g, q.symbol) === null) bad(`quotes for ${q.symbol}, which it does not declare (${g.symbols.join(', ')})`);
  if (plan.hedges !== undefined) {
    if (!Array.isArray(plan.hedges)) bad('hedges must be an array');
    for (const h of plan.hedges) {
      if (slotOf(g, h.symbol) === null) bad(`a hedge on ${h.symbol}, which it does not declare (${g.symbols.join(', ')})`);
      if (h.side !== 'buy' && h.side !== 'sell') bad(`hedge side ${String(h.side)}`);
      if (!Number.isInteger(h.qty) || h.qty <= 0) bad(`hedge qty ${String(h.qty)} (a positive integer number of contracts)`);
      if (!Number.isInteger(h.limitTicks)) bad(`hedge limitTicks ${String(h.limitTicks)} (an integer number of ticks)`);
    }
  }
  if (plan.wakeAtMs !== undefined && !Number.isFinite(plan.wakeAtMs)) bad(`wakeAtMs ${String(plan.wakeAtMs)}`);
}

/**
 * Carries out a checked plan: hedges first (they are the urgent part), then each listed ladder
 * becomes its symbol's desired ladder (a declared symbol not listed keeps its previous one), and the
 * plan's wake-up time replaces the previous one (absent: no timer).
 */
export function applyPlan(host: PlanHost, g: SlotGroup, plan: StrategyPlan, nowMs: number): void {
  const hedges = plan.hedges;
  if (hedges !== undefined) for (let i = 0; i < hedges.length; i++) sendHedge(host, g, hedges[i]!, nowMs);
  const qs = plan.quotes;
  for (let i = 0; i < qs.length; i++) slotOf(g, qs[i]!.symbol)!.lastDesired = qs[i]!;
  armWake(host, g, plan.wakeAtMs ?? null, nowMs);
}

/** The slot of one of the group's symbols, null when the strategy does not declare it. */
function slotOf(g: SlotGroup, symbol: string): SymbolSlot | null {
  const slots = g.slots;
  for (let i = 0; i < slots.length; i++) if (slots[i]!.symbol === symbol) return slots[i]!;
  return null;
}

/**
 * Sends one hedge as a marketable IOC limit order (not post-only) with a fresh engine cid, after the
 * same pre-trade checks as any raw place (trading state, order size and notional, bands, position
 * counting working orders, open-order count). Emits a `hedge` event either way.
 */
function sendHedge(host: PlanHost, g: SlotGroup, h: HedgeOrder, nowMs: number): void {
  const slot = slotOf(g, h.symbol)!;
  let reason: string | null = null;
  if (host.awaitingResync) reason = 'awaiting-resync';
  else {
    const probe: PlaceOrder = {
      kind: 'place',
      symbol: slot.symbol,
      side: h.side,
      priceTicks: h.limitTicks,
      qty: h.qty,
      tif: 'IOC',
      postOnly: false,
      reprice: 'rej',
      selfTrade: 'CancelIncoming',
      clientOrderId: '' as PlaceOrder['clientOrderId'],
      tag: null,
    };
    reason = checkIntent(probe, h.side, host.riskView(slot), host.store.exposure(slot.symbol), slot.limits, 0);
  }
  const base = { type: 'hedge', strategyId: g.id, symbol: slot.symbol, side: h.side, qty: h.qty, limitTicks: h.limitTicks, tsMs: nowMs } as const;
  if (reason !== null) {
    host.emit({ type: 'reject', source: 'risk', kind: 'place', symbol: slot.symbol, clientOrderId: null, reason, text: `hedge refused by the risk gate: ${reason}`, tsMs: nowMs });
    host.emit({ ...base, clientOrderId: null, sent: false, reason });
    return;
  }
  const o = host.om.placeNew(slot.symbol, h.side, h.limitTicks, h.qty, 'IOC', true);
  host.emit({ ...base, clientOrderId: o.clientOrderId, sent: true, reason: null });
}

/** Replaces the strategy's wake-up timer; a time not after now arms nothing (no busy loop on a stale time). */
function armWake(host: PlanHost, g: SlotGroup, atMs: number | null, nowMs: number): void {
  if (atMs !== null && atMs <= nowMs) atMs = null;
  if (atMs === g.wakeAtMs) return;
  g.disarm();
  if (atMs === null) return;
  g.wakeAtMs = atMs;
  g.wakeTimer = host.deps.scheduler.schedule(() => {
    g.wakeTimer = null;
    g.wakeAtMs = null;
    host.wake(g);
  }, atMs - nowMs);
}
