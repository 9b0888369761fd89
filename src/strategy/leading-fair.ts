import type { StrategyContext } from './contract.ts';
import { Ewma } from './estimators/ewma.ts';
import { MidPredictor } from './estimators/mid-predictor.ts';
import { OrderFlowImbalance, TradeFlowImbalance } from './estimators/order-flow.ts';

/** Options of {@link LeadingFair} (engine ms). */
export interface LeadingFairOptions {
  /** Horizon of the predicted mid move; the features' half-lives are half of it. */
  readonly horizonMs: number;
  /** Half-life of the predictor's regression weights. */
  readonly halfLifeMs: number;
  /** A mid move in one update larger than this multiple of the mean |move| (and ≥ 2 ticks) is a jump. */
  readonly jumpMultiple?: number;
  /** How long after a jump the side it went against stays widened by the jump's size. */
  readonly jumpHoldMs?: number;
  /** Passed to the predictor: matured samples before use (default 120) and the significance bar (default 2). */
  readonly minSamples?: number;
  readonly zScore?: number;
}

/**
 * A leading fair value: the mid plus the move over `horizonMs` that an online regression
 * ({@link MidPredictor}) measures the touch imbalance (bid − ask size over their sum), the
 * normalised order-flow imbalance (Cont–Kukanov–Stoikov) and the public trade-flow imbalance
 * predict, each coefficient kept only while significant. A jump of the mid (a move far larger
 * than its usual step) widens the side it went against by the jump's size for `jumpHoldMs`: a
 * quote left there was priced off the old mid, and the flow that follows a jump is informed.
 * Feed it every call's view; pure, O(1) per call.
 */
export class LeadingFair {
  readonly #predictor: MidPredictor;
  readonly #ofi: OrderFlowImbalance;
  readonly #tfi: TradeFlowImbalance;
  readonly #step: Ewma;
  readonly #jumpMultiple: number;
  readonly #jumpHoldMs: number;
  #lastMid = Number.NaN;
  #shift = 0;
  #jumpUntilMs = -Infinity;
  #jumpTicks = 0;
  #imbalance = 0;

  constructor(o: LeadingFairOptions) {
    this.#predictor = new MidPredictor({ horizonMs: o.horizonMs, halfLifeMs: o.halfLifeMs, ...(o.minSamples !== undefined ? { minSamples: o.minSamples } : {}), ...(o.zScore !== undefined ? { zScore: o.zScore } : {}) });
    this.#ofi = new OrderFlowImbalance(o.horizonMs / 2);
    this.#tfi = new TradeFlowImbalance(o.horizonMs / 2);
    this.#step = new Ewma(o.halfLifeMs);
    this.#jumpMultiple = o.jumpMultiple ?? 8;
    this.#jumpHoldMs = o.jumpHoldMs ?? 1000;
  }

  /** Feeds one call's touch (ticks, contracts) and public trades; `mid` in ticks. */
  update(ctx: Pick<StrategyContext, 'trades'>, bidTicks: number, bidQty: number, askTicks: number, askQty: number, nowMs: number): void {
    const trades = ctx.trades;
    for (let i = 0; i < trades.length; i++) this.#tfi.onTrade(trades[i]!.qty, trades[i]!.aggressor === 'buy', nowMs);
    this.#ofi.update(bidTicks, bidQty, askTicks, askQty, nowMs);
    const mid = (bidTicks + askTicks) / 2;
    this.#imbalance = bidQty + askQty > 0 ? (bidQty - askQty) / (bidQty + askQty) : 0;
    if (!Number.isNaN(this.#lastMid) && mid !== this.#lastMid) {
      const move = mid - this.#lastMid;
      const usual = this.#step.value;
      if (usual > 0 && this.#step.weightAt(nowMs) >= 20 && Math.abs(move) >= Math.max(2, this.#jumpMultiple * usual)) {
        this.#jumpUntilMs = nowMs + this.#jumpHoldMs;
        this.#jumpTicks = move;
      }
      this.#step.update(Math.abs(move), nowMs);
    }
    this.#lastMid = mid;
    this.#predictor.observe(this.#imbalance, this.#ofi.normalized, this.#tfi.value, mid, nowMs);
    this.#shift = this.#predictor.predict(this.#imbalance, this.#ofi.normalized, this.#tfi.value);
  }

  /** Predicted mid move over the horizon, ticks (0 while no feature is significant). */
  get shift(): number {
    return this.#shift;
  }

  /** Extra depth of the bid after a downward jump (ticks, ≥ 0; 0 outside the hold). */
  bidJumpTicks(nowMs: number): number {
    return nowMs < this.#jumpUntilMs && this.#jumpTicks < 0 ? -this.#jumpTicks : 0;
  }

  /** Extra depth of the ask after an upward jump (ticks, ≥ 0; 0 outside the hold). */
  askJumpTicks(nowMs: number): number {
    return nowMs < this.#jumpUntilMs && this.#jumpTicks > 0 ? this.#jumpTicks : 0;
  }

  /** The underlying predictor (coefficients, hit rate). */
  get predictor(): MidPredictor {
    return this.#predictor;
  }
}
