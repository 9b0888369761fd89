import { statePermissions } from '../domain/enums.ts';
import { stricterState, type TradingState } from '../risk/trading-state.ts';
import { DATA_SUSPECT_REASON } from './md-watch.ts';
import type { SymbolSlot } from './symbol-slot.ts';

/** A symbol's effective trading state and the reason for it (reused between calls: read, do not keep). */
export interface StateVerdict {
  state: TradingState;
  reason: string;
}

/**
 * The strictest of the states that apply to a symbol now: the engine's, the kill switch
 * (`killReason` non-null when tripped), the operator's, the instrument's, suspect market data
 * (HALTED, the reason names the values), close-only and a position over its limit. Each candidate
 * replaces the state only when strictly stricter, so the first reason of the strictest state wins.
 * Writes into `out` (no allocation while the data is sane: this runs on every evaluation).
 */
export function strictestState(out: StateVerdict, engineState: TradingState, engineReason: string, killReason: string | null, slot: SymbolSlot, now: number): StateVerdict {
  let st = engineState;
  let why = engineReason;
  if (killReason !== null && stricterState(st, 'HALTED') !== st) {
    st = 'HALTED';
    why = `kill switch: ${killReason}`;
  }
  if (stricterState(st, slot.operatorState) !== st) {
    st = slot.operatorState;
    why = slot.operatorReason;
  }
  const inst = slot.market.ticker?.state;
  if (inst !== undefined && !statePermissions(inst).canPlace && stricterState(st, 'HALTED') !== st) {
    st = 'HALTED';
    why = `instrument ${inst}`;
  }
  if (slot.sanity.kind !== null && stricterState(st, 'HALTED') !== st) {
    st = 'HALTED';
    why = `${DATA_SUSPECT_REASON}: ${slot.sanity.detail}`;
  }
  if (slot.closeOnlyUntilMs > now && stricterState(st, 'REDUCING') !== st) {
    st = 'REDUCING';
    why = 'close-only';
  }
  if (Math.abs(slot.ledger.qty) > slot.limits.maxPosition && stricterState(st, 'REDUCING') !== st) {
    st = 'REDUCING';
    why = 'position over limit';
  }
  out.state = st;
  out.reason = why;
  return out;
}
