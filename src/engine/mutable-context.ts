import type { Symbol } from '../core/ids.ts';
import type { FeeRates } from '../domain/fee-rates.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { OwnFill, PositionView, ReferencePrice, RewardView, StrategyContext, SymbolView, WorkingOrder } from '../strategy/contract.ts';

/** A mutable StrategyContext the engine refreshes before each call (no allocation per evaluation). */
export interface MutableContext {
  symbol: Symbol;
  instrument: Instrument;
  nowMs: number;
  book: StrategyContext['book'];
  ticker: StrategyContext['ticker'];
  lastTrade: StrategyContext['lastTrade'];
  trades: StrategyContext['trades'];
  funding: StrategyContext['funding'];
  markTicks: number | null;
  indexTicks: number | null;
  references: ReadonlyMap<string, ReferencePrice>;
  position: PositionView;
  workingOrders: readonly WorkingOrder[];
  rewards: RewardView | null;
  fees: FeeRates;
  symbols: readonly Symbol[];
  fills: readonly OwnFill[];
  view(symbol: Symbol): SymbolView;
}
