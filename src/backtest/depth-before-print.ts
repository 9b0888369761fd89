import type { QueueState } from './queue-model.ts';

/**
 * Trades and depth come from separate streams, so the book frame that shows a print's volume gone
 * can come before the print. The runner replays rows in venue-time order within its reorder window
 * (venue-time.ts), so a print stamped no later than the frame is processed before it and needs no
 * netting; what is left is a print the venue stamped a little after the frame that shows it (the
 * two streams stamp one trade apart), or one received later than the reorder window (then moved
 * up to the window's edge). A print at the level within `windowMs` after a frame that moved our
 * order up is taken to be that volume, not a new trade (`backtest.venue_time.netting_window_ms`;
 * 0 = the same instant only). A print later than that is a new trade (LOBSTER, whose execution
 * message comes before its book row, never nets: a cancel ahead and a later execution both count).
 */

/**
 * A book frame at `frameMs` moved `q` up by `advanced` (queue ahead that left the level). Frames
 * within `windowMs` of the last remembered one add up; a later frame replaces what an earlier one
 * left unmatched.
 */
export function noteDepthAdvance(q: QueueState, advanced: number, frameMs: number, windowMs = 0): void {
  if (!(advanced > 0)) return;
  const last = q.depthAheadMs;
  q.depthAhead = (last !== undefined && frameMs - last <= windowMs ? (q.depthAhead ?? 0) : 0) + advanced;
  q.depthAheadMs = frameMs;
}

/**
 * A print of `volume` at `q`'s level at exchange time `printMs`: returns the part of it a frame at
 * most `windowMs` before already applied to the queue (and forgets that much), so the caller
 * advances the queue by the rest only.
 */
export function seenInDepth(q: QueueState, volume: number, printMs: number, windowMs = 0): number {
  const ahead = q.depthAhead ?? 0;
  if (ahead <= 0 || q.depthAheadMs === undefined || printMs - q.depthAheadMs > windowMs) return 0;
  const seen = Math.min(ahead, volume);
  q.depthAhead = ahead - seen;
  return seen;
}
