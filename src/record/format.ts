/**
 * The mmbot recording format, version 3 (L2 books), 4 (order-level books) and 5 (order-level books
 * with order ids): gzip-compressed JSON
 * Lines (version 1 files, which cannot hold `o` lines, and version 2 files, which cannot hold
 * `q`/`x`/`p` lines, are still read). A version 4 file is a version 3 file whose header says
 * `"book_level":3` and whose book levels carry their resting orders; the writer uses version 3 for
 * L2 recordings, so they stay readable by mmbot that predates order-level books. A version 5 file is
 * a version 4 file whose header also says `"order_ids":true` and whose levels carry each order's id
 * (a source with ids: LOBSTER, market-by-order feeds); readers of versions ≤ 4 refuse it by its
 * version (they would replay its queues by size inference without knowing better), and the venue's
 * LEVEL_3 recordings, which have no ids, stay version 4.
 *
 * Line 1 is the header: `{"format":"mmbot-recording","version":3,"symbols":[...],"instruments":{SYM:{...}},
 * "started_at":<epoch ms>,"source":"..."}`, plus `"fees":{SYM:{"maker":"0.0002","taker":"0.0005"}}` when
 * the source's fee rates are known: imports of third-party data carry the source's, a daemon's
 * recording the trading account's (whoami); order-level recordings add `"book_level":3` (version 4).
 * Every following line is one event with `t` first, the symbol
 * `s`, venue time `e` and receive time `r` (epoch ms, possibly fractional). Prices are integer ticks of
 * the header's `tick_size` for that symbol; quantities are integer contracts. Event kinds:
 *
 * - `b` book: `f` 1 = full snapshot (replace the book), 0 = delta against the previous book of that
 *   symbol (a level with q 0 is removed); `b`/`a` = `[[priceTicks, qty], ...]` best first, each
 *   price at most once per side (a reader refuses a line that repeats one: the order of a delta's
 *   entries has no meaning, so `1000 → 0, then → 500` at one price is not a change it can apply).
 *   The writer stores a snapshot first, after every gap, and every `keyframeEvery` books; deltas otherwise.
 *   Order-level (L3, version 4): each level is `[priceTicks, qty, [q1, q2, ...]]`, the sizes of the
 *   individual resting orders at that price in queue (time) order, Σ = qty (the venue's LEVEL_3
 *   channel: no order ids). A delta carries each changed level with its whole order list (a level
 *   whose total is unchanged but whose orders changed is a change); a removed level is `[p, 0, []]`.
 *   With order ids (version 5): `[priceTicks, qty, [q1, ...], [id1, ...]]`, the ids (safe integers;
 *   negative for orders the source never named, e.g. LOBSTER's orders resting before the file starts)
 *   in the same order; a removed level is `[p, 0, [], []]`. The replay then matches queues by id.
 * - `t` trade: `p` price ticks, `q` qty, `d` taker side `B`/`S`; optional `c` condition: `h` hidden (it
 *   traded a non-displayed order: no displayed queue consumed; an off-grid price, e.g. a half-cent
 *   midpoint execution, is written rounded away from the aggressor, to the resting side's worse
 *   tick), `x` cross (an auction: no aggressor, `d` is `B` by convention, no resting order traded).
 * - `k` ticker: `last lq mark bid ask bl bu lsp lst st v oi ef` (ticks or null; `ef` = funding estimate).
 * - `f` funding settlement: `rate amt bp sp` decimal strings (amount is USD per contract).
 * - `p` outside price (version 3): `src` = `index` (the venue's index/underlying price) or an external reference
 *   feed's name, `p` = price in the symbol's ticks (fractional allowed: not on the grid).
 * - `o` own orders: the recording bot's working orders on symbol `s` after an order event (venue time
 *   `e` of the event), aggregated per price: `b`/`a` = `[[priceTicks, remainingQty], ...]` best first,
 *   a full replacement of the previous `o` line of that symbol (empty arrays = none). Written only
 *   when a bot records while it trades (the daemon's `recording:` section); a replay subtracts them
 *   from the recorded levels so the replayed bot does not queue behind its own live orders.
 * - `q` round trip (version 3): one request of the recording bot answered: `op` = place, replace,
 *   cancel, cancel_all, status or open_orders, `ms` = the round trip (request sent → answer) as the
 *   daemon measured it (the figures behind `mmbot_order_round_trip_latency_seconds`), `ok` 1/0; `e` =
 *   when the request left, `r` = when the answer came (the bot's clock); `s` the symbol or null.
 * - `x` execution report (version 3): one order event of the recording bot, as it received it:
 *   `k` = acc (accepted), can (canceled), rej (rejected), rep (replaced: `oid` is the new order),
 *   exp (expired) or fil (filled); `oid` venue order id, `d` side `B`/`S`, `p` limit price ticks,
 *   `q` order qty; fills add `fp` fill price ticks, `fq` fill qty, `l` `M` (maker) / `T` (taker) and
 *   `tid` the trade id. These are the live run's ground truth for `mmbot backtest --parity`.
 * - `g` gap: the stream was interrupted from `e` (last receive before the drop) to `r` (resubscribed);
 *   `s` is null when every symbol was affected. A snapshot of each book follows a gap.
 */
