import { z } from 'zod';
import type { DesiredQuotes } from '../../domain/intents.ts';
import type { StrategyContext } from '../contract.ts';
import { MarkoutTracker } from '../estimators/markout-tracker.ts';
import { innerHalfSpread, type QuoteAdjustment } from './adjustment.ts';
import type { Overlay } from './overlay.ts';

/** Parameters of the toxicity guard. */
export const toxicityGuardSchema = z.strictObject({
  kind: z.literal('toxicity'),
  horizonMs: z.number().int().positive().default(5000).describe('Markout horizon of our fills, engine ms.'),
  window: z.number().int().min(1).default(20).describe('Recent fills in the mean markout.'),
  minFills: z.number().int().min(1).default(5).describe('Matured markouts needed before the guard acts.'),
  sensitivity: z.number().positive().default(1).describe('Extra half-spread per adverse move: widen = sensitivity × |mean markout| (converted to ticks).'),
  maxWidenSpreads: z.number().positive().default(3).describe('Cap on the widening, in half-spreads of the inner quotes.'),
  stepBackSpreads: z.number().positive().default(2).describe('When the adverse move exceeds this many half-spreads, also scale sizes by stepBackSizeMult.'),
  stepBackSizeMult: z.number().min(0).max(1).default(0.5).describe('Size multiplier while stepping back (0 pulls the quotes).'),
});

/** Parsed parameters. */
export type ToxicityGuardConfig = z.infer<typeof toxicityGuardSchema>;

/**
 * Toxicity guard: tracks the markout of our own fills (mid `horizonMs` later vs the mid at the fill,
 * signed so positive is in our favour) with the shared MarkoutTracker; when the recent mean turns
 * negative, both sides widen by sensitivity × the adverse move in ticks (capped), and past
 * stepBackSpreads half-spreads sizes shrink too. Recovers as new fills mark out better.
 */
export function toxicityGuard(c: ToxicityGuardConfig): Overlay {
  const tracker = new MarkoutTracker({ horizonsMs: [c.horizonMs], recentWindow: c.window });
  return {
    kind: 'toxicity',
    adjust(ctx: StrategyContext, inner: DesiredQuotes, adj: QuoteAdjustment): void {
      const b = ctx.book?.bids[0]?.priceTicks;
      const a = ctx.book?.asks[0]?.priceTicks;
      const mid = a !== undefined && b !== undefined ? (a + b) / 2 : Number.NaN;
      tracker.updateMid(ctx.nowMs, mid);
      for (let i = 0; i < ctx.fills.length; i++) {
        const f = ctx.fills[i]!;
        if (f.symbol === ctx.symbol && f.liquidity === 'maker') tracker.fill(f.tsMs, f.side, f.priceTicks, f.qty);
      }
      if (Number.isNaN(mid) || tracker.stats(0).count < c.minFills) return;
      const markoutBps = tracker.recentMeanBps(0);
      if (!(markoutBps < 0)) return;
      const adverseTicks = (-markoutBps / 10_000) * mid;
      const half = innerHalfSpread(inner);
      const ref = half > 0 ? half : 1;
      const widen = Math.min(c.maxWidenSpreads * ref, c.sensitivity * adverseTicks);
      adj.bidWidenTicks += widen;
      adj.askWidenTicks += widen;
      if (adverseTicks > c.stepBackSpreads * ref) {
        adj.bidSizeMult *= c.stepBackSizeMult;
        adj.askSizeMult *= c.stepBackSizeMult;
      }
    },
  };
}
