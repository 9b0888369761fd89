import {
  bookMid,
  distanceTicks,
  inventorySizeMultipliers,
  ladder,
  microprice,
  PARAM_RANGES,
  sideCapacity,
  z,
  type DesiredQuotes,
  type Strategy,
  type StrategyContext,
  type StrategyDefinition,
} from '../../src/index.ts';

/** Parameters (units in the names; see README.md). */
export const fixedSpreadParams = z
  .object({
    /** Levels per side (1..20). */
    levels: z.number().int().min(1).max(20).default(1).describe('Levels per side (1..20).'),
    /** Distance from fair value to the first bid/ask, in ticks... */
    halfSpreadTicks: z.number().positive().max(PARAM_RANGES.ticks).optional().describe('Distance from fair value to the first bid/ask, ticks (default 2 when neither this nor halfSpreadBps is set).'),
    /** ...or in basis points of fair value. Default 2 ticks when neither is set. */
    halfSpreadBps: z.number().positive().max(PARAM_RANGES.bps).optional().describe('Distance from fair value to the first bid/ask, bps of fair value.'),
    /** Distance between levels in ticks (integer ≥ 1)... */
    spacingTicks: z.number().int().positive().max(PARAM_RANGES.ticks).optional().describe('Ticks between levels (default 1).'),
    /** ...or in basis points of fair value (rounded to ≥ 1 tick). Default 1 tick. */
    spacingBps: z.number().positive().max(PARAM_RANGES.bps).optional().describe('Distance between levels in bps of fair value (rounded to ≥ 1 tick).'),
    /** Contracts per level. */
    size: z.number().int().positive().max(PARAM_RANGES.contracts).default(1).describe('Contracts per level.'),
    /** Contracts per level, best first (overrides `size`; missing levels use `size`). */
    sizes: z.array(z.number().int().nonnegative().max(PARAM_RANGES.contracts)).max(20).optional().describe('Contracts per level, best first (overrides size; missing levels use size).'),
    /** Inventory size skew: range in contracts over which the bid multiplier moves 1 → 0 (long) or 1 → 2 (short). */
    skewRangeContracts: z.number().positive().max(PARAM_RANGES.contracts).optional().describe('Inventory size skew: contracts over which the bid multiplier moves 1 → 0 (long) or 1 → 2 (short); off when unset.'),
    /** Target position for the skew, contracts. */
    targetPosition: z.number().int().min(-PARAM_RANGES.contracts).max(PARAM_RANGES.contracts).default(0).describe('Target position of both skews, contracts.'),
    /** Hard cap: the side that would push |position| past this is trimmed (contracts). */
    maxPosition: z.number().int().positive().max(PARAM_RANGES.contracts).optional().describe('Hard cap, contracts: a side is trimmed so |position + in-flight + new| ≤ this; off when unset.'),
    /** Fair value: the mid, or the size-weighted mid of the best levels. */
    fairValue: z.enum(['mid', 'microprice']).default('mid').describe('Fair value: the mid, or the size-weighted mid of the best levels.'),
    /**
     * Price skew: both quotes shift by −priceSkew·half-spread·(q − target)/range (clamped to ±1), the
     * range being priceSkewRangeContracts, else maxPosition. 0 = off (default); 1 puts the exit quote
     * at the fair value at full range.
     */
    priceSkew: z.number().nonnegative().max(4).default(0).describe('Price skew: quotes shift by −priceSkew·half-spread·(q − target)/range (clamped to ±1); 0 = off.'),
    /** Inventory range of the price skew in contracts (default maxPosition). */
    priceSkewRangeContracts: z.number().positive().max(PARAM_RANGES.contracts).optional().describe('Inventory at full price skew, contracts (default maxPosition).'),
  })
  .strict()
  .refine((p) => p.priceSkew === 0 || p.priceSkewRangeContracts !== undefined || p.maxPosition !== undefined, {
    message: 'priceSkew needs priceSkewRangeContracts or maxPosition (the inventory at full skew)',
    path: ['priceSkew'],
  })
  .refine((p) => !(p.halfSpreadTicks !== undefined && p.halfSpreadBps !== undefined), { message: 'set halfSpreadTicks or halfSpreadBps, not both' })
  .refine((p) => !(p.spacingTicks !== undefined && p.spacingBps !== undefined), { message: 'set spacingTicks or spacingBps, not both' });

/** Parsed parameters. */
export type FixedSpreadParams = z.infer<typeof fixedSpreadParams>;

