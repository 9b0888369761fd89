import type { HedgeOrder, SymbolView } from './contract.ts';

/**
 * Cost-aware taker unwind for a quoter stuck at its hard cap: after `afterMs` with |position| ≥
 * maxPosition, one IOC of a lot at the opposite touch, when crossing there costs less than keeping
 * the last lot. Under the CARA objective the last of q lots is worth (|q| − ½)·γσ²H ticks of risk
 * premium (the reservation price's change from q to q − 1 over the holding horizon H); crossing
 * costs the touch's distance from the fair value plus the taker fee. One unwind per `afterMs`.
 * Pure decisions, state in fields; no timers (the quoter is called on every market event).
 */
export class TakerUnwind {
  #atCapSinceMs = Number.NaN;
  #lastMs = -Infinity;

  constructor(readonly afterMs: number) {}

  /**
   * The IOC to send now, or null. `riskPerLotTicks` = γσ²H (ticks per lot of inventory), `fair` in
   * ticks, `size` contracts per lot.
   */
  plan(view: Pick<SymbolView, 'symbol' | 'book' | 'position' | 'fees'>, fair: number, size: number, maxPosition: number, riskPerLotTicks: number, nowMs: number): HedgeOrder | null {
    const q = view.position.qty;
    if (Math.abs(q) < maxPosition) {
      this.#atCapSinceMs = Number.NaN;
      return null;
    }
    if (Number.isNaN(this.#atCapSinceMs)) this.#atCapSinceMs = nowMs;
    if (nowMs - this.#atCapSinceMs < this.afterMs || nowMs - this.#lastMs < this.afterMs) return null;
    const long = q > 0;
    const touch = long ? view.book?.bids[0]?.priceTicks : view.book?.asks[0]?.priceTicks;
    if (touch === undefined) return null;
    const costTicks = (long ? fair - touch : touch - fair) + Math.max(0, view.fees.taker) * fair;
    const keepTicks = (Math.abs(q) / size - 0.5) * riskPerLotTicks;
    if (!(costTicks < keepTicks)) return null;
    this.#lastMs = nowMs;
    return { symbol: view.symbol, side: long ? 'sell' : 'buy', qty: Math.min(size, Math.abs(q)), limitTicks: touch };
  }
}
