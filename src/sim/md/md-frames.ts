import type { TickGrid } from '../../domain/tick-grid.ts';
import type { WireBboCandle, WireBookLevel, WireCandle } from '../../wire/index.ts';
import type { BboCandle, Ohlc, TradeCandle } from './candles.ts';

/** A level as the venue's books export it (ticks, total, optional L3 queue). */
export interface LevelLike {
  readonly priceTicks: number;
  readonly qty: number;
  readonly orders?: readonly number[];
}

/** Converts book levels to wire levels (`o` only when `withOrders`). */
export function wireLevels(levels: readonly LevelLike[], grid: TickGrid, withOrders: boolean): WireBookLevel[] {
  const out: WireBookLevel[] = new Array<WireBookLevel>(levels.length);
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    out[i] = withOrders && l.orders ? { p: grid.toPrice(l.priceTicks), q: l.qty, o: l.orders } : { p: grid.toPrice(l.priceTicks), q: l.qty };
  }
  return out;
}

/** Epoch ns → the wire's (ts seconds, tn nanos) pair. */
export function tsTn(ns: bigint): { ts: number; tn: number } {
  return { ts: Number(ns / 1_000_000_000n), tn: Number(ns % 1_000_000_000n) };
}

/** A trade candle on the wire (`ts` epoch seconds, as captured). */
export function wireCandle(symbol: string, c: TradeCandle, grid: TickGrid): WireCandle {
  return {
    symbol,
    ts: Math.floor(c.startMs / 1000),
    open: grid.toPrice(c.open),
    high: grid.toPrice(c.high),
    low: grid.toPrice(c.low),
    close: grid.toPrice(c.close),
    buy_volume: c.buyVolume,
    sell_volume: c.sellVolume,
    volume: c.buyVolume + c.sellVolume,
    width: c.width,
  };
}

/** A price that may sit on a half tick (mid): printed with one more digit when needed. */
function halfTickPrice(ticks: number, grid: TickGrid): string {
  if (Number.isInteger(ticks)) return grid.toPrice(ticks);
  return grid.toDecimal(ticks).toFixed(grid.decimals + 1);
}

/** OHLC prices of ticks ÷ `div` (2 for the mid, kept as bid + ask). */
function ohlc(o: Ohlc | undefined, grid: TickGrid, div = 1): [string | null, string | null, string | null, string | null] {
  if (!o) return [null, null, null, null];
  return [halfTickPrice(o.open / div, grid), halfTickPrice(o.high / div, grid), halfTickPrice(o.low / div, grid), halfTickPrice(o.close / div, grid)];
}

/** A BBO candle on the wire. */
export function wireBboCandle(symbol: string, c: BboCandle, grid: TickGrid): WireBboCandle {
  const [bo, bh, bl, bc] = ohlc(c.bid, grid);
  const [ao, ah, al, ac] = ohlc(c.ask, grid);
  const [mo, mh, ml, mc] = ohlc(c.midSum, grid, 2);
  return {
    symbol,
    ts: Math.floor(c.startMs / 1000),
    bid_open: bo,
    bid_high: bh,
    bid_low: bl,
    bid_close: bc,
    ask_open: ao,
    ask_high: ah,
    ask_low: al,
    ask_close: ac,
    mid_open: mo,
    mid_high: mh,
    mid_low: ml,
    mid_close: mc,
    width: c.width,
  };
}

/** Delta between two best-first sides: changed/new levels, and removed ones with q 0. */
export function sideDelta(prev: readonly WireBookLevel[], next: readonly WireBookLevel[]): WireBookLevel[] {
  const before = new Map<string, WireBookLevel>();
  for (const l of prev) before.set(l.p, l);
  const out: WireBookLevel[] = [];
  const seen = new Set<string>();
  for (const l of next) {
    seen.add(l.p);
    const b = before.get(l.p);
    if (!b || b.q !== l.q || (l.o !== undefined && String(b.o) !== String(l.o))) out.push(l);
  }
  for (const l of prev) if (!seen.has(l.p)) out.push({ p: l.p, q: 0 });
  return out;
}
