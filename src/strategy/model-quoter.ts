import { z } from 'zod';
import type { DesiredQuotes } from '../domain/intents.ts';
import { MarketCalibrator } from './calibration.ts';
import type { Strategy, StrategyContext } from './contract.ts';
import type { IntensityFit } from './estimators/intensity.ts';
import { Ewma } from './estimators/ewma.ts';
import { SideLossDepth } from './estimators/loss-feedback.ts';
import { MarkoutTracker } from './estimators/markout-tracker.ts';
import { MicropriceEstimator } from './estimators/microprice.ts';
import { TradeFlowImbalance } from './estimators/order-flow.ts';
import { PredictiveRegression } from './estimators/predictive-regression.ts';
import { LeadingFair } from './leading-fair.ts';
import { queueAdjust, QueueTracker } from './queue-aware.ts';
import { buildQuotes } from './quote-builder.ts';

/** Parameters every model quoter (avellaneda-stoikov, glft) shares; only size and maxPosition are required. */
export const modelBaseShape = {
  size: z.number().int().positive().describe('Contracts per level; also the model\'s lot (q = position / size). Required.'),
  maxPosition: z.number().int().positive().describe('Hard cap in contracts: a side is trimmed so |position + in-flight + new| ≤ this. Required.'),
  levels: z.number().int().min(1).max(20).default(1).describe('Levels per side, laid outward from the model quotes.'),
  spacingTicks: z.number().int().positive().default(1).describe('Ticks between levels.'),
  inventorySkew: z
    .number()
    .positive()
    .max(4)
    .default(1)
    .describe('Dimensionless risk aversion: the quote shift at maxPosition, in units of the larger of the quoted half-spread (the market\'s plus the model\'s) and σ√τ, the long-run price risk of a full inventory over its turnover time τ = (maxPosition/size)/A. Sets γ from the calibrated σ, A, k unless gamma is given.'),
  inventoryRisk: z
    .boolean()
    .default(true)
    .describe('Scale the inventory skew at maxPosition by at least σ√τ (the long-run price risk of a full inventory over its turnover time), not only by the half-spread: holds less inventory where σ is large against the spread; false = half-spreads only.'),
  gamma: z.number().positive().optional().describe('Risk aversion γ in 1/(tick·lot); overrides inventorySkew.'),
  fairValue: z
    .enum(['mid', 'weighted-mid', 'microprice'])
    .default('mid')
    .describe('Fair value s: the mid, the size-weighted mid of the touch, or the learnt microprice (mid + average next-second move per imbalance bucket).'),
  sizeDecay: z.number().nonnegative().default(0).describe('η: the side that grows |q| quotes size·e^(−η·|q|/maxPosition) (0 = off).'),
  volHalfLifeS: z.number().positive().default(300).describe('Half-life of the σ estimate, seconds (mid sampled every second).'),
  intensityHalfLifeS: z.number().positive().default(1800).describe('Half-life of the trade-intensity (A, k) estimate, seconds.'),
  refitIntervalMs: z.number().int().positive().default(1000).describe('Engine ms between refits of σ, A, k and γ.'),
  fallbackWidth: z
    .number()
    .positive()
    .default(1)
    .describe('Until σ, A and k are calibrated: half-spread = fallbackWidth × half the observed touch spread (1 = join the touch, 2 = one full spread from the fair value), with the same fee and adverse-selection floor and a linear inventory skew.'),
  minSpreadShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('The quoted half-spread is at least this share of half the observed touch spread: on a wide book the model may improve the touch but not quote far inside it.'),
  adverseHorizonS: z
    .number()
    .positive()
    .default(10)
    .describe('Horizon of the markouts of our own maker fills, seconds: the half-spread is floored at the maker fee plus the mean adverse mid move this long after our recent fills. Also the horizon the trade-flow signal predicts over.'),
  adverseSelection: z
    .enum(['add', 'floor'])
    .default('add')
    .describe('How the measured adverse selection of a side enters its quote: add (Cartea–Jaimungal: the expected mid move against a fill is added to the model\'s depth, which is floored at the maker fee) or floor (the half-spread is at least fee + adverse move).'),
  lossFeedback: z
    .number()
    .min(0)
    .max(1)
    .default(0.1)
    .describe('Bps of extra depth per bps lost: each maker fill\'s PnL adverseHorizonS later, side × (mid then − fill price) in bps, moves its side\'s depth by −lossFeedback × that PnL (losses push the side out, gains bring it back, never inside the model\'s quote; at most one observed market spread, each fill counting at most ±3 spreads; the extra halves every volHalfLifeS; the side reducing the inventory backs off less the larger it is, not at all at maxPosition): a side whose fills keep losing backs off until they break even or stop. 0 = off.'),
  flowAlpha: z
    .boolean()
    .default(true)
    .describe('Shift the fair value by the mid move over adverseHorizonS that the public trade-flow imbalance predicts, as an online regression measures it (shrunk to 0 unless significant).'),
  leadingFair: z
    .boolean()
    .default(false)
    .describe('Off by default: on the AMZN morning (the development window) it helped avellaneda-stoikov and hurt glft by as much (strategies/README.md). Lead the fair value by the mid move over adverseHorizonS that touch imbalance, order-flow imbalance and trade-flow imbalance predict (an online regression, each coefficient kept only while significant), and widen the side a jump of the mid went against by the jump for a second (LeadingFair).'),
  queueAware: z
    .boolean()
    .default(true)
    .describe('Queue-aware first level: join the touch or improve it by a tick by expected value (fill probability from the estimated queue ahead × edge after fee and adverse move), and keep a resting order\'s price while the model\'s move gains less edge than re-queuing loses (QueueTracker).'),
  fastVolHalfLifeS: z
    .number()
    .positive()
    .default(30)
    .describe('Half-life of the fast σ estimate, seconds: the models price with max(fast σ, σ), so a jump widens within seconds and the widening decays with volHalfLifeS; γ is set against the long-run σ (intensityHalfLifeS).'),
} as const;

