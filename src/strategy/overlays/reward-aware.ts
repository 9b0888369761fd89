import { z } from 'zod';
import { PARAM_RANGES } from '../param-ranges.ts';
import type { DesiredQuotes, QuoteLevel } from '../../domain/intents.ts';
import type { StrategyContext } from '../contract.ts';
import { Ewma } from '../estimators/ewma.ts';
import { MarkoutTracker } from '../estimators/markout-tracker.ts';
import type { QuoteAdjustment } from './adjustment.ts';
import type { Overlay } from './overlay.ts';

/** Parameters of the reward-aware overlay. */
export const rewardAwareSchema = z.strictObject({
  kind: z.literal('reward-aware'),
  poolUsdPerDay: z.number().positive().max(PARAM_RANGES.usd).describe('The program\'s reward pool for this symbol, USD per day (the venue does not publish it). Required.'),
  minRestMs: z.number().int().nonnegative().max(PARAM_RANGES.intervalMs).default(3000).describe('Minimum resting time for a quote to score, engine ms: a qualifying best quote is not moved before it.'),
  pullIn: z.boolean().default(false).describe('Also pull a best quote the inner strategy placed outside the spread limit to the limit (not only keep qualifying ones there).'),
  markoutHorizonMs: z.number().int().positive().max(PARAM_RANGES.intervalMs).default(5000).describe('Horizon of the markouts that estimate adverse selection, engine ms.'),
});

/** Parsed parameters. */
export type RewardAwareConfig = z.infer<typeof rewardAwareSchema>;

/**
 * Reward-aware quoting: while the expected reward (estimatedShare × pool per minute) beats the
 * expected adverse selection (our filled notional per minute × the recent adverse markout), the
 * best quotes that qualify for the liquidity program (within `ctx.rewards.maxSpreadBps` of the mid,
 * at least `minNotionalUsd`) are kept qualifying: other overlays may not widen them past the limit or
 * shrink them under the minimum size, and they rest at least `minRestMs`. Does nothing without
 * `ctx.rewards`.
 */
