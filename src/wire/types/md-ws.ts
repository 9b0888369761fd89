/** Market-data WebSocket (`/md/ws`): requests, replies (`result`/`error`) and events. */
import type { WireEnum, WireMdLevel } from './common.ts';
import type { WireBboCandle, WireBookLevel, WireCandle, WireTicker, WireTrade } from './market.ts';

/** Subscribe to a symbol's book/ticker/trades; `trades`/`ticker` default true. */
export interface WireMdSubscribe {
  readonly rid: number;
  readonly type: 'subscribe';
  readonly symbol: string;
  readonly level: WireEnum<WireMdLevel>;
  readonly trades?: boolean | undefined;
  readonly ticker?: boolean | undefined;
}
/** Unsubscribe a symbol (no level). */
export interface WireMdUnsubscribe {
  readonly rid: number;
  readonly type: 'unsubscribe';
  readonly symbol: string;
  readonly level?: WireEnum<WireMdLevel> | undefined;
}
/** (Un)subscribe trade candles or BBO candles of one width. */
export interface WireMdCandleRequest {
  readonly rid: number;
  readonly type: 'subscribe_candles' | 'unsubscribe_candles' | 'subscribe_bbo_candles' | 'unsubscribe_bbo_candles';
  readonly symbol: string;
  readonly width: string;
}
/** Any market-data client request. */
export type WireMdRequest = WireMdSubscribe | WireMdUnsubscribe | WireMdCandleRequest;

/** A success reply's `result`: one key naming what changed (`SYM` or `SYM:width`). */
export interface WireMdResult {
  readonly subscribed?: string | undefined;
  readonly unsubscribed?: string | undefined;
  readonly subscribed_candle?: string | undefined;
  readonly unsubscribed_candle?: string | undefined;
  readonly subscribed_bbo_candle?: string | undefined;
  readonly unsubscribed_bbo_candle?: string | undefined;
}
/** A failure reply's `error` (note `message`/`code`, unlike the order WS). */
export interface WireMdError {
  readonly message: string;
  readonly code: number;
}
/** A market-data reply. */
export interface WireMdReply {
  readonly rid: number;
  readonly result?: WireMdResult | undefined;
  readonly error?: WireMdError | undefined;
}

/** `h` heartbeat. */
export interface WireMdHeartbeat {
  readonly t: 'h';
  readonly ts: number;
  readonly tn: number;
}
/** `s` ticker (≤ 1/s per symbol). */
export interface WireMdTickerEvent extends WireTicker {
  readonly t: 's';
}
/** `t` trade print. */
export interface WireMdTradeEvent extends WireTrade {
  readonly t: 't';
}
/**
 * `1`/`2`/`3` book frame. `st` true or absent: full snapshot; false: delta (q 0 removes). L1 has
 * at most one level a side and no `st`; L3 levels carry `o`.
 */
export interface WireMdBookFrame {
  readonly t: '1' | '2' | '3';
  readonly ts: number;
  readonly tn: number;
  readonly s: string;
  readonly b: readonly WireBookLevel[];
  readonly a: readonly WireBookLevel[];
  readonly st?: boolean | undefined;
}
/** `c` candle update for the in-progress bucket (`symbol`, not `s`). */
export interface WireMdCandleEvent extends WireCandle {
  readonly t: 'c';
}
/** `bc` BBO candle update. */
export interface WireMdBboCandleEvent extends WireBboCandle {
  readonly t: 'bc';
}
/** Any market-data event. */
export type WireMdEvent = WireMdHeartbeat | WireMdTickerEvent | WireMdTradeEvent | WireMdBookFrame | WireMdCandleEvent | WireMdBboCandleEvent;
/** Anything the server sends on the MD WS. */
export type WireMdFrame = WireMdEvent | WireMdReply;
