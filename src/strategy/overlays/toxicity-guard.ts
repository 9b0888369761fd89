import { z } from 'zod';
import { PARAM_RANGES } from '../param-ranges.ts';
import type { DesiredQuotes } from '../../domain/intents.ts';
import type { StrategyContext } from '../contract.ts';
import { MarkoutTracker } from '../estimators/markout-tracker.ts';
import { innerHalfSpread, type QuoteAdjustment } from './adjustment.ts';
import type { Overlay } from './overlay.ts';

/** Parameters of the toxicity guard. */
export const toxicityGuardSchema = z.strictObject({
  kind: z.literal('toxicity'),
  horizonMs: z.number().int().positive().max(PARAM_RANGES.intervalMs).default(5000).describe('Markout horizon of our fills, engine ms.'),
  window: z.number().int().min(1).max(PARAM_RANGES.count).default(20).describe('Recent fills per side in the mean markout.'),
  minFills: z.number().int().min(1).max(PARAM_RANGES.count).default(5).describe('Matured markouts of a side needed before the guard acts on it.'),
  sensitivity: z.number().positive().max(PARAM_RANGES.factor).default(1).describe('Extra half-spread per adverse move: widen = sensitivity × |mean markout| (converted to ticks).'),
  maxWidenSpreads: z.number().positive().max(PARAM_RANGES.factor).default(3).describe('Cap on the widening, in half-spreads of the inner quotes.'),
  stepBackSpreads: z.number().positive().max(PARAM_RANGES.factor).default(2).describe('When the adverse move exceeds this many half-spreads, also scale sizes by stepBackSizeMult.'),
  stepBackSizeMult: z.number().min(0).max(1).default(0.5).describe('Size multiplier while stepping back (0 pulls the quotes).'),
});

/** Parsed parameters. */
export type ToxicityGuardConfig = z.infer<typeof toxicityGuardSchema>;

/**
 * Toxicity guard: tracks the markouts of our own maker fills per side (mid `horizonMs` later vs the
 * mid in force before the fill, so the move that filled us counts; each fill weighted by its size),
 * with the shared MarkoutTracker; when a side's recent mean turns negative, that side (the one being
 * picked off) widens by sensitivity × its adverse move in ticks (capped), and past stepBackSpreads
 * half-spreads its size shrinks too. Recovers as new fills mark out better.
 */
export function toxicityGuard(c: ToxicityGuardConfig): Overlay {
  const buys = new MarkoutTracker({ horizonsMs: [c.horizonMs], recentWindow: c.window });
  const sells = new MarkoutTracker({ horizonsMs: [c.horizonMs], recentWindow: c.window });
  let prevMid = Number.NaN;
  return {
    kind: 'toxicity',
    adjust(ctx: StrategyContext, inner: DesiredQuotes, adj: QuoteAdjustment): void {
      const b = ctx.book?.bids[0]?.priceTicks;
      const a = ctx.book?.asks[0]?.priceTicks;
      const mid = a !== undefined && b !== undefined ? (a + b) / 2 : Number.NaN;
      // Fills first, against the mid before them; then the new mid.
      for (let i = 0; i < ctx.fills.length; i++) {
        const f = ctx.fills[i]!;
        if (f.symbol === ctx.symbol && f.liquidity === 'maker') (f.side === 'buy' ? buys : sells).fill(f.tsMs, f.side, f.priceTicks, f.qty, prevMid);
      }
      buys.updateMid(ctx.nowMs, mid);
      sells.updateMid(ctx.nowMs, mid);
      if (!Number.isNaN(mid)) prevMid = mid;
      if (Number.isNaN(mid)) return;
      const half = innerHalfSpread(inner);
      const ref = half > 0 ? half : 1;
      const bid = adverseTicks(buys, c.minFills, mid);
      const ask = adverseTicks(sells, c.minFills, mid);
      adj.bidWidenTicks += Math.min(c.maxWidenSpreads * ref, c.sensitivity * bid);
      adj.askWidenTicks += Math.min(c.maxWidenSpreads * ref, c.sensitivity * ask);
      if (bid > c.stepBackSpreads * ref) adj.bidSizeMult *= c.stepBackSizeMult;
      if (ask > c.stepBackSpreads * ref) adj.askSizeMult *= c.stepBackSizeMult;
    },
  };
}

/** The recent size-weighted adverse move of one side's fills in ticks (≥ 0; 0 before `minFills` matured). */
function adverseTicks(t: MarkoutTracker, minFills: number, mid: number): number {
  if (t.count(0) < minFills) return 0;
  const bps = t.recentWeightedMeanBps(0);
  return bps < 0 ? (-bps / 10_000) * mid : 0;
}
