import type { DesiredQuotes } from '../../domain/intents.ts';
import type { Strategy, StrategyContext } from '../contract.ts';
import type { QuoteAdjustment } from './adjustment.ts';

/**
 * A quote overlay: stateful estimators, pure decisions (no I/O, no timers). Called on every
 * evaluation of the wrapped strategy with the inner strategy's quotes for the primary symbol.
 */
export interface Overlay {
  readonly kind: string;
  /** Adds this overlay's shift, widening, size multipliers or limits to `adj`. */
  adjust(ctx: StrategyContext, inner: DesiredQuotes, adj: QuoteAdjustment): void;
  /** Optional: told once which strategy it wraps (e.g. whether its quotes already widen on fast σ). */
  bind?(inner: Strategy): void;
  /** Optional last look at the adjusted quotes (e.g. keep a qualifying quote resting). */
  finish?(ctx: StrategyContext, out: DesiredQuotes): DesiredQuotes;
}
