import type { OrderIntent } from '../domain/intents.ts';
import { checkIntent } from '../risk/intent-check.ts';
import type { RiskView } from '../risk/quote-gate.ts';
import type { EngineDeps } from './types.ts';
import type { EngineEvent } from './events.ts';
import type { OrderManager } from './order-manager.ts';
import type { OrderRequests } from './order-requests.ts';
import type { OrderStore } from './order-store.ts';
import type { SlotGroup, SymbolSlot } from './symbol-slot.ts';

/** The parts of the engine core raw intents use (kept structural to avoid an import cycle). */
export interface RawIntentHost {
  readonly deps: Pick<EngineDeps, 'clock'>;
  readonly om: OrderManager;
  readonly store: OrderStore;
  readonly requests: OrderRequests;
  emit(ev: EngineEvent): void;
  riskView(slot: SymbolSlot): RiskView;
}

/**
 * Carries out raw intents from a strategy that bypasses the ladder: places get a fresh engine cid
 * (the strategy's is ignored) and the engine's post-only/reprice/STP settings with the intent's
 * TIF; replaces and cancels must name an order the engine tracks; each place/replace passes
 * `checkIntent` (rejects are `reject` events with source `risk`); orders on symbols the strategy does
 * not declare are refused; a cancel-all pulls its symbol (null: every declared symbol).
 */
export function handleRawIntents(core: RawIntentHost, g: SlotGroup, intents: readonly OrderIntent[]): void {
  const now = core.deps.clock.nowMs();
  for (const it of intents) {
    if (it.kind === 'cancel-all') {
      for (const s of g.slots) if (it.symbol === null || it.symbol === s.symbol) core.om.pullAll(s.symbol);
      continue;
    }
    const slot = g.slots.find((s) => s.symbol === it.symbol);
    if (!slot) {
      core.emit({ type: 'reject', source: 'risk', kind: it.kind, symbol: it.symbol, clientOrderId: null, reason: 'foreign-symbol', text: `strategy ${g.id} may only trade ${g.symbols.join(', ')}`, tsMs: now });
      continue;
    }
    const o = it.kind === 'place' ? undefined : core.store.find(it.clientOrderId, it.orderId);
    if (it.kind === 'cancel') {
      if (o) core.requests.cancel(o);
      continue;
    }
    if (it.kind === 'replace' && (!o || !o.orderId || o.cancelWanted)) {
      core.emit({ type: 'reject', source: 'risk', kind: 'replace', symbol: slot.symbol, clientOrderId: it.clientOrderId, reason: 'unknown-order', text: 'replace of an order the engine does not track as open', tsMs: now });
      continue;
    }
    const side = it.kind === 'place' ? it.side : o!.side;
    const why = checkIntent(it, side, core.riskView(slot), core.store.exposure(slot.symbol), slot.limits, o ? o.qty : 0);
    if (why !== null) {
      core.emit({ type: 'reject', source: 'risk', kind: it.kind, symbol: slot.symbol, clientOrderId: it.clientOrderId, reason: why, text: `risk gate: ${why}`, tsMs: now });
      continue;
    }
    if (it.kind === 'place') core.om.placeNew(slot.symbol, it.side, it.priceTicks, it.qty, it.tif);
    else core.requests.replace(o!, it.priceTicks, it.qty);
  }
}