import type { Symbol } from '../core/ids.ts';
import type { BookLevel } from '../domain/book.ts';
import type { Side } from '../domain/enums.ts';
import type { BookUpdated, FundingSettled, PriceObserved, TickerUpdated, TradePrinted } from '../domain/events.ts';
import type { InstrumentJson } from './instrument-json.ts';

/** The format name in the header. */
export const RECORDING_FORMAT = 'mmbot-recording';
/** The format version this code writes for L2 recordings. */
export const RECORDING_VERSION = 3;
/** The format version of order-level (L3) recordings (`book_level: 3`, levels with order lists). */
export const RECORDING_VERSION_L3 = 4;
/** The format version of order-level recordings with order ids (`order_ids: true`). */
export const RECORDING_VERSION_L3_IDS = 5;
/** Versions this code reads (1 = no `o` lines, 2 = no `q`/`x`/`p` lines, 4 = order-level books, 5 = with order ids). */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4, 5];

/** Trade conditions in the columnar `c` column: |c| (the sign is the taker side). */
export const TRADE_CODE = { regular: 1, hidden: 2, cross: 3 } as const;

/** The header line of a recording. */
export interface RecordingHeader {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: 1 | 2 | 3 | 4 | 5;
  readonly symbols: readonly string[];
  readonly instruments: Readonly<Record<string, InstrumentJson>>;
  /** Epoch ms when recording started. */
  readonly started_at: number;
  /** Where the data came from (a URL or "local-venue"); informational. */
  readonly source: string;
  /**
   * Fee rates per symbol as decimal fractions of notional (`"0.0002"` = 2 bps), when known: imported
   * third-party data carries the source's, a daemon's recording the trading account's (whoami).
   * Absent otherwise (the venue's default schedule applies).
   */
  readonly fees?: Readonly<Record<string, { readonly maker: string; readonly taker: string }>>;
  /** 3: book levels carry their individual orders (version 4); absent = aggregated levels (L2). */
  readonly book_level?: 3;
  /** true: every order-level book level carries its orders' ids too (version 5). */
  readonly order_ids?: true;
}

/** The stream was interrupted between `tsEvent` (last receive before the drop) and `tsRecv` (resumed). */
export interface RecordingGap {
  readonly type: 'gap';
  readonly symbol: Symbol | null;
  readonly tsEvent: number;
  readonly tsRecv: number;
  readonly reason: string;
}

/** The recording bot's own working orders on one symbol, per price (remaining qty), best first. */
export interface OwnOrders {
  readonly type: 'own';
  readonly symbol: Symbol;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  /** Venue time of the order event that produced this state. */
  readonly tsEvent: number;
  readonly tsRecv: number;
}

/** Request kinds whose round trips a recording holds (the metric's `op` label plus the queries). */
export const ROUND_TRIP_OPS = ['place', 'replace', 'cancel', 'cancel_all', 'status', 'open_orders'] as const;
/** One of ROUND_TRIP_OPS. */
export type RoundTripOp = (typeof ROUND_TRIP_OPS)[number];

/** One answered request of the recording bot (`q` line). */
export interface RoundTrip {
  readonly type: 'round-trip';
  readonly symbol: Symbol | null;
  readonly op: RoundTripOp;
  /** Request sent → answer received, ms (the daemon's measurement). */
  readonly ms: number;
  readonly ok: boolean;
  /** When the request left (the bot's clock). */
  readonly tsEvent: number;
  /** When the answer came (the bot's clock). */
  readonly tsRecv: number;
}

/** Execution-report kinds (`x` lines). */
export const EXECUTION_KINDS = ['accepted', 'canceled', 'rejected', 'replaced', 'expired', 'filled'] as const;

/** One order event of the recording bot (`x` line): acks, cancels, rejects, replaces, expiries and fills. */
export interface OwnExecution {
  readonly type: 'execution';
  readonly symbol: Symbol;
  readonly kind: (typeof EXECUTION_KINDS)[number];
  readonly orderId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  /** Present on fills. */
  readonly fill: { readonly priceTicks: number; readonly qty: number; readonly aggressor: boolean; readonly tradeId: string } | null;
  readonly tsEvent: number;
  readonly tsRecv: number;
}

/** Lines about the recording bot's own session (not market data): kept beside the replayed rows. */
export type SessionEvent = RoundTrip | OwnExecution;

/** Anything a recording holds after its header. Books may be snapshots or deltas. */
export type RecordedEvent = BookUpdated | TradePrinted | TickerUpdated | FundingSettled | PriceObserved | RecordingGap | OwnOrders | SessionEvent;

/** Compact numeric codes for event kinds (columnar replay). */
export const KIND = { bookDelta: 0, bookSnapshot: 1, trade: 2, ticker: 3, funding: 4, gap: 5, own: 6, price: 7 } as const;
