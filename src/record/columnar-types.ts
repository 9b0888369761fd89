import type { FundingSettled, PriceObserved, TickerUpdated } from '../domain/events.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { RecordingGap, RecordingHeader, SessionEvent } from './format.ts';

/** Rare events kept as objects in a columnar recording. */
export type SideEvent = TickerUpdated | FundingSettled | PriceObserved | RecordingGap;

/**
 * A recording decoded once into typed arrays for replay: `JSON.parse` per event is far too slow for
 * a million events a second, so the replay loop reads numbers straight from these columns.
 *
 * Row i: `kind[i]` (KIND), `sym[i]` (index into `instruments`), `tsEvent/tsRecv`. For books, the
 * levels are `levels[2*j], levels[2*j+1]` (price ticks, qty) for j in [a[i], a[i] + b[i] + c[i]):
 * the first b[i] are bids, then c[i] asks; own-order rows (KIND.own) store levels the same way. For trades, a = price ticks, b = qty, c = ±TRADE_CODE
 * (format.ts: 1 regular, 2 hidden, 3 cross), + taker buy, − taker sell. For tickers, funding and gaps, a = index into `objects`.
 */
export interface ColumnarRecording {
  readonly headers: readonly RecordingHeader[];
  readonly instruments: readonly Instrument[];
  readonly length: number;
  readonly kind: Uint8Array;
  readonly sym: Uint16Array;
  readonly tsEvent: Float64Array;
  readonly tsRecv: Float64Array;
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly c: Int32Array;
  readonly levels: Float64Array;
  readonly objects: readonly SideEvent[];
  /**
   * The recording bot's own session (`q` round trips, `x` execution reports) in file order: not
   * rows (the replay does not consume them), read by the latency model and parity reports.
   */
  readonly session: readonly SessionEvent[];
  /**
   * Order-level (L3) recordings only (every file's header says `book_level: 3`): the resting order
   * sizes of level j, in queue order, are `orderQty[orderStart[j] .. orderStart[j + 1])` (j indexes
   * `levels` pairs; own-order rows have none). Absent for L2 data.
   */
  readonly orderStart?: Float64Array;
  readonly orderQty?: Float64Array;
  /** Order-level recordings with ids (every header says `order_ids`): each order's id, beside orderQty. */
  readonly orderId?: Float64Array;
  /** Lowest and highest price tick seen per symbol (books and trades), for dense book arrays. */
  readonly minTick: Float64Array;
  readonly maxTick: Float64Array;
}
