import type { EngineSnapshot } from '../engine/index.ts';
import { isResting } from '../app/monitoring-engine.ts';

type SymbolSnap = EngineSnapshot['symbols'][number];

/**
 * A symbol should be quoting: the engine runs, no kill switch, engine and symbol ACTIVE, its
 * strategy not isolated, and the market two-sided (a strategy may legitimately wait out a one-sided
 * or empty book). REDUCING is left out: a flat position quotes nothing there. Unlike
 * `quoteExpected`, what the strategy wants does not count: a strategy that wants nothing here is
 * the case to catch (a parameter that pushes every price off the grid, a cap below the size).
 */
export function shouldQuote(snap: EngineSnapshot, s: SymbolSnap): boolean {
  if (!snap.running || snap.killSwitch.tripped || snap.tradingState !== 'ACTIVE') return false;
  return s.tradingState === 'ACTIVE' && s.strategyError === null && s.bestBidTicks !== null && s.bestAskTicks !== null;
}

/** No order of the symbol rests at the venue (queued or unacknowledged ones are not quotes yet). */
const bare = (s: SymbolSnap): boolean => !s.working.some(isResting);

/**
 * Since when each symbol that should quote has had no quote at the venue, on the engine clock:
 * the console shows it, `mmbot_no_quotes_seconds` exports it and `MmbotQuotesNothing` alerts on
 * it. Fed snapshots by whoever looks (the metrics scrape, the console's 5 s sample and its state),
 * so the figure is as fresh as the latest look and never overstated.
 */
export class NoQuoteWatch {
  readonly #since = new Map<string, number>();

  /** Updates every symbol of `snap`: starts its clock when it turns bare while it should quote, clears it otherwise. */
  observe(snap: EngineSnapshot): void {
    for (const s of snap.symbols) {
      if (!shouldQuote(snap, s) || !bare(s)) this.#since.delete(s.symbol);
      else if (!this.#since.has(s.symbol)) this.#since.set(s.symbol, snap.nowMs);
    }
  }

  /** Ms the symbol has gone without a quote it should have at `nowMs` (engine clock); 0 when quoting or not expected to. */
  forMs(symbol: string, nowMs: number): number {
    const since = this.#since.get(symbol);
    return since === undefined ? 0 : Math.max(0, nowMs - since);
  }
}
