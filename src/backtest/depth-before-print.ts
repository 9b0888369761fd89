import type { QueueState } from './queue-model.ts';

/**
 * Trades and depth come from separate streams, so the book frame that shows a print's volume gone
 * can arrive before the print. The exchange clock is monotone (the runner clamps venue time), so a
 * print that happened no later than that frame is processed at the frame's instant: a print at the
 * level at the same exchange time as a frame that moved our order up is taken to be that volume,
 * not a new trade. A print at a later instant is a new trade (LOBSTER, whose execution message
 * comes before its book row, never nets: a cancel ahead and a later execution both count).
 */

/**
 * A book frame at `frameMs` moved `q` up by `advanced` (queue ahead that left the level). Frames at
 * one instant add up; a frame at a later instant replaces what an earlier one left unmatched.
 */
export function noteDepthAdvance(q: QueueState, advanced: number, frameMs: number): void {
  if (!(advanced > 0)) return;
  q.depthAhead = (q.depthAheadMs === frameMs ? (q.depthAhead ?? 0) : 0) + advanced;
  q.depthAheadMs = frameMs;
}

/**
 * A print of `volume` at `q`'s level at exchange time `printMs`: returns the part of it a frame at
 * that instant already applied to the queue (and forgets that much), so the caller advances the
 * queue by the rest only.
 */
export function seenInDepth(q: QueueState, volume: number, printMs: number): number {
  const ahead = q.depthAhead ?? 0;
  if (ahead <= 0 || q.depthAheadMs !== printMs) return 0;
  const seen = Math.min(ahead, volume);
  q.depthAhead = ahead - seen;
  return seen;
}