/** Fills of prior weight on "no adverse selection": the measured adverse move counts W/(W + this) of itself, W the decayed fill count. */
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

const baseObject = z.object(modelBaseShape);
/** Parsed shared parameters. */
export type ModelBaseParams = z.infer<typeof baseObject>;

/** What a model sees at a refit: calibrated inputs in engine units. */
export interface ModelCalibration {
  /** σ now in ticks/√s (max of the fast and the regular estimate): what the quotes are priced with. */
  readonly sigma: number;
  /** Long-run σ in ticks/√s: what a calibrated γ is set against, so σ changes move the quotes. */
  readonly sigmaRisk: number;
  readonly fit: IntensityFit;
  /** maxPosition in lots. */
  readonly qMaxLots: number;
  /** Half the observed (average) touch spread, ticks: part of the half-spread γ's skew is set against. */
  readonly marketHalfSpreadTicks: number;
  readonly nowMs: number;
}

/** A model: refit on calibrated inputs (false = not usable yet), then price quotes from fair and q. */
export interface QuoteModel {
  refit(c: ModelCalibration): boolean;
  /**
   * Writes raw bid/ask prices (fractional ticks) into `out`. The calibrated intensity is the rate of
   * prints δ beyond the touch, but a fill's edge is its distance from the fair value: the model's
   * optimal distance (≈ 1/k) is taken from the fair value, so when it is inside the touch the quote
   * joins or improves the touch (the quoter's floors then apply) instead of sitting 1/k behind it.
   */
  price(fair: number, qLots: number, nowMs: number, out: { bid: number; ask: number }): void;
}

/**
 * A strategy around a {@link QuoteModel}: calibrates online from every call's view, refits every
 * `refitIntervalMs`, quotes at the touch until calibrated (fallbackWidth × half the observed spread,
 * linear inventory skew), floors every half-spread at the maker fee plus the measured adverse
 * selection of our own fills (and the model's at minSpreadShare × half the observed spread), lays
 * levels, keeps post-only and enforces the hard cap counting in-flight orders.
 */
