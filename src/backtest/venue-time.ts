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
  /** Exchange time per row (row index): its venue time, never after its receipt, held within the window. */
  readonly xT: Float64Array;
  /** Local (bot) time per row: receipt + offset, monotone, never before the exchange time of any row received so far. */
  readonly lT: Float64Array;
  /** Row indexes in exchange processing order: by `xT`, rows at one time in recording order. */
  readonly order: Uint32Array;
}

/**
 * Builds the timeline of rows `[0, n)`. `offsetMs` is added to every receive time
 * (`feed.latency_offset_ms`); `reorderWindowMs` ≥ 0 bounds how far a row may be processed before
 * rows received ahead of it. One pass plus an insertion sort, which costs one step per row that a
 * late row passes (rows within the window only); no allocation but the three columns.
 */
export function venueTimeline(tsEvent: ArrayLike<number>, tsRecv: ArrayLike<number>, n: number, offsetMs: number, reorderWindowMs: number): VenueTimeline {
  const xT = new Float64Array(n);
  const lT = new Float64Array(n);
  const order = new Uint32Array(n);
  let maxX = -Infinity;
  let pl = -Infinity;
  for (let i = 0; i < n; i++) {
    const recv = tsRecv[i]! + offsetMs;
    const e = Math.min(tsEvent[i]!, recv);
    const floor = maxX - reorderWindowMs;
    const x = e > floor ? e : floor;
    if (x > maxX) maxX = x;
    xT[i] = x;
    // The bot never sees a row before the exchange has processed every row received so far.
    pl = Math.max(pl, recv, maxX);
    lT[i] = pl;
    // Insertion into the processing order: a late row moves back past the later-stamped rows only.
    let k = i;
    while (k > 0 && xT[order[k - 1]!]! > x) {
      order[k] = order[k - 1]!;
      k--;
    }
    order[k] = i;
  }
  return { xT, lT, order };
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
  for (let i = 0; i < t.xT.length; i++) {
    if (kind[i] !== want) continue;
    rows++;
    totalWeight += weight[i]!;
    const d = t.xT[i]! - Math.min(tsEvent[i]!, tsRecv[i]! + offsetMs);
    if (d <= 0) continue;
    late++;
    lateWeight += weight[i]!;
    sum += d;
    if (d > max) max = d;
  }
  return { rows, late, lateWeight, totalWeight, meanLateMs: late > 0 ? sum / late : 0, maxLateMs: max };
}
