/**
 * The fidelity bench's quoter (a strategy module loaded by path): one order a side, priced off the
 * recorded touch rather than the mid, so "inside the spread" and "at the touch" mean what they say
 * on a wide, multi-tick book. `offsetTicks` −1: one tick inside each touch when the spread is at
 * least 3 ticks (else at the touch); 0: at the touch; k > 0: k ticks behind it. A side is dropped
 * at ±maxPosition.
 */
import { z, type DesiredQuotes, type StrategyContext, type StrategyDefinition } from '../../../src/index.ts';

const params = z.strictObject({
  offsetTicks: z.number().int().min(-1).max(20).default(0),
  size: z.number().int().positive().default(100),
  maxPosition: z.number().int().positive().default(500),
});

export const strategy: StrategyDefinition<typeof params> = {
  name: 'touch-quoter',
  description: 'one order a side at the touch, one tick inside it, or k ticks behind it',
  params,
  create(p) {
    return {
      bookDepth: 1,
      quote(ctx: StrategyContext): DesiredQuotes {
        const bid = ctx.book?.bids[0]?.priceTicks;
        const ask = ctx.book?.asks[0]?.priceTicks;
        if (bid === undefined || ask === undefined) return { symbol: ctx.symbol, bids: [], asks: [] };
        const inside = p.offsetTicks < 0 && ask - bid >= 3;
        const b = inside ? bid + 1 : bid - Math.max(0, p.offsetTicks);
        const a = inside ? ask - 1 : ask + Math.max(0, p.offsetTicks);
        const q = ctx.position.qty;
        return {
          symbol: ctx.symbol,
          bids: q < p.maxPosition ? [{ priceTicks: b, qty: p.size }] : [],
          asks: q > -p.maxPosition ? [{ priceTicks: a, qty: p.size }] : [],
        };
      },
    };
  },
};

export default strategy;