/** Builds a fixed-spread quoter. */
export function createFixedSpread(p: FixedSpreadParams): Strategy {
  // Parameters read into locals once: the parsed params object may not be a fast-property object,
  // and quote() runs on every market event.
  const levels = p.levels;
  const baseSizes = Array.from({ length: levels }, (_, i) => p.sizes?.[i] ?? p.size);
  const bidSizes = new Array<number>(levels);
  const askSizes = new Array<number>(levels);
  const useMicroprice = p.fairValue === 'microprice';
  const halfD = { ticks: p.halfSpreadTicks, bps: p.halfSpreadBps };
  const spacingD = { ticks: p.spacingTicks, bps: p.spacingBps };
  const skewRange = p.skewRangeContracts;
  const target = p.targetPosition;
  const cap = p.maxPosition;
  const priceSkew = p.priceSkew;
  const priceSkewRange = p.priceSkewRangeContracts ?? p.maxPosition ?? 1;
  const flat = { bid: 1, ask: 1 };
  // The last ladder and everything it was built from: most book updates leave the touch-derived
  // prices and the position alone, and then the same (immutable) quotes are returned again.
  let last: DesiredQuotes | null = null;
  let lastSymbol: string | null = null;
  let lastBid0 = NaN;
  let lastAsk0 = NaN;
  let lastSpacing = NaN;
  let lastQ = NaN;
  let lastMinSize = NaN;
  let lastCapBid = NaN;
  let lastCapAsk = NaN;
  // The working orders and position the hard-cap room was computed from.
  let capWorking: StrategyContext['workingOrders'] | null = null;
  let capQ = NaN;
  let roomBid = 0;
  let roomAsk = 0;
  let noQuotes: DesiredQuotes | null = null;
  return {
    // Mid and microprice read the best level of each side only.
    bookDepth: 1,
    // Trades move none of its inputs (the touch, the position, the working orders).
    readsTrades: false,
    // The ladder is a function of the book's touch, the position and the working orders, never of
    // the time: with those unchanged the engine's tick need not ask again.
    stableUntilMs: () => Infinity,
    quote(ctx: StrategyContext): DesiredQuotes {
      const fair = useMicroprice ? microprice(ctx.book) : bookMid(ctx.book);
      if (fair === null) return noQuotes !== null && noQuotes.symbol === ctx.symbol ? noQuotes : (noQuotes = { symbol: ctx.symbol, bids: [], asks: [] });
      const half = distanceTicks(halfD, fair, 2);
      const spacing = Math.max(1, Math.round(distanceTicks(spacingD, fair, 1)));
      const q = ctx.position.qty;
      const r = priceSkew === 0 ? fair : fair - priceSkew * half * Math.max(-1, Math.min(1, (q - target) / priceSkewRange));
      let bid0 = Math.floor(r - half);
      let ask0 = Math.ceil(r + half);
      if (ask0 <= bid0) {
        bid0 = Math.floor(r - 0.5);
        ask0 = bid0 + 1;
      }
      if (priceSkew !== 0) {
        // A skewed quote may reach the far touch: keep it post-only.
        const bestBid = ctx.book!.bids[0]!.priceTicks;
        const bestAsk = ctx.book!.asks[0]!.priceTicks;
        if (bid0 >= bestAsk) bid0 = bestAsk - 1;
        if (ask0 <= bestBid) ask0 = bestBid + 1;
      }
      const minSize = ctx.instrument.minOrderSize;
      // The hard cap counts in-flight orders (being cancelled or replaced) as exposure. The engine
      // hands out the same frozen working-order array until an order changes, so the scan (and its
      // result object) is redone only when that array or the position changed.
      if (cap !== undefined && (ctx.workingOrders !== capWorking || q !== capQ)) {
        const room = sideCapacity(ctx, cap);
        capWorking = ctx.workingOrders;
        capQ = q;
        roomBid = room.bid;
        roomAsk = room.ask;
      }
      const capBid = cap === undefined ? Infinity : roomBid;
      const capAsk = cap === undefined ? Infinity : roomAsk;
      if (last !== null && bid0 === lastBid0 && ask0 === lastAsk0 && spacing === lastSpacing && q === lastQ && minSize === lastMinSize && capBid === lastCapBid && capAsk === lastCapAsk && ctx.symbol === lastSymbol) return last;
      const m = skewRange !== undefined ? inventorySizeMultipliers(q - target, skewRange) : flat;
      for (let i = 0; i < levels; i++) {
        bidSizes[i] = baseSizes[i]! * m.bid;
        askSizes[i] = baseSizes[i]! * m.ask;
      }
      last = {
        symbol: ctx.symbol,
        bids: ladder(bid0, spacing, bidSizes, true, minSize, capBid),
        asks: ladder(ask0, spacing, askSizes, false, minSize, capAsk),
      };
      lastSymbol = ctx.symbol;
      lastBid0 = bid0;
      lastAsk0 = ask0;
      lastSpacing = spacing;
      lastQ = q;
      lastMinSize = minSize;
      lastCapBid = capBid;
      lastCapAsk = capAsk;
      return last;
    },
  };
}

/** The `fixed-spread` strategy definition. */
export const strategy: StrategyDefinition<typeof fixedSpreadParams> = {
  name: 'fixed-spread',
  description: 'Ladder around the mid (or microprice) with inventory size skew, an optional price skew and an optional position cap',
  params: fixedSpreadParams,
  create: createFixedSpread,
};

export default strategy;
