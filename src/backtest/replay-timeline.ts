import { MmError } from '../core/errors.ts';
import { seededRandomU32 } from '../core/ulid.ts';
import { KIND } from '../record/format.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import type { BacktestSettings } from './settings.ts';

/** The replay's stage one (prepare): each row's exchange and local time, the window, the own-order rows. */
export interface ReplayTimeline {
  /** Exchange time per row (venue time, clamped monotone and never after local). */
  readonly xT: Float64Array;
  /** Local (bot receive) time per row: recorded receive + offset (+ jitter), clamped monotone. */
  readonly lT: Float64Array;
  /** Rows of the recording bot's own orders (`o` lines). */
  readonly ownRows: readonly number[];
  /** The window: rows [i0, i1). */
  readonly i0: number;
  readonly i1: number;
}

/** Seed salt of the feed jitter stream (independent of the latency model's stream on the same seed). */
const JITTER_SALT = 0x9e3779b9;

/**
 * Exchange and local times of every row and the replay window. With `feedJitterMs` > 0, every
 * receive time gets a seeded exponential delay of that mean (a slower or noisier link than the
 * recorder's; the monotone clamp keeps the feed in order). One pass over the recording.
 * @throws MmError CONFIG_INVALID when start_ms/end_ms select no events.
 */
export function replayTimeline(col: ColumnarRecording, settings: BacktestSettings): ReplayTimeline {
  const n = col.length;
  const xT = new Float64Array(n);
  const lT = new Float64Array(n);
  let px = -Infinity;
  let pl = -Infinity;
  // Columns and settings read into locals (this pass runs over the whole recording before every
  // replay), own rows collected here instead of in a second pass.
  const tsRecv = col.tsRecv;
  const tsEvent = col.tsEvent;
  const kind = col.kind;
  const offsetMs = settings.feedLatencyOffsetMs;
  const jitter = settings.feedJitterMs ?? 0;
  const rand = jitter > 0 ? seededRandomU32((settings.seed ^ JITTER_SALT) >>> 0) : null;
  const ownKind = KIND.own;
  const ownRows: number[] = [];
  for (let i = 0; i < n; i++) {
    // Exponential of mean `jitter`: −mean × ln(1 − u), u in [0, 1).
    const recv = tsRecv[i]! + offsetMs + (rand ? -jitter * Math.log(1 - rand() / 4294967296) : 0);
    px = Math.max(px, Math.min(tsEvent[i]!, recv));
    pl = Math.max(Math.max(pl, recv), px);
    xT[i] = px;
    lT[i] = pl;
    if (kind[i] === ownKind) ownRows.push(i);
  }
  let i0 = 0;
  if (settings.startMs !== null) while (i0 < n && tsRecv[i0]! < settings.startMs) i0++;
  let i1 = n;
  if (settings.endMs !== null) while (i1 > i0 && tsRecv[i1 - 1]! >= settings.endMs) i1--;
  if (i1 <= i0) throw new MmError('CONFIG_INVALID', 'backtest.start_ms/end_ms select no events of the recording');
  return { xT, lT, ownRows, i0, i1 };
}