export function rewardAware(c: RewardAwareConfig): Overlay {
  const markouts = new MarkoutTracker({ horizonsMs: [c.markoutHorizonMs], recentWindow: 50 });
  const notionalPerMin = new Ewma(1_800_000);
  let filledUsd = 0;
  let lastMs = Number.NaN;
  let active = false;
  let prevMid = Number.NaN;
  let limitTicks = Infinity;
  const held = { bid: { px: Number.NaN, sinceMs: 0 }, ask: { px: Number.NaN, sinceMs: 0 } };
  return {
    kind: 'reward-aware',
    adjust(ctx: StrategyContext, inner: DesiredQuotes, adj: QuoteAdjustment): void {
      const now = ctx.nowMs;
      const b = ctx.book?.bids[0]?.priceTicks;
      const a = ctx.book?.asks[0]?.priceTicks;
      const mid = a !== undefined && b !== undefined ? (a + b) / 2 : Number.NaN;
      const usdPerTick = ctx.instrument.grid.tickSize.toNumber() * ctx.instrument.multiplier.toNumber();
      // Fills first, against the mid in force before them (the move that filled us is adverse
      // selection too); then the new mid.
      for (let i = 0; i < ctx.fills.length; i++) {
        const f = ctx.fills[i]!;
        if (f.symbol !== ctx.symbol) continue;
        filledUsd += f.qty * f.priceTicks * usdPerTick;
        if (f.liquidity === 'maker') markouts.fill(f.tsMs, f.side, f.priceTicks, f.qty, prevMid);
      }
      markouts.updateMid(now, mid);
      if (!Number.isNaN(mid)) prevMid = mid;
      if (Number.isNaN(lastMs)) lastMs = now;
      else if (now - lastMs >= 10_000) {
        const dtMin = (now - lastMs) / 60_000;
        notionalPerMin.update(filledUsd / dtMin, now, dtMin);
        filledUsd = 0;
        lastMs = now;
      }
      active = false;
      const r = ctx.rewards;
      if (r === null || Number.isNaN(mid)) return;
      const rewardPerMin = (r.estimatedShare * c.poolUsdPerDay) / 1440;
      const mo = markouts.recentWeightedMeanBps(0);
      const adversePerMin = mo < 0 && notionalPerMin.value > 0 ? (-mo / 10_000) * notionalPerMin.value : 0;
      if (!(rewardPerMin >= adversePerMin)) return;
      active = true;
      limitTicks = (r.maxSpreadBps / 10_000) * mid;
      const minQty = Math.ceil(r.minNotionalUsd / (mid * usdPerTick));
      adj.maxBidDistanceTicks = Math.min(adj.maxBidDistanceTicks, limitTicks);
      adj.maxAskDistanceTicks = Math.min(adj.maxAskDistanceTicks, limitTicks);
      adj.minBidQty = Math.max(adj.minBidQty, minQty);
      adj.minAskQty = Math.max(adj.minAskQty, minQty);
    },
    finish(ctx: StrategyContext, out: DesiredQuotes): DesiredQuotes {
      const b = ctx.book?.bids[0]?.priceTicks;
      const a = ctx.book?.asks[0]?.priceTicks;
      if (!active || a === undefined || b === undefined) {
        held.bid.px = held.ask.px = Number.NaN;
        return out;
      }
      const mid = (a + b) / 2;
      let bids = out.bids;
      let asks = out.asks;
      if (c.pullIn) {
        bids = pull(bids, Math.ceil(mid - limitTicks - 1e-9), true);
        asks = pull(asks, Math.floor(mid + limitTicks + 1e-9), false);
      }
      bids = hold(bids, held.bid, ctx.nowMs, c.minRestMs, (px) => px < a && mid - px <= limitTicks, true);
      asks = hold(asks, held.ask, ctx.nowMs, c.minRestMs, (px) => px > b && px - mid <= limitTicks, false);
      return bids === out.bids && asks === out.asks ? out : { symbol: out.symbol, bids, asks };
    },
  };
}

/** Moves a best level beyond `limitPx` to it (keeping the ladder strictly ordered). */
function pull(levels: readonly QuoteLevel[], limitPx: number, isBid: boolean): readonly QuoteLevel[] {
  const l = levels[0];
  if (!l || (isBid ? l.priceTicks >= limitPx : l.priceTicks <= limitPx)) return levels;
  const out = levels.slice();
  out[0] = { priceTicks: limitPx, qty: l.qty };
  for (let i = 1; i < out.length; i++) {
    const p = out[i - 1]!.priceTicks;
    const x = out[i]!;
    if (isBid ? x.priceTicks >= p : x.priceTicks <= p) out[i] = { priceTicks: isBid ? p - 1 : p + 1, qty: x.qty };
  }
  return out;
}

/** Keeps the previous best price for `minRestMs` while it still qualifies and stays post-only. */
function hold(levels: readonly QuoteLevel[], h: { px: number; sinceMs: number }, nowMs: number, minRestMs: number, ok: (px: number) => boolean, isBid: boolean): readonly QuoteLevel[] {
  const l = levels[0];
  if (!l) {
    h.px = Number.NaN;
    return levels;
  }
  if (l.priceTicks === h.px) return levels;
  const keep = !Number.isNaN(h.px) && nowMs - h.sinceMs < minRestMs && ok(h.px) && (levels.length < 2 || (isBid ? h.px > levels[1]!.priceTicks : h.px < levels[1]!.priceTicks));
  if (!keep) {
    h.px = l.priceTicks;
    h.sinceMs = nowMs;
    return levels;
  }
  const out = levels.slice();
  out[0] = { priceTicks: h.px, qty: l.qty };
  return out;
}
