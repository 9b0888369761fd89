import type { DesiredQuotes } from '../domain/intents.ts';
import { MarketCalibrator } from './calibration.ts';
import type { Strategy, StrategyContext, StrategyPlan } from './contract.ts';
import type { IntensityFit } from './estimators/intensity.ts';
import { Ewma } from './estimators/ewma.ts';
import { MarkoutTracker } from './estimators/markout-tracker.ts';
import { MicropriceEstimator } from './estimators/microprice.ts';
import { FlowStateMarkouts } from './estimators/flow-state-markouts.ts';
import { TradeFlowImbalance } from './estimators/order-flow.ts';
import { PredictiveRegression } from './estimators/predictive-regression.ts';
import { LeadingFair } from './leading-fair.ts';
import { queueAdjust, QueueTracker } from './queue-aware.ts';
import { EdgeGuard } from './edge-guard.ts';
import { buildQuotes } from './quote-builder.ts';
import { holdingHorizonS, riskBudgetGamma } from './models/risk-budget.ts';
import { TakerUnwind } from './taker-unwind.ts';
import type { ModelBaseParams } from './model-params.ts';

export { modelBaseShape, type ModelBaseParams } from './model-params.ts';

/** Lots of prior weight on "no adverse selection": the measured adverse move counts W/(W + this) of itself, W the decayed filled lots. */
const ADVERSE_PRIOR_FILLS = 10;

/**
 * Mean adverse move (bps, ≥ 0) after one side's maker fills: an EWMA of their markouts whose
 * weights halve every half-life of time (not of fills), shrunk toward 0 by the prior. A side that
 * stops being filled thus forgets its old adverse selection instead of staying widened for good.
 */
function adverseBps(m: Ewma, nowMs: number): number {
  const v = m.value;
  if (!(v < 0)) return 0;
  const w = m.weightAt(nowMs);
  return (-v * w) / (w + ADVERSE_PRIOR_FILLS);
}


/** What a model sees at a refit: calibrated inputs in engine units. */
export interface ModelCalibration {
  /** σ now in ticks/√s (max of the fast and the regular estimate): what the quotes are priced with. */
  readonly sigma: number;
  /** Long-run σ in ticks/√s: the risk budget's σ (so a spike in σ now moves the quotes). */
  readonly sigmaRisk: number;
  /** λ(δ) = A·e^(−kδ) per side, δ from the pre-trade fair value: A in lots/s, k in 1/tick. */
  readonly fit: IntensityFit;
  /** maxPosition in lots. */
  readonly qMaxLots: number;
  /** γ in 1/(tick·lot): the `gamma` parameter, else from the risk budget (riskBudgetGamma). */
  readonly gamma: number;
  /** The holding horizon H in seconds (holdingHorizonS, else qMax / A). */
  readonly holdingS: number;
  /** Half the observed (average) touch spread of the market without our orders, ticks. */
  readonly marketHalfSpreadTicks: number;
  readonly nowMs: number;
}

/** A model: refit on calibrated inputs (false = not usable yet), then price quotes from fair and q. */
export interface QuoteModel {
  refit(c: ModelCalibration): boolean;
  /**
   * Writes raw bid/ask prices (fractional ticks) into `out`: the model's depths from `fair`, the
   * reference the intensity was fitted from (so λ(δ) is applied where it was measured).
   */
  price(fair: number, qLots: number, nowMs: number, out: { bid: number; ask: number }): void;
}

/**
 * A strategy around a {@link QuoteModel}: calibrates online from every call's view, refits every
 * `refitIntervalMs` (γ from the risk budget), quotes at the touch until calibrated (fallbackWidth ×
 * half the observed spread, inventory skew of one half-spread at maxPosition), then the model's
 * quotes, with the maker fee as a floor, the measured adverse selection of our own fills added per
 * side, the explicit floor minSpreadShare, the flow state's and the edge guard's back-off (a side
 * whose own fills are expected to lose in the regime it rests in); sizes shrink on the side that
 * grows the inventory (sizeDecay); lays levels, keeps post-only and enforces the hard cap counting
 * in-flight orders; optionally unwinds at the cap.
 */
