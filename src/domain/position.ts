import type { Decimal } from '../core/decimal.ts';

/**
 * One symbol's position as the venue books it (`GET /api/positions`): what a restart seeds from and
 * what the periodic position check compares with. `lastFillMs` is the venue time of the newest fill
 * the position includes: every fill up to it is already in `qty`, every later one is not.
 */
export interface VenuePosition {
  /** Signed contracts. */
  readonly qty: number;
  /** Signed cost basis (entry price × qty × multiplier, USD); null when the source does not say. */
  readonly costBasis: Decimal | null;
  /** The venue's realized PnL on the symbol (fees excluded, cumulative); null when the source does not say. */
  readonly realizedPnl: Decimal | null;
  /** Venue time (epoch ms) of the newest fill in the position; null when unknown or never filled. */
  readonly lastFillMs: number | null;
}
