import type { DesiredQuotes } from '../domain/intents.ts';
import type { TradingState } from '../risk/trading-state.ts';

/**
 * The inputs of a symbol's last settle whose gated ladder the working orders matched exactly. The
 * risk gate and the quote diff are pure functions of these (limits and engine config are fixed), so
 * the same inputs again need neither: most book updates leave a quoter's ladder as it was.
 */
export class SettleMemo {
  /** The order store's version when remembered; −1 = nothing remembered. */
  #version = -1;
  #desired: DesiredQuotes | null = null;
  #bestBid: number | null = null;
  #bestAsk: number | null = null;
  #position = 0;
  #state: TradingState = 'ACTIVE';
  #bandLower: number | null = null;
  #bandUpper: number | null = null;
  #reference: number | null = null;
  /** When the remembered answer was a deferred one: OrderManager.deferredLockSentMs (Infinity otherwise). */
  lockSentMs = Infinity;

  /** True when these are the remembered inputs. */
  matches(version: number, desired: DesiredQuotes | null, bestBid: number | null, bestAsk: number | null, position: number, state: TradingState, bandLower: number | null, bandUpper: number | null, reference: number | null): boolean {
    return (
      this.#version === version &&
      this.#desired === desired &&
      this.#bestBid === bestBid &&
      this.#bestAsk === bestAsk &&
      this.#position === position &&
      this.#state === state &&
      this.#bandLower === bandLower &&
      this.#bandUpper === bandUpper &&
      this.#reference === reference
    );
  }

  remember(version: number, desired: DesiredQuotes | null, bestBid: number | null, bestAsk: number | null, position: number, state: TradingState, bandLower: number | null, bandUpper: number | null, reference: number | null): void {
    this.#version = version;
    this.#desired = desired;
    this.#bestBid = bestBid;
    this.#bestAsk = bestAsk;
    this.#position = position;
    this.#state = state;
    this.#bandLower = bandLower;
    this.#bandUpper = bandUpper;
    this.#reference = reference;
  }

  /** Forgets the inputs: the next settle gates and diffs again (a new strategy, new limits, an unsent answer). */
  forget(): void {
    this.#version = -1;
  }
}