export function createModelQuoter(p: ModelBaseParams, model: QuoteModel): Strategy & { readonly calibrated: () => boolean; readonly calibration: () => ModelCalibration | null } {
  const cal = new MarketCalibrator({ volHalfLifeMs: p.volHalfLifeS * 1000, intensityHalfLifeMs: p.intensityHalfLifeS * 1000, fastVolHalfLifeMs: p.fastVolHalfLifeS * 1000, lotSize: p.size });
  // Trade-flow imbalance (signal time scale: half the horizon it predicts over) and its measured
  // predictive power for the mid move over adverseHorizonS.
  const flow = p.flowAlpha ? new TradeFlowImbalance((p.adverseHorizonS * 1000) / 2) : null;
  const flowReg = p.flowAlpha ? new PredictiveRegression({ horizonMs: p.adverseHorizonS * 1000, halfLifeMs: p.intensityHalfLifeS * 1000 }) : null;
  const micro = p.fairValue === 'microprice' ? new MicropriceEstimator() : null;
  const weighted = p.fairValue === 'weighted-mid';
  const additive = p.adverseSelection === 'add';
  const qMaxLots = p.maxPosition / p.size;
  const levels = p.levels;
  const bidSizes = new Array<number>(levels).fill(p.size);
  const askSizes = new Array<number>(levels).fill(p.size);
  const raw = { bidTicks: 0, askTicks: 0, bidSizes, askSizes, spacingTicks: p.spacingTicks };
  const px = { bid: 0, ask: 0 };
  let ready = false;
  let nextRefitMs = -Infinity;
  let last: DesiredQuotes | null = null;
  let riskPerLotTicks = Number.NaN;
  let lastCalibration: ModelCalibration | null = null;
  // Adverse selection of our own maker fills per side (a trend picks off one side), measured from
  // the mid in force while the orders rested, each fill weighing its size in lots; averaged with
  // weights halving every volHalfLifeS (the regime time scale).
  const buyAdverse = new Ewma(p.volHalfLifeS * 1000);
  const sellAdverse = new Ewma(p.volHalfLifeS * 1000);
  let clockMs = 0;
  const buyMarkouts = new MarkoutTracker({ horizonsMs: [p.adverseHorizonS * 1000], onMarkout: (m) => buyAdverse.update(m.bps, clockMs, m.weight) });
  const sellMarkouts = new MarkoutTracker({ horizonsMs: [p.adverseHorizonS * 1000], onMarkout: (m) => sellAdverse.update(m.bps, clockMs, m.weight) });
  const lead = p.leadingFair ? new LeadingFair({ horizonMs: p.adverseHorizonS * 1000, halfLifeMs: p.intensityHalfLifeS * 1000 }) : null;
  const queue = p.queueAware ? new QueueTracker(p.volHalfLifeS * 1000) : null;
  const unwind = p.unwindAfterS !== undefined ? new TakerUnwind(p.unwindAfterS * 1000) : null;
  // What resting orders earn on every public print, per state of the trade flow (a side hit in
  // the direction the flow already runs loses): the market's own adverse selection, from far more
  // prints than our fills.
  // The edge guard files our fills by each side's flow state too: the estimator runs when either uses it.
  const flowState =
    p.flowState === 'off' && p.edgeGuard === 'off'
      ? null
      : new FlowStateMarkouts({ flowHalfLifeMs: p.flowStateHalfLifeS * 1000, horizonMs: p.adverseHorizonS * 1000, halfLifeMs: p.intensityHalfLifeS * 1000, lotSize: p.size });
  // What our own fills realised by regime, net of the fee: a side expected to lose backs off.
  const guard = p.edgeGuard === 'off' ? null : new EdgeGuard(p.edgeGuard, p.adverseHorizonS * 1000, p.intensityHalfLifeS * 1000);
  const shrink = p.edgeGuard === 'shrink';
  let prevMid = Number.NaN;
  let adverseBidBps = 0;
  let adverseAskBps = 0;
  const empty = (ctx: StrategyContext): DesiredQuotes => ({ symbol: ctx.symbol, bids: [], asks: [] });
  return {
    bookDepth: 1,
    // σ now is max(fast σ, σ): a volatility overlay must not widen for the same spike again.
    widensOnFastVolatility: true,
    calibrated: () => ready,
    calibration: () => lastCalibration,
    quote(ctx: StrategyContext): DesiredQuotes | StrategyPlan {
      const now = ctx.nowMs;
      clockMs = now;
      const mid = cal.observe(ctx, now);
      const fills = ctx.fills;
      for (let i = 0; i < fills.length; i++) {
        const f = fills[i]!;
        if (f.symbol !== ctx.symbol || f.liquidity !== 'maker' || !(prevMid > 0)) continue;
        (f.side === 'buy' ? buyMarkouts : sellMarkouts).fill(Math.min(f.tsMs, now), f.side, f.priceTicks, f.qty / p.size, prevMid);
        guard?.fill(f, f.qty / p.size, now);
      }
      const trades = ctx.trades;
      if (flow) for (let i = 0; i < trades.length; i++) flow.onTrade(trades[i]!.qty, trades[i]!.aggressor === 'buy', now);
      // An auction cross has no aggressor and no resting side to mark.
      if (flowState) for (let i = 0; i < trades.length; i++) if (trades[i]!.condition !== 'cross') flowState.onTrade(trades[i]!.priceTicks, trades[i]!.qty, trades[i]!.aggressor === 'buy', now);
      if (mid === null) return (last = empty(ctx));
      flowState?.updateMid(now, mid);
      buyMarkouts.updateMid(now, mid);
      sellMarkouts.updateMid(now, mid);
      guard?.updateMid(now, mid);
      prevMid = mid;
      const b = ctx.book!.bids[0]!;
      const a = ctx.book!.asks[0]!;
      let fair = mid;
      if (micro) {
        micro.update(b.priceTicks, b.qty, a.priceTicks, a.qty, now);
        fair = micro.value(b.priceTicks, b.qty, a.priceTicks, a.qty);
      } else if (weighted && a.qty + b.qty > 0) fair = (b.priceTicks * a.qty + a.priceTicks * b.qty) / (a.qty + b.qty);
      if (flow && flowReg) {
        flowReg.observe(flow.value, mid, now);
        fair += flowReg.predict(flow.value);
      }
      if (lead) {
        lead.update(ctx, b.priceTicks, b.qty, a.priceTicks, a.qty, now);
        fair += lead.shift;
      }
      // The next prints' depths are measured from the fair value the model's depths are applied to.
      cal.setReference(fair);
      if (now >= nextRefitMs) {
        nextRefitMs = now + p.refitIntervalMs;
        ready = refit(now);
        adverseBidBps = adverseBps(buyAdverse, now);
        adverseAskBps = adverseBps(sellAdverse, now);
      }
      const q = ctx.position.qty;
      const marketHalf = Math.max(0.5, cal.observedSpreadTicks / 2);
      // A fill pays the maker fee and the adverse move that follows our fills on its side (ticks).
      const feeTicks = ctx.fees.maker * fair;
      // Added to a depth, the extra counts in whole ticks (rounded): quotes snap outward, so a
      // measured fraction of a tick would otherwise cost a full tick of priority.
      const extraBid = (adverseBidBps / 1e4) * fair;
      const extraAsk = (adverseAskBps / 1e4) * fair;
      const adverseBidTicks = additive ? Math.round(extraBid) : extraBid;
      const adverseAskTicks = additive ? Math.round(extraAsk) : extraAsk;
      if (ready) {
        model.price(fair, q / p.size, now, px);
        // A model may leave the side that would grow the inventory past its bound unquoted
        // (±Infinity): the reducing side then keeps the model's price (it is the exit).
        if (Number.isFinite(px.bid) && Number.isFinite(px.ask)) {
          const r = (px.ask + px.bid) / 2;
          const half = Math.max((px.ask - px.bid) / 2, p.minSpreadShare * marketHalf);
          if (additive) {
            px.bid = r - Math.max(half, feeTicks) - adverseBidTicks;
            px.ask = r + Math.max(half, feeTicks) + adverseAskTicks;
          } else {
            px.bid = r - Math.max(half, feeTicks + adverseBidTicks);
            px.ask = r + Math.max(half, feeTicks + adverseAskTicks);
          }
        }
      } else {
        const half = p.fallbackWidth * marketHalf;
        const bidEdge = additive ? Math.max(half, feeTicks) + adverseBidTicks : Math.max(half, feeTicks + adverseBidTicks);
        const askEdge = additive ? Math.max(half, feeTicks) + adverseAskTicks : Math.max(half, feeTicks + adverseAskTicks);
        const r = fair - (q / p.maxPosition) * ((bidEdge + askEdge) / 2);
        px.bid = r - bidEdge;
        px.ask = r + askEdge;
      }
      if (flowState && p.flowState !== 'off') applyFlowState(flowState, p.flowState === 'pull', feeTicks, now, px);
      if (guard) guard.apply(now, a.priceTicks - b.priceTicks, flowState!.stateOf(1, now), flowState!.stateOf(-1, now), feeTicks, 2 * marketHalf, q, p.maxPosition, px);
      raw.bidTicks = px.bid - (lead ? lead.bidJumpTicks(now) : 0);
      raw.askTicks = px.ask + (lead ? lead.askJumpTicks(now) : 0);
      if (queue) {
        queue.update(ctx, now);
        raw.bidTicks = queueAdjust(ctx, queue, 'buy', raw.bidTicks, fair, feeTicks + adverseBidTicks);
        raw.askTicks = queueAdjust(ctx, queue, 'sell', raw.askTicks, fair, feeTicks + adverseAskTicks);
      }
      if (p.sizeDecay > 0 || shrink) {
        // The side that grows |q| quotes less, and with edgeGuard shrink a side expected to lose (at
        // least the minimum order; the hard cap still trims).
        const decay = p.sizeDecay > 0 ? Math.exp((-p.sizeDecay * Math.abs(q)) / p.maxPosition) : 1;
        const sized = (grows: boolean, share: number) => Math.max(ctx.instrument.minOrderSize, Math.round(p.size * (grows ? decay : 1) * share));
        bidSizes.fill(sized(q > 0, shrink ? guard!.bidSizeShare : 1));
        askSizes.fill(sized(q < 0, shrink ? guard!.askSizeShare : 1));
      }
      const out = (last = buildQuotes(ctx, raw, p.maxPosition, last));
      const hedge = unwind && ready ? unwind.plan(ctx, fair, p.size, p.maxPosition, riskPerLotTicks, now) : null;
      return hedge === null ? out : { quotes: [out], hedges: [hedge] };
    },
  };

  /** Refits σ, A, k, γ and the model at `nowMs`; false while not calibrated. */
  function refit(nowMs: number): boolean {
    const sigma = cal.sigmaNow;
    const sigmaLong = cal.sigmaLong;
    const sigmaRisk = sigmaLong > 0 ? sigmaLong : sigma;
    const fit = cal.fit(nowMs);
    if (!(sigma > 0) || fit === null) return false;
    const holdingS = holdingHorizonS(qMaxLots, fit.aPerS, p.holdingHorizonS);
    const gamma = p.gamma ?? riskBudgetGamma(p.riskAversion, qMaxLots, sigmaRisk, holdingS);
    if (!(gamma > 0)) return false;
    riskPerLotTicks = gamma * sigma * sigma * holdingS;
    lastCalibration = { sigma, sigmaRisk, fit, qMaxLots, gamma, holdingS, marketHalfSpreadTicks: cal.observedSpreadTicks / 2, nowMs };
    return model.refit(lastCalibration);
  }
}

/**
 * Backs each side off by what a resting order in its flow state loses on the public prints (mean
 * markout plus any maker rebate, ticks; rounded, since quotes snap outward), or with `pull` leaves
 * that side unquoted while its state loses. A side whose state earns is left where the model put it.
 */
function applyFlowState(f: FlowStateMarkouts, pull: boolean, feeTicks: number, nowMs: number, px: { bid: number; ask: number }): void {
  // A rebate offsets the loss; a positive fee is already in the model's floor, not counted twice.
  const rebate = Math.max(0, -feeTicks);
  const bidEdge = f.expectedTicks(1, nowMs) + rebate;
  const askEdge = f.expectedTicks(-1, nowMs) + rebate;
  if (bidEdge < 0) px.bid = pull ? -Infinity : px.bid - Math.round(-bidEdge);
  if (askEdge < 0) px.ask = pull ? Infinity : px.ask + Math.round(-askEdge);
}
