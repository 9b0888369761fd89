import { TRADE_CODE } from '../record/format.ts';
import type { QueueState } from './queue-model.ts';

/**
 * Hidden executions on a tape that does not mark them (`queue_model.infer_hidden`). A vendor's L2
 * tape gives a print's price, size and aggressor, not whether it traded a displayed order. But a
 * print can only have traded displayed volume where displayed volume stood: one at a price where the
 * book showed nothing on the side it hit (inside the spread, or in a gap between levels), within
 * the recorded depth, met a hidden or midpoint order. Such a print is read as `hidden`: it advances
 * no displayed queue and fills only our orders priced better than it, as a marked one does. An order
 * of ours alone at a new best price inside the spread is then not filled by the hidden orders that
 * traded there in the recording (a displayed order there would have had priority over them, but the
 * recording's aggressor came for the hidden liquidity, not for ours).
 *
 * Displayed includes the recording bot's own orders (`o` lines): a print where only its order stood
 * was that bot's fill. Causal: it reads the book as it stood when the print arrived. A print whose level a book frame at
 * the same instant had just emptied (a feed whose frame came first) traded that displayed volume:
 * `depthGoneNow` says so, and the print stays regular.
 */
export function inferredCondition(condition: number, displayedQty: number, beyondDepth: boolean, depthGoneNow: boolean): number {
  if (condition !== TRADE_CODE.regular || displayedQty > 0 || beyondDepth || depthGoneNow) return condition;
  return TRADE_CODE.hidden;
}

/** True when a frame at exchange time `nowMs` moved `q` up by volume no print has matched yet (depth-before-print.ts). */
export const depthLeftAt = (q: QueueState, nowMs: number): boolean => q.depthAheadMs === nowMs && (q.depthAhead ?? 0) > 0;
