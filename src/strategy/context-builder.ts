import { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import type { Symbol } from '../core/ids.ts';
import type { OwnFill, PositionView, ReferencePrice, StrategyContext, SymbolView } from './contract.ts';

/** A flat position with zero PnL. */
export function flatPosition(qty = 0): PositionView {
  const zero = new Decimal(0);
  return { qty, avgPriceTicks: null, realizedPnl: zero, unrealizedPnl: zero, fees: zero, funding: zero };
}

/** What `buildContext` needs: the primary symbol's view fields (symbol and instrument required). */
export type ContextInput = Partial<Omit<StrategyContext, 'view' | 'symbols'>> &
  Pick<SymbolView, 'symbol' | 'instrument'> & {
    /** Views of the other symbols a multi-symbol strategy declares. */
    readonly others?: readonly (Partial<SymbolView> & Pick<SymbolView, 'symbol' | 'instrument'>)[];
  };

const NO_REFS: ReadonlyMap<string, ReferencePrice> = new Map();
const NO_FILLS: readonly OwnFill[] = [];
/** Fee-free unless a test says otherwise. */
const NO_FEES = Object.freeze({ maker: 0, taker: 0 });

/** Fills every field a caller left out with "nothing known": no book, flat, no orders. */
function fullView(v: Partial<SymbolView> & Pick<SymbolView, 'symbol' | 'instrument'>): SymbolView {
  return {
    book: null,
    ticker: null,
    lastTrade: null,
    trades: [],
    funding: null,
    markTicks: null,
    indexTicks: null,
    references: NO_REFS,
    position: flatPosition(),
    workingOrders: [],
    rewards: null,
    fees: NO_FEES,
    ...v,
  };
}

/**
 * A complete StrategyContext from the fields you care about: for unit tests of strategies and for
 * research notebooks. The engine builds its own (reused) contexts; this one is a plain object.
 */
export function buildContext(input: ContextInput): StrategyContext {
  const { others = [], nowMs = 0, fills = NO_FILLS, ...primary } = input;
  const main = fullView(primary);
  const views = new Map<Symbol, SymbolView>([[main.symbol, main], ...others.map((o) => [o.symbol, fullView(o)] as const)]);
  return {
    ...main,
    nowMs,
    fills,
    symbols: [...views.keys()],
    view(symbol: Symbol): SymbolView {
      const v = views.get(symbol);
      if (!v) throw new MmError('INVARIANT_BROKEN', `the strategy asked for ${symbol}, which it does not declare`, { symbol });
      return v;
    },
  };
}
