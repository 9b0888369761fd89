/** Market-data WebSocket decoders: server frames (hot) and client requests (local venue). */
import type { Result } from '../../core/result.ts';
import type { WireMdBookFrame, WireMdError, WireMdEvent, WireMdFrame, WireMdReply, WireMdRequest, WireMdResult } from '../types/md-ws.ts';
import { mdLevel } from './enums.ts';
import { fail, isRec, literal, obj, optional, runDecoder, type Decoder, type DecodeError } from './kit.ts';
import { runDecoderOnText } from './json-text.ts';
import { bool, int, str, uint } from './scalars.ts';
import { readBboCandle, readCandle, readLevels, readTicker, readTrade } from './market.ts';

/** Decodes a `1`/`2`/`3` book frame (levels validated in place). */
function readBook(v: Record<string, unknown>, t: '1' | '2' | '3'): WireMdBookFrame {
  const st = v.st;
  return {
    t,
    ts: uint(v.ts, '$', 'ts'),
    tn: uint(v.tn, '$', 'tn'),
    s: str(v.s, '$', 's'),
    b: readLevels(v.b, '$', 'b', t === '3'),
    a: readLevels(v.a, '$', 'a', t === '3'),
    st: st === undefined || st === null ? undefined : bool(st, '$', 'st'),
  };
}

function tagged<T extends object, K extends string>(x: T, t: K): T & { t: K } {
  if (x !== undefined) (x as T & { t: K }).t = t;
  return x as T & { t: K };
}

/** Decodes an MD event (`t` one of `1 2 3 s t c bc h`). */
export const readMdEvent: Decoder<WireMdEvent> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'event object');
  const t = v.t;
  switch (t) {
    case '1':
    case '2':
    case '3':
      return readBook(v, t);
    // Tag the freshly built object instead of spreading it into another (one allocation, not two).
    case 's':
      return tagged(readTicker(v, '$', null), t);
    case 't':
      return tagged(readTrade(v, '$', null), t);
    case 'c':
      return tagged(readCandle(v, '$', null), t);
    case 'bc':
      return tagged(readBboCandle(v, '$', null), t);
    case 'h':
      return { t, ts: uint(v.ts, '$', 'ts'), tn: uint(v.tn, '$', 'tn') };
    default:
      return fail(t, '$', 't', 'market-data event type (1 2 3 s t c bc h)');
  }
};

const optStr = optional(str);
const readResult = obj<WireMdResult>(
  {
    subscribed: optStr,
    unsubscribed: optStr,
    subscribed_candle: optStr,
    unsubscribed_candle: optStr,
    subscribed_bbo_candle: optStr,
    unsubscribed_bbo_candle: optStr,
  },
  'result object',
);
const readError = obj<WireMdError>({ message: str, code: int }, 'error object');

/** Decodes an MD reply `{rid, result}` / `{rid, error}`. */
export const readMdReply: Decoder<WireMdReply> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'reply object');
  const rid = int(v.rid, '$', 'rid');
  if (v.result !== undefined && v.result !== null) return { rid, result: readResult(v.result, '$', 'result') };
  if (v.error !== undefined && v.error !== null) return { rid, error: readError(v.error, '$', 'error') };
  return fail(undefined, '$', 'result', 'result or error');
};

/** Decodes any MD server frame: events carry `t`, replies carry `rid`. */
export const readMdFrame: Decoder<WireMdFrame> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'object');
  if (v.t !== undefined) return readMdEvent(v, p, k);
  if (v.rid !== undefined) return readMdReply(v, p, k);
  return fail(v, p, k, 'an event (t) or a reply (rid)');
};

const optBool = optional(bool);
const subscribeReq = obj<Extract<WireMdRequest, { type: 'subscribe' }>>(
  { rid: int, type: literal('subscribe'), symbol: str, level: mdLevel, trades: optBool, ticker: optBool },
  'subscribe request',
);
const unsubscribeReq = obj<Extract<WireMdRequest, { type: 'unsubscribe' }>>(
  { rid: int, type: literal('unsubscribe'), symbol: str, level: optional(mdLevel) },
  'unsubscribe request',
);
const CANDLE_TYPES = ['subscribe_candles', 'unsubscribe_candles', 'subscribe_bbo_candles', 'unsubscribe_bbo_candles'] as const;
const candleType: Decoder<(typeof CANDLE_TYPES)[number]> = (v, p, k) =>
  typeof v === 'string' && (CANDLE_TYPES as readonly string[]).includes(v) ? (v as (typeof CANDLE_TYPES)[number]) : fail(v, p, k, 'candle request type');
const candleReq = obj<Extract<WireMdRequest, { width: string }>>({ rid: int, type: candleType, symbol: str, width: str }, 'candle request');

/** Decodes an MD client request (local venue). */
export const readMdRequest: Decoder<WireMdRequest> = (v, p, k) => {
  if (!isRec(v)) return fail(v, p, k, 'request object');
  switch (v.type) {
    case 'subscribe':
      return subscribeReq(v, p, k);
    case 'unsubscribe':
      return unsubscribeReq(v, p, k);
    case 'subscribe_candles':
    case 'unsubscribe_candles':
    case 'subscribe_bbo_candles':
    case 'unsubscribe_bbo_candles':
      return candleReq(v, p, k);
    default:
      return fail(v.type, '$', 'type', 'request type (subscribe, unsubscribe, (un)subscribe_candles, (un)subscribe_bbo_candles)');
  }
};

/** Decodes an MD server frame from socket text. Never throws. */
export const decodeMdWsFrame = (text: string): Result<WireMdFrame, DecodeError> => runDecoderOnText(readMdFrame, text);
/** Decodes an MD event value. */
export const decodeMdEvent = (v: unknown): Result<WireMdEvent, DecodeError> => runDecoder(readMdEvent, v);
/** Decodes an MD reply value. */
export const decodeMdReply = (v: unknown): Result<WireMdReply, DecodeError> => runDecoder(readMdReply, v);
/** Decodes an MD client request value (local venue). */
export const decodeMdRequest = (v: unknown): Result<WireMdRequest, DecodeError> => runDecoder(readMdRequest, v);
/** Decodes an MD client request from socket text (local venue). */
export const decodeMdRequestText = (text: string): Result<WireMdRequest, DecodeError> => runDecoderOnText(readMdRequest, text);
