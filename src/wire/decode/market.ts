/**
 * Market-data object decoders shared by REST and the MD WebSocket. Book levels are validated in
 * place and the input array is returned as is (no copy): prices stay decimal strings and are
 * converted to ticks by the mapper, which is where the instrument grid is known.
 */
import type { WireBboCandle, WireBookLevel, WireCandle, WireTicker, WireTrade } from '../types/market.ts';
import { instrumentState, side } from './enums.ts';
import { readEstimatedFunding } from './funding.ts';
import { fail, isRec, nullable, obj, pathOf, type Decoder, type PathKey, type Rec } from './kit.ts';
import { dec, intOrDateTime, isDecimal, str, uint } from './scalars.ts';

/**
 * Validates a book side in place. `requireOrders` (L3) demands each level's `o` list of sizes.
 * Returns the input array itself, typed.
 */
export function readLevels(v: unknown, parent: string, key: PathKey, requireOrders: boolean): readonly WireBookLevel[] {
  if (!Array.isArray(v)) return fail(v, parent, key, 'array of levels');
  for (let i = 0; i < v.length; i++) {
    const l: unknown = v[i];
    if (typeof l !== 'object' || l === null) return levelFail(l, parent, key, i, null, 'level object {p,q}');
    const p = (l as Rec).p;
    if (typeof p !== 'string' || !isDecimal(p)) return levelFail(p, parent, key, i, 'p', 'decimal string');
    // A book price is never zero or negative; one that is comes from a venue glitch (a failover):
    // refused here, naming the level, rather than handed on as a market to quote on.
    if (!isPositiveDecimal(p)) return levelFail(p, parent, key, i, 'p', 'positive price');
    const q = (l as Rec).q;
    if (typeof q !== 'number' || !Number.isSafeInteger(q) || q < 0) return levelFail(q, parent, key, i, 'q', 'non-negative integer');
    const o = (l as Rec).o;
    if (o !== undefined || requireOrders) {
      if (!Array.isArray(o)) return levelFail(o, parent, key, i, 'o', 'array of order sizes');
      for (let j = 0; j < o.length; j++) {
        const x: unknown = o[j];
        if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) {
          return fail(x, pathOf(pathOf(pathOf(parent, key), i), 'o'), j, 'non-negative integer');
        }
      }
    }
  }
  return v as readonly WireBookLevel[];
}

/** A decimal string (already checked) above zero: no minus sign and a digit other than 0. */
function isPositiveDecimal(s: string): boolean {
  if (s.charCodeAt(0) === 45 /* - */) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 48 && c <= 57) return true;
  }
  return false;
}

function levelFail<T>(got: unknown, parent: string, key: PathKey, i: number, field: string | null, expected: string): T {
  return fail(got, pathOf(pathOf(parent, key), i), field, expected);
}

const optDec = (v: unknown, p: string, k: string): string | null | undefined => (v === undefined || v === null ? v : dec(v, p, k));

/** Decodes a ticker (hot: MD `s` events and REST tickers). */
export const readTicker: Decoder<WireTicker> = (v, parent, key) => {
  if (!isRec(v)) return fail(v, parent, key, 'ticker object');
  const p = key === null ? parent : pathOf(parent, key);
  const lst = v.lst;
  const ef = v.ef;
  return {
    ts: uint(v.ts, p, 'ts'),
    tn: uint(v.tn, p, 'tn'),
    s: str(v.s, p, 's'),
    p: optDec(v.p, p, 'p'),
    q: uint(v.q, p, 'q'),
    o: optDec(v.o, p, 'o'),
    l: optDec(v.l, p, 'l'),
    h: optDec(v.h, p, 'h'),
    v: uint(v.v, p, 'v'),
    oi: uint(v.oi, p, 'oi'),
    i: v.i === undefined || v.i === null ? undefined : instrumentState(v.i, p, 'i'),
    m: optDec(v.m, p, 'm'),
    bp: optDec(v.bp, p, 'bp'),
    ap: optDec(v.ap, p, 'ap'),
    pl: optDec(v.pl, p, 'pl'),
    pu: optDec(v.pu, p, 'pu'),
    lsp: optDec(v.lsp, p, 'lsp'),
    lst: lst === undefined || lst === null ? lst : uint(lst, p, 'lst'),
    ef: ef === undefined || ef === null ? ef : readEstimatedFunding(ef, p, 'ef'),
  };
};

/** Decodes a trade print. */
export const readTrade: Decoder<WireTrade> = (v, parent, key) => {
  if (!isRec(v)) return fail(v, parent, key, 'trade object');
  const p = key === null ? parent : pathOf(parent, key);
  return { p: dec(v.p, p, 'p'), q: uint(v.q, p, 'q'), s: str(v.s, p, 's'), d: side(v.d, p, 'd'), ts: uint(v.ts, p, 'ts'), tn: uint(v.tn, p, 'tn') };
};

/** Decodes a candle (`ts` integer seconds or RFC 3339). */
export const readCandle = obj<WireCandle>(
  {
    symbol: str,
    ts: intOrDateTime,
    open: dec,
    high: dec,
    low: dec,
    close: dec,
    buy_volume: uint,
    sell_volume: uint,
    volume: uint,
    width: str,
  },
  'candle object',
);

const nDec = nullable(dec);

/** Decodes a BBO candle. */
export const readBboCandle = obj<WireBboCandle>(
  {
    symbol: str,
    ts: intOrDateTime,
    bid_open: nDec,
    bid_high: nDec,
    bid_low: nDec,
    bid_close: nDec,
    ask_open: nDec,
    ask_high: nDec,
    ask_low: nDec,
    ask_close: nDec,
    mid_open: nDec,
    mid_high: nDec,
    mid_low: nDec,
    mid_close: nDec,
    width: str,
  },
  'BBO candle object',
);
