/**
 * Trading states: ACTIVE quotes both sides; REDUCING only lets orders that shrink |position| through;
 * HALTED sends nothing but cancels. The effective state of a symbol is the most restrictive of the
 * engine-wide state, the symbol's own state and what the instrument's venue state allows.
 */
export type TradingState = 'ACTIVE' | 'REDUCING' | 'HALTED';

/** Why the kill switch tripped. */
export type KillSwitchReason =
  | 'drawdown'
  | 'daily-loss'
  | 'reject-storm'
  | 'stale-market-data'
  | 'lost-connection'
  | 'manual';

/** Kill-switch reasons that clear by themselves when the condition goes away (if configured). */
export const SELF_CLEARING_REASONS: ReadonlySet<KillSwitchReason> = new Set(['stale-market-data', 'lost-connection']);

const RANK: Record<TradingState, number> = { ACTIVE: 0, REDUCING: 1, HALTED: 2 };

/** The more restrictive of two states. */
export const stricterState = (a: TradingState, b: TradingState): TradingState => (RANK[a] >= RANK[b] ? a : b);
