/** Encoders for the market-data WebSocket: events (`t` first), replies and client requests. */
import type { WireBookLevel, WireTicker } from '../types/market.ts';
import type { WireMdEvent, WireMdReply, WireMdRequest } from '../types/md-ws.ts';
import { num, quote, quoteEnum, writeJson } from './json.ts';

/** Writes a book side `[{"p":..,"q":..(,"o":[..])}, ...]`. */
export function writeLevels(levels: readonly WireBookLevel[]): string {
  let s = '[';
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    if (i > 0) s += ',';
    s += `{"p":${quote(l.p)},"q":${num(l.q)}`;
    if (l.o !== undefined) s += `,"o":[${l.o.map(num).join(',')}]`;
    s += '}';
  }
  return `${s}]`;
}

const TICKER_DECIMALS = ['o', 'l', 'h'] as const;
const TICKER_TAIL = ['m', 'bp', 'ap', 'pl', 'pu', 'lsp'] as const;

/** Writes a ticker's fields (without braces) in the venue's key order, skipping omitted ones. */
function tickerBody(x: WireTicker): string {
  let s = `"ts":${num(x.ts)},"tn":${num(x.tn)},"s":${quote(x.s)}`;
  if (x.p !== undefined) s += `,"p":${x.p === null ? 'null' : quote(x.p)}`;
  s += `,"q":${num(x.q)}`;
  for (const k of TICKER_DECIMALS) {
    const v = x[k];
    if (v !== undefined) s += `,"${k}":${v === null ? 'null' : quote(v)}`;
  }
  s += `,"v":${num(x.v)},"oi":${num(x.oi)}`;
  if (x.i !== undefined) s += `,"i":${quoteEnum(x.i)}`;
  for (const k of TICKER_TAIL) {
    const v = x[k];
    if (v !== undefined) s += `,"${k}":${v === null ? 'null' : quote(v)}`;
  }
  if (x.lst !== undefined) s += `,"lst":${x.lst === null ? 'null' : num(x.lst)}`;
  if (x.ef !== undefined) s += `,"ef":${writeJson(x.ef)}`;
  return s;
}

/** Encodes a ticker object (REST shape, no `t`). */
export const encodeTicker = (x: WireTicker): string => `{${tickerBody(x)}}`;

/** Encodes a market-data event as compact JSON with `t` first. */
export function encodeMdEvent(e: WireMdEvent): string {
  switch (e.t) {
    case '1':
    case '2':
    case '3': {
      let s = `{"t":"${e.t}","ts":${num(e.ts)},"tn":${num(e.tn)},"s":${quote(e.s)},"b":${writeLevels(e.b)},"a":${writeLevels(e.a)}`;
      if (e.st !== undefined) s += `,"st":${e.st ? 'true' : 'false'}`;
      return `${s}}`;
    }
    case 's':
      return `{"t":"s",${tickerBody(e)}}`;
    case 't':
      return `{"t":"t","p":${quote(e.p)},"q":${num(e.q)},"s":${quote(e.s)},"d":${quoteEnum(e.d)},"ts":${num(e.ts)},"tn":${num(e.tn)}}`;
    case 'h':
      return `{"t":"h","ts":${num(e.ts)},"tn":${num(e.tn)}}`;
    case 'c':
    case 'bc':
      return writeJson(e, EVENT_FIRST);
  }
}

const EVENT_FIRST = ['t'] as const;
const RID_FIRST = ['rid'] as const;
const REQUEST_FIRST = ['rid', 'type'] as const;

/** Encodes a reply `{"rid":n,"result":{...}}` or `{"rid":n,"error":{"message":..,"code":..}}`. */
export const encodeMdReply = (r: WireMdReply): string => writeJson(r, RID_FIRST);

/** Encodes a client request `{"rid":n,"type":"subscribe",...}`. */
export const encodeMdRequest = (r: WireMdRequest): string => writeJson(r, REQUEST_FIRST);
