/** Position mapping: REST `/api/positions` row → domain VenuePosition. */
import type { Result } from '../../core/result.ts';
import type { VenuePosition } from '../../domain/position.ts';
import type { DecodeError } from '../decode/kit.ts';
import type { WirePosition } from '../types/rest-portfolio.ts';
import { dateTimeToMs, decimal, mapping } from './kit.ts';

/** Maps a position row (cost basis, realized PnL, last fill time). Never throws. */
export const toVenuePosition = (w: WirePosition): Result<VenuePosition, DecodeError> =>
  mapping(() => ({
    qty: w.signed_quantity,
    costBasis: decimal(w.signed_cost_basis),
    realizedPnl: decimal(w.realized_pnl),
    lastFillMs: w.timestamp === null ? null : dateTimeToMs(w.timestamp, '$.timestamp'),
  }));
