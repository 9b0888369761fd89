/** Market-data shapes shared by REST and the market-data WebSocket. */
import type {
  DateTimeString,
  DecimalString,
  WireEnum,
  WireInstrumentState,
  WireSide,
} from './common.ts';
import type { WireEstimatedFunding } from './funding.ts';

/** An aggregated book level; L3 levels add `o`, the individual resting order sizes (Σo = q). */
export interface WireBookLevel {
  readonly p: DecimalString;
  readonly q: number;
  readonly o?: readonly number[] | undefined;
}

/**
 * Ticker (REST `ticker`/`tickers`, MD `s` event). `p`/`o`/`l`/`h` are null before any trade,
 * `bp`/`ap` are omitted without quotes; older captures omit `m`, `i`, `pl`, `pu`, `lsp`, `lst`.
 */
export interface WireTicker {
  readonly ts: number;
  readonly tn: number;
  readonly s: string;
  readonly p?: DecimalString | null | undefined;
  readonly q: number;
  readonly o?: DecimalString | null | undefined;
  readonly l?: DecimalString | null | undefined;
  readonly h?: DecimalString | null | undefined;
  readonly v: number;
  readonly oi: number;
  readonly i?: WireEnum<WireInstrumentState> | undefined;
  readonly m?: DecimalString | null | undefined;
  readonly bp?: DecimalString | null | undefined;
  readonly ap?: DecimalString | null | undefined;
  readonly pl?: DecimalString | null | undefined;
  readonly pu?: DecimalString | null | undefined;
  readonly lsp?: DecimalString | null | undefined;
  readonly lst?: number | null | undefined;
  readonly ef?: WireEstimatedFunding | null | undefined;
}

/** A public trade print; `d` is the taker's side. */
export interface WireTrade {
  readonly p: DecimalString;
  readonly q: number;
  readonly s: string;
  readonly d: WireEnum<WireSide>;
  readonly ts: number;
  readonly tn: number;
}

/**
 * A trade candle. `ts` is the bucket start: integer epoch seconds on the real venue, an RFC 3339
 * string per the venue's interface description (docs/venue-protocol.md §2.1); both decode.
 */
export interface WireCandle {
  readonly symbol: string;
  readonly ts: number | DateTimeString;
  readonly open: DecimalString;
  readonly high: DecimalString;
  readonly low: DecimalString;
  readonly close: DecimalString;
  readonly buy_volume: number;
  readonly sell_volume: number;
  readonly volume: number;
  /** `1s`, `5s`, `1m`, `5m`, `15m`, `1h`, `1d` (kept as a plain string: open-ended). */
  readonly width: string;
}

/** A BBO candle (MD `bc`): bid/ask/mid OHLC, nullable when a side was empty. */
export interface WireBboCandle {
  readonly symbol: string;
  readonly ts: number | DateTimeString;
  readonly bid_open: DecimalString | null;
  readonly bid_high: DecimalString | null;
  readonly bid_low: DecimalString | null;
  readonly bid_close: DecimalString | null;
  readonly ask_open: DecimalString | null;
  readonly ask_high: DecimalString | null;
  readonly ask_low: DecimalString | null;
  readonly ask_close: DecimalString | null;
  readonly mid_open: DecimalString | null;
  readonly mid_high: DecimalString | null;
  readonly mid_low: DecimalString | null;
  readonly mid_close: DecimalString | null;
  readonly width: string;
}
