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
  | 'order-budget'
  | 'manual';

/** Every kill-switch reason (the config's `triggers` keys, in snake_case). */
export const KILL_SWITCH_REASONS: readonly KillSwitchReason[] = ['drawdown', 'daily-loss', 'reject-storm', 'stale-market-data', 'lost-connection', 'order-budget', 'manual'];

/**
 * What a trip does: `pause` pulls every quote and keeps the process and the position (quoting
 * resumes on `mmbot ctl resume`, or by itself when the condition clears if `autoResume`); `stop`
 * pulls every quote and stops the daemon (cancel all, exit).
 */
export type KillSwitchAction = 'stop' | 'pause';

const RANK: Record<TradingState, number> = { ACTIVE: 0, REDUCING: 1, HALTED: 2 };

/** The more restrictive of two states. */
export const stricterState = (a: TradingState, b: TradingState): TradingState => (RANK[a] >= RANK[b] ? a : b);
