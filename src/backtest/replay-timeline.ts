import { MmError } from '../core/errors.ts';
import { seededRandomU32 } from '../core/ulid.ts';
import { KIND } from '../record/format.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import type { BacktestSettings } from './settings.ts';
import { venueTimeline } from './venue-time.ts';

/** The replay's stage one (prepare): each row's exchange and local time, the window, the own-order rows. */
export interface ReplayTimeline {
  /** Local (bot receive) time per row: recorded receive + offset (+ jitter), clamped monotone, never before the exchange processed every row received so far. */
  readonly lT: Float64Array;
  /** The rows in the order the exchange processes them (venue time within the reorder window; venue-time.ts). */
  readonly order: Uint32Array;
  /** The exchange time of `order[k]`, non-decreasing. */
  readonly xAt: Float64Array;
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
  const tsRecv = col.tsRecv;
  const kind = col.kind;
  const jitter = settings.feedJitterMs ?? 0;
  // Jitter: each receive time gets a seeded exponential delay of mean `jitter`, −mean × ln(1 − u).
  let recvTimes = tsRecv;
  if (jitter > 0) {
    const rand = seededRandomU32((settings.seed ^ JITTER_SALT) >>> 0);
    recvTimes = new Float64Array(n);
    for (let i = 0; i < n; i++) recvTimes[i] = tsRecv[i]! - jitter * Math.log(1 - rand() / 4294967296);
  }
  const { lT, order, xAt } = venueTimeline(col.tsEvent, recvTimes, n, settings.feedLatencyOffsetMs, settings.reorderWindowMs);
  const ownKind = KIND.own;
  const ownRows: number[] = [];
  for (let i = 0; i < n; i++) if (kind[i] === ownKind) ownRows.push(i);
  let i0 = 0;
  if (settings.startMs !== null) while (i0 < n && tsRecv[i0]! < settings.startMs) i0++;
  let i1 = n;
  if (settings.endMs !== null) while (i1 > i0 && tsRecv[i1 - 1]! >= settings.endMs) i1--;
  if (i1 <= i0) throw new MmError('CONFIG_INVALID', 'backtest.start_ms/end_ms select no events of the recording');
  return { lT, order, xAt, ownRows, i0, i1 };
}
