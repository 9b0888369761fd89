import { isDesiredQuotes, z, type Strategy, type StrategyDefinition } from '../../src/index.ts';
import { fixedSpreadParams, strategy as fixedSpread } from '../../strategies/fixed-spread/index.ts';

/** Parameters: the fixed-spread quoter's, plus the inventory exit that trades as taker. */
const params = z
  .object({
    quoter: z.record(z.string(), z.unknown()).describe('fixed-spread parameters'),
    exitAboveContracts: z.number().int().positive().describe('|position| at which an exit IOC is sent'),
    exitQty: z.number().int().positive().describe('contracts per exit'),
    cooldownS: z.number().positive().describe('seconds between exits'),
  })
  .strict();

/**
 * The golden run's strategy: fixed-spread quoting (maker fills) plus an inventory exit, an IOC at the
 * opposite touch once |position| passes a threshold (taker fills), so the drift guard covers both
 * kinds of fill and both fee rates.
 */
export const strategy: StrategyDefinition<typeof params> = {
  name: 'golden-quoter',
  description: 'fixed-spread quoting plus a taker inventory exit (the golden run)',
  params,
  create(p): Strategy {
    const inner = fixedSpread.create(fixedSpreadParams.parse(p.quoter));
    let nextExitMs = -Infinity;
    return {
      ...(inner.bookDepth !== undefined ? { bookDepth: inner.bookDepth } : {}),
      quote(ctx) {
        const q = inner.quote(ctx);
        const pos = ctx.position.qty;
        const bid = ctx.book?.bids[0]?.priceTicks;
        const ask = ctx.book?.asks[0]?.priceTicks;
        if (Math.abs(pos) < p.exitAboveContracts || ctx.nowMs < nextExitMs || bid === undefined || ask === undefined || !isDesiredQuotes(q)) return q;
        nextExitMs = ctx.nowMs + p.cooldownS * 1000;
        const sell = pos > 0;
        return { quotes: [q], hedges: [{ symbol: ctx.symbol, side: sell ? 'sell' : 'buy', qty: Math.min(p.exitQty, Math.abs(pos)), limitTicks: sell ? bid : ask }], wakeAtMs: nextExitMs };
      },
    };
  },
};

export default strategy;