export function createModelQuoter(p: ModelBaseParams, model: QuoteModel): Strategy & { readonly calibrated: () => boolean } {
  const cal = new MarketCalibrator({ volHalfLifeMs: p.volHalfLifeS * 1000, intensityHalfLifeMs: p.intensityHalfLifeS * 1000, fastVolHalfLifeMs: p.fastVolHalfLifeS * 1000 });
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
  // Adverse selection of our own maker fills per side (a trend picks off one side), measured from
  // the mid in force while the orders rested.
  // Their markouts are averaged with weights halving every volHalfLifeS (the regime time scale).
  const buyAdverse = new Ewma(p.volHalfLifeS * 1000);
  const sellAdverse = new Ewma(p.volHalfLifeS * 1000);
  let clockMs = 0;
  const buyMarkouts = new MarkoutTracker({ horizonsMs: [p.adverseHorizonS * 1000], onMarkout: (m) => buyAdverse.update(m.bps, clockMs) });
  const sellMarkouts = new MarkoutTracker({ horizonsMs: [p.adverseHorizonS * 1000], onMarkout: (m) => sellAdverse.update(m.bps, clockMs) });
  // What each side's fills earned at the horizon, edge included (reference = the fill price).
  const loss = p.lossFeedback > 0 ? new SideLossDepth(p.lossFeedback, p.volHalfLifeS * 1000, p.adverseHorizonS * 1000) : null;
  const lead = p.leadingFair ? new LeadingFair({ horizonMs: p.adverseHorizonS * 1000, halfLifeMs: p.intensityHalfLifeS * 1000 }) : null;
  const queue = p.queueAware ? new QueueTracker(p.volHalfLifeS * 1000) : null;
  let prevMid = Number.NaN;
  let adverseBidBps = 0;
  let adverseAskBps = 0;
  const empty = (ctx: StrategyContext): DesiredQuotes => ({ symbol: ctx.symbol, bids: [], asks: [] });
  return {
    bookDepth: 1,
    calibrated: () => ready,
    quote(ctx: StrategyContext): DesiredQuotes {
      const now = ctx.nowMs;
      clockMs = now;
      const mid = cal.observe(ctx, now);
      const fills = ctx.fills;
      for (let i = 0; i < fills.length; i++) {
        const f = fills[i]!;
        if (f.symbol !== ctx.symbol || f.liquidity !== 'maker' || !(prevMid > 0)) continue;
        (f.side === 'buy' ? buyMarkouts : sellMarkouts).fill(Math.min(f.tsMs, now), f.side, f.priceTicks, 1, prevMid);
        loss?.fill(f, p.size, now);
      }
      if (flow) {
        const trades = ctx.trades;
        for (let i = 0; i < trades.length; i++) flow.onTrade(trades[i]!.qty, trades[i]!.aggressor === 'buy', now);
      }
      if (mid === null) return (last = empty(ctx));
      buyMarkouts.updateMid(now, mid);
      sellMarkouts.updateMid(now, mid);
      loss?.updateMid(now, mid);
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
      if (now >= nextRefitMs) {
        nextRefitMs = now + p.refitIntervalMs;
        const sigma = cal.sigmaNow;
        const sigmaLong = cal.sigmaLong;
        const sigmaRisk = sigmaLong > 0 ? sigmaLong : sigma;
        const fit = cal.fit(now);
        ready = sigma > 0 && fit !== null && model.refit({ sigma, sigmaRisk, fit, qMaxLots, marketHalfSpreadTicks: cal.observedSpreadTicks / 2, nowMs: now });
        adverseBidBps = adverseBps(buyAdverse, now);
        adverseAskBps = adverseBps(sellAdverse, now);
      }
      const q = ctx.position.qty;
      const qLots = q / p.size;
      const marketHalf = Math.max(0.5, cal.observedSpreadTicks / 2);
      // A fill pays the maker fee and the adverse move that follows our fills on its side (ticks).
      const feeTicks = ctx.fees.maker * fair;
      // Added to a depth, the adverse move counts in whole ticks (rounded): quotes snap outward, so
      // a measured fraction of a tick would otherwise cost a full tick of priority.
      const adverseBidTicks = additive ? Math.round((adverseBidBps / 1e4) * fair) : (adverseBidBps / 1e4) * fair;
      const adverseAskTicks = additive ? Math.round((adverseAskBps / 1e4) * fair) : (adverseAskBps / 1e4) * fair;
      // What the side's fills still lose at the depth quoted (whole ticks, as the adverse move), at
      // most one observed market spread.
      let lossBidTicks = 0;
      let lossAskTicks = 0;
      if (loss) {
        loss.update(now, fair, 2 * marketHalf, q, p.maxPosition);
        lossBidTicks = Math.round(loss.bidTicks);
        lossAskTicks = Math.round(loss.askTicks);
      }
      if (ready) {
        model.price(fair, qLots, now, px);
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
        const r = fair - p.inventorySkew * (q / p.maxPosition) * ((bidEdge + askEdge) / 2);
        px.bid = r - bidEdge;
        px.ask = r + askEdge;
      }
      raw.bidTicks = px.bid - lossBidTicks - (lead ? lead.bidJumpTicks(now) : 0);
      raw.askTicks = px.ask + lossAskTicks + (lead ? lead.askJumpTicks(now) : 0);
      if (queue) {
        queue.update(ctx, now);
        raw.bidTicks = queueAdjust(ctx, queue, 'buy', raw.bidTicks, fair, feeTicks + adverseBidTicks);
        raw.askTicks = queueAdjust(ctx, queue, 'sell', raw.askTicks, fair, feeTicks + adverseAskTicks);
      }
      if (p.sizeDecay > 0) {
        const shrink = Math.exp((-p.sizeDecay * Math.abs(q)) / p.maxPosition);
        const bid = q > 0 ? Math.floor(p.size * shrink) : p.size;
        const ask = q < 0 ? Math.floor(p.size * shrink) : p.size;
        bidSizes.fill(bid);
        askSizes.fill(ask);
      }
      const out = buildQuotes(ctx, raw, p.maxPosition);
      if (last !== null && sameQuotes(last, out)) return last;
      return (last = out);
    },
  };
}

/** True when two ladders are the same prices and sizes (lets the engine skip the diff). */
function sameQuotes(x: DesiredQuotes, y: DesiredQuotes): boolean {
  if (x.symbol !== y.symbol || x.bids.length !== y.bids.length || x.asks.length !== y.asks.length) return false;
  for (let i = 0; i < x.bids.length; i++) if (x.bids[i]!.priceTicks !== y.bids[i]!.priceTicks || x.bids[i]!.qty !== y.bids[i]!.qty) return false;
  for (let i = 0; i < x.asks.length; i++) if (x.asks[i]!.priceTicks !== y.asks[i]!.priceTicks || x.asks[i]!.qty !== y.asks[i]!.qty) return false;
  return true;
}
