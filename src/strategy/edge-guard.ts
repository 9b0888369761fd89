import type { OwnFill } from './contract.ts';
import { RegimeEdge, regimeOf } from './estimators/regime-edge.ts';

/** How a side whose expected edge is negative backs off: wider by the expected loss, smaller, or away. */
export type EdgeGuardMode = 'widen' | 'shrink' | 'pull';

/** A fill's mark counts at most this many observed market spreads either way. */
const CLIP_SPREADS = 3;

/**
 * Safe when there is no edge: each side's own maker fills, marked at the horizon net of the maker
 * fee, per regime (touch spread, the side's flow state, time since the mid moved; `RegimeEdge`).
 * Before each quote, a side whose expected edge in the regime it is about to rest in is negative
 * backs off: `widen` adds the expected loss to its depth (whole ticks, at most one observed market
 * spread), `shrink` quotes e^(−loss / one observed market spread) of its size instead (37 % at a
 * loss of one spread), `pull` leaves it unquoted while the loss is a tick or more. The depth it adds is taken
 * off the fills' marks, so the estimate stays the base quote's and the back-off settles instead of
 * oscillating; a side backed off and no longer filled drifts back to the prior (no edge) as its
 * evidence ages, and tries again. The side that reduces the inventory backs off less the larger the
 * inventory, not at all at maxPosition, and is never pulled: a losing side never traps a full
 * inventory.
 */
export class EdgeGuard {
  readonly edge: RegimeEdge;
  // The regime and the extra depth (ticks) each side was last quoted with (bid 0, ask 1), and the fee then.
  readonly #regime = [-1, -1];
  readonly #extra = [0, 0];
  #feeTicks = 0;
  #mid = Number.NaN;
  #movedAtMs = Number.NEGATIVE_INFINITY;
  /** Extra depth of each side after the last `apply`, ticks (≥ 0; Infinity = pulled). */
  bidTicks = 0;
  askTicks = 0;
  /** Share of its size each side quotes after the last `apply` (1 but with `shrink`). */
  bidSizeShare = 1;
  askSizeShare = 1;

  /** @param horizonMs when a fill is marked; @param halfLifeMs the evidence's memory; @param priorLots see RegimeEdge. */
  constructor(
    readonly mode: EdgeGuardMode,
    horizonMs: number,
    halfLifeMs: number,
    priorLots = 10,
  ) {
    this.edge = new RegimeEdge({ horizonMs, halfLifeMs, priorLots });
  }

  /** One of our maker fills, `lots` of the quoter's size: filed under the regime its side was last quoted in. */
  fill(f: Pick<OwnFill, 'tsMs' | 'side' | 'priceTicks'>, lots: number, nowMs: number): void {
    const i = f.side === 'buy' ? 0 : 1;
    if (this.#regime[i]! < 0) return;
    this.edge.fill(Math.min(f.tsMs, nowMs), f.side === 'buy' ? 1 : -1, f.priceTicks, this.#regime[i]!, this.#feeTicks + this.#extra[i]!, lots);
  }

  /** The mid at `nowMs` (ticks): marks the fills whose horizon has passed and notes when the mid moved. */
  updateMid(nowMs: number, mid: number): void {
    if (mid !== this.#mid) {
      if (!Number.isNaN(this.#mid)) this.#movedAtMs = nowMs;
      this.#mid = mid;
    }
    this.edge.updateMid(nowMs, mid);
  }

  /**
   * Backs each side of `px` (fractional ticks) off by its expected loss at `nowMs`: the touch
   * spread `spreadTicks`, each side's flow state (0 well against … 4 well for), the maker fee in
   * ticks per contract, one observed market spread `marketSpreadTicks` (the widening's cap and the
   * scale of a mark's clip), the position and its cap (contracts).
   */
  apply(
    nowMs: number,
    spreadTicks: number,
    bidState: number,
    askState: number,
    feeTicks: number,
    marketSpreadTicks: number,
    position: number,
    maxPosition: number,
    px: { bid: number; ask: number },
  ): void {
    this.#feeTicks = feeTicks;
    this.edge.clipTicks = CLIP_SPREADS * Math.max(1, marketSpreadTicks);
    const since = nowMs - this.#movedAtMs;
    const exit = Math.max(0, 1 - Math.abs(position) / maxPosition);
    const bid = this.#side(0, regimeOf(spreadTicks, bidState, since), nowMs, marketSpreadTicks, position < 0 ? exit : -1);
    const ask = this.#side(1, regimeOf(spreadTicks, askState, since), nowMs, marketSpreadTicks, position > 0 ? exit : -1);
    if (this.mode === 'shrink') {
      // The loss sets the size, not the depth; the side that reduces the inventory shrinks less (exit).
      const spread = Math.max(1, marketSpreadTicks);
      this.bidSizeShare = 1 - (1 - Math.exp(-bid / spread)) * (position < 0 ? exit : 1);
      this.askSizeShare = 1 - (1 - Math.exp(-ask / spread)) * (position > 0 ? exit : 1);
    }
    this.bidTicks = this.mode === 'shrink' ? 0 : bid;
    this.askTicks = this.mode === 'shrink' ? 0 : ask;
    px.bid -= this.bidTicks;
    px.ask += this.askTicks;
  }

  /**
   * One side's extra depth (Infinity = pulled), or with `shrink` its expected loss (ticks, capped);
   * `exit` is its easing when it reduces the inventory, −1 when it does not.
   */
  #side(i: number, regime: number, nowMs: number, capTicks: number, exit: number): number {
    this.#regime[i] = regime;
    const loss = -this.edge.expectedTicks(i === 0 ? 1 : -1, regime, nowMs);
    // Whole ticks: quotes snap outward, so a fraction would cost a full tick of priority.
    const ticks = loss > 0 ? Math.round(Math.min(capTicks, loss)) : 0;
    if (this.mode === 'shrink') {
      // Its quotes stand at the base depth: its fills mark the base quote as they are.
      this.#extra[i] = 0;
      return Math.min(capTicks, loss > 0 ? loss : 0);
    }
    const extra = exit >= 0 ? Math.round(ticks * exit) : this.mode === 'pull' && ticks >= 1 ? Number.POSITIVE_INFINITY : ticks;
    // A pulled side has no order to fill; a fill racing its cancel was quoted without extra depth.
    this.#extra[i] = Number.isFinite(extra) ? extra : 0;
    return extra;
  }
}
