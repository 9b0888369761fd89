/**
 * When each recorded row happens on the exchange side and when the bot sees it. A recording is in
 * receive order, and its streams (book frames, trades) travel with different delays, so a print
 * can be received after a book frame stamped later than it. The exchange side replays rows in
 * venue-time order within a reorder window: a late row is processed at its own venue time, before
 * the rows received earlier but stamped later, unless it is later than the window, when it is
 * processed `reorderWindowMs` behind the latest venue time seen so far (the clock never runs back
 * further). A window of 0 is the strictly monotone clamp (every late row moved forward).
 */

/** Exchange and local times per row and the exchange-side processing order. */
export interface VenueTimeline {
  /** Local (bot) time per row: receipt + offset, monotone, never before the exchange time of any row received so far. */
  readonly lT: Float64Array;
  /** Row indexes in exchange processing order: by `xT`, rows at one time in recording order. */
  readonly order: Uint32Array;
  /**
   * The exchange time of row `order[k]` at `k` (non-decreasing): its venue time, never after its
   * receipt, and no earlier than the window behind the latest venue time received before it.
   */
  readonly xAt: Float64Array;
}

/**
 * Builds the timeline of rows `[0, n)`. `offsetMs` is added to every receive time
 * (`feed.latency_offset_ms`); `reorderWindowMs` ≥ 0 bounds how far a row may be processed before
 * rows received ahead of it. One pass; a row in venue order is appended, a late one inserted
 * (one step per row it passes, rows within the window only); no allocation but the three columns.
 */
export function venueTimeline(tsEvent: Float64Array, tsRecv: Float64Array, n: number, offsetMs: number, reorderWindowMs: number): VenueTimeline {
  const lT = new Float64Array(n);
  const order = new Uint32Array(n);
  const xAt = new Float64Array(n);
  let maxX = -Infinity;
  let pl = -Infinity;
  for (let i = 0; i < n; i++) {
    const recv = tsRecv[i]! + offsetMs;
    const ev = tsEvent[i]!;
    let x = ev < recv ? ev : recv;
    if (x >= maxX) {
      maxX = x;
      order[i] = i;
      xAt[i] = x;
    } else {
      const floor = maxX - reorderWindowMs;
      if (x < floor) x = floor;
      // A late row moves back past the later-stamped rows only (stable: ties keep receive order).
      let k = i;
      while (k > 0 && xAt[k - 1]! > x) {
        order[k] = order[k - 1]!;
        xAt[k] = xAt[k - 1]!;
        k--;
      }
      order[k] = i;
      xAt[k] = x;
    }
    // The bot never sees a row before the exchange has processed every row received so far.
    if (recv > pl) pl = recv;
    if (maxX > pl) pl = maxX;
    lT[i] = pl;
  }
  return { lT, order, xAt };
}

/** How many rows of one kind are processed after their own venue time, and by how much. */
export interface LateRows {
  readonly rows: number;
  readonly late: number;
  /** Sum of the late rows' `weight` (a print's size) and of all rows'. */
  readonly lateWeight: number;
  readonly totalWeight: number;
  readonly meanLateMs: number;
  readonly maxLateMs: number;
}

/**
 * Rows with `kind[i] === want` whose exchange time is after their venue time (capped at their
 * receipt: a row stamped after it was received is not late), weighted by `weight[i]`.
 */
export function lateRows(t: VenueTimeline, tsEvent: ArrayLike<number>, tsRecv: ArrayLike<number>, offsetMs: number, kind: ArrayLike<number>, want: number, weight: ArrayLike<number>): LateRows {
  let rows = 0;
  let late = 0;
  let lateWeight = 0;
  let totalWeight = 0;
  let sum = 0;
  let max = 0;
  for (let k = 0; k < t.order.length; k++) {
    const i = t.order[k]!;
    if (kind[i] !== want) continue;
    rows++;
    totalWeight += weight[i]!;
    const d = t.xAt[k]! - Math.min(tsEvent[i]!, tsRecv[i]! + offsetMs);
    if (d <= 0) continue;
    late++;
    lateWeight += weight[i]!;
    sum += d;
    if (d > max) max = d;
  }
  return { rows, late, lateWeight, totalWeight, meanLateMs: late > 0 ? sum / late : 0, maxLateMs: max };
}
