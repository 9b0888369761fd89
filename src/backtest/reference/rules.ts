import { probBehind } from '../queue-model.ts';
import type { RefMarketOrder, RefQueueRule } from './types.ts';

/**
 * The reference's queue rules, one function per rule and event, written for reading rather than
 * speed. `ahead` is the market volume ahead of our order at its level; it may go negative on a
 * print, and the excess is what reached us.
 */

/** An L2 order's place in its level's queue. */
export interface RefQueue {
  ahead: number;
  /** Probabilistic rule: volume printed at the level since the level was last listed. */
  printedSinceListed: number;
}

/** Risk-averse, on a print of `volume` at our level: the volume trades the queue ahead of us. */
export function riskAversePrint(q: RefQueue, volume: number): void {
  q.ahead -= volume;
}

/** Risk-averse, when a frame lists our level: every cancel is behind us, so the queue ahead only shrinks to what is displayed. */
export function riskAverseListed(q: RefQueue, _before: number, after: number): void {
  q.ahead = Math.min(q.ahead, after);
}

/** Probabilistic, on a print of `volume` at our level: it trades the queue ahead and is counted until the level is listed. */
export function probabilisticPrint(q: RefQueue, volume: number): void {
  q.ahead -= volume;
  q.printedSinceListed += volume;
}

/**
 * Probabilistic (hftbacktest's ProbQueueModel), when a frame lists our level: the drop not explained
 * by the prints since it was last listed is a cancel, ahead of us with probability 1 − p(ahead,
 * behind); a rise changes nothing ahead (new orders join behind). Never more ahead than displayed.
 */
export function probabilisticListed(q: RefQueue, before: number, after: number, shape: Extract<RefQueueRule, { kind: 'probabilistic' }>): void {
  const cancelled = before - after - q.printedSinceListed;
  q.printedSinceListed = 0;
  if (cancelled < 0) {
    q.ahead = Math.min(q.ahead, after);
    return;
  }
  const behind = before - q.ahead;
  const p = probBehind(shape.shape, shape.n, q.ahead, behind);
  const estimate = q.ahead - (1 - p) * cancelled + Math.min(behind - p * cancelled, 0);
  q.ahead = Math.min(estimate, after);
}

/** The L2 rule for a print at our level. */
export function onPrintL2(rule: RefQueueRule, q: RefQueue, volume: number): void {
  if (rule.kind === 'probabilistic') probabilisticPrint(q, volume);
  else riskAversePrint(q, volume);
}

/** The L2 rule for a frame listing our level (`before` → `after` displayed). */
export function onListedL2(rule: RefQueueRule, q: RefQueue, before: number, after: number): void {
  if (rule.kind === 'probabilistic') probabilisticListed(q, before, after, rule);
  else riskAverseListed(q, before, after);
}

/**
 * Exact FIFO by order id, when the level shows `orders` (a frame, or the level after a print traded
 * its front): a queue never reorders, so every order listed in front of the last one still listed
 * of those ahead of ours (`aheadIds`) is ahead of ours, and the orders after it are behind. Orders
 * joining later list behind: they never move ahead of us; orders that left (canceled, traded by a
 * print) are gone, and one listed again later is not ahead unless it lists in front of one that is.
 * Returns the ids ahead now.
 */
export function fifoAhead(aheadIds: ReadonlySet<number>, orders: readonly RefMarketOrder[]): Set<number> {
  let last = -1;
  orders.forEach((o, i) => {
    if (aheadIds.has(o.id)) last = i;
  });
  return new Set(orders.slice(0, last + 1).map((o) => o.id));
}

/** Exact FIFO: the market volume ahead of ours (the current sizes of the orders ahead). */
export function fifoVolumeAhead(aheadIds: ReadonlySet<number>, orders: readonly RefMarketOrder[]): number {
  return orders.reduce((sum, o) => sum + (aheadIds.has(o.id) ? o.qty : 0), 0);
}

/** Exact FIFO: a print of `volume` trades the level's market orders from the front, as it did in the market. */
export function fifoTradeFront(orders: readonly RefMarketOrder[], volume: number): RefMarketOrder[] {
  const out: RefMarketOrder[] = [];
  let left = volume;
  for (const o of orders) {
    if (left >= o.qty) left -= o.qty;
    else {
      out.push(left > 0 ? { id: o.id, qty: o.qty - left } : o);
      left = 0;
    }
  }
  return out;
}
