import { z } from 'zod';
import { PARAM_RANGES } from '../param-ranges.ts';
import type { DesiredQuotes } from '../../domain/intents.ts';
import type { Strategy, StrategyContext } from '../contract.ts';
import { EwmaVolatility } from '../estimators/volatility.ts';
import { innerHalfSpread, type QuoteAdjustment } from './adjustment.ts';
import type { Overlay } from './overlay.ts';

/** Parameters of the volatility-widening overlay. */
export const volatilityWideningSchema = z.strictObject({
  kind: z.literal('volatility'),
  fastHalfLifeS: z.number().positive().max(PARAM_RANGES.seconds).default(30).describe('Half-life of the fast σ estimate, seconds.'),
  slowHalfLifeS: z.number().positive().max(PARAM_RANGES.seconds).default(900).describe('Half-life of the slow (baseline) σ estimate, seconds.'),
  sensitivity: z.number().positive().max(PARAM_RANGES.factor).default(1).describe('Extra half-spread per unit of excess volatility: widen = sensitivity·(σ_fast/σ_slow − 1)·half-spread.'),
  maxWidenSpreads: z.number().positive().max(PARAM_RANGES.factor).default(2).describe('Cap on the widening, in half-spreads of the inner quotes.'),
  sizeCut: z.boolean().default(false).describe('Also scale sizes by σ_slow/σ_fast when volatility is above baseline.'),
});

/** Parsed parameters. */
export type VolatilityWideningConfig = z.infer<typeof volatilityWideningSchema>;

/**
 * Volatility widening: when the fast σ of the mid (ticks/√s, 1 s samples) runs above its slow
 * baseline, both sides move out by sensitivity·(σ_fast/σ_slow − 1) half-spreads of the inner
 * quotes (capped); optionally sizes shrink by σ_slow/σ_fast. Dimensionless: no price constants.
 * Over a strategy whose quotes already widen with a fast σ (`widensOnFastVolatility`: the model
 * quoters price with max(fast σ, σ)) it does not widen again (that would count the spike twice);
 * the size cut still applies.
 */
export function volatilityWidening(c: VolatilityWideningConfig): Overlay {
  const fast = new EwmaVolatility(c.fastHalfLifeS * 1000, 1000, 10);
  const slow = new EwmaVolatility(c.slowHalfLifeS * 1000, 1000, 30);
  let innerWidens = false;
  return {
    kind: 'volatility',
    bind(inner: Strategy): void {
      innerWidens = inner.widensOnFastVolatility === true;
    },
    adjust(ctx: StrategyContext, inner: DesiredQuotes, adj: QuoteAdjustment): void {
      const b = ctx.book?.bids[0]?.priceTicks;
      const a = ctx.book?.asks[0]?.priceTicks;
      if (a === undefined || b === undefined) return;
      const mid = (a + b) / 2;
      fast.update(mid, ctx.nowMs);
      slow.update(mid, ctx.nowMs);
      const sf = fast.sigmaPerSqrtS;
      const ss = slow.sigmaPerSqrtS;
      if (!(sf > 0) || !(ss > 0) || sf <= ss) return;
      const half = innerHalfSpread(inner);
      const ref = half > 0 ? half : 1;
      const widen = innerWidens ? 0 : Math.min(c.maxWidenSpreads * ref, c.sensitivity * (sf / ss - 1) * ref);
      adj.bidWidenTicks += widen;
      adj.askWidenTicks += widen;
      if (c.sizeCut) {
        adj.bidSizeMult *= ss / sf;
        adj.askSizeMult *= ss / sf;
      }
    },
  };
}
