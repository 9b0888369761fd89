import type { Side } from '../../domain/enums.ts';
import { RingBuffer } from '../history/ring-buffer.ts';

/** Candle widths the venue serves (docs/venue-protocol.md §5). */
export const CANDLE_WIDTHS = ['1s', '5s', '1m', '5m', '15m', '1h', '1d'] as const;
/** One candle width. */
export type CandleWidth = (typeof CANDLE_WIDTHS)[number];

/** Width in milliseconds. */
export const WIDTH_MS: Readonly<Record<CandleWidth, number>> = {
  '1s': 1_000,
  '5s': 5_000,
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
};

/** True when `s` is a supported width. */
export const isCandleWidth = (s: string): s is CandleWidth => (CANDLE_WIDTHS as readonly string[]).includes(s);

/** A trade candle in ticks and contracts; `startMs` is the bucket start (UTC-aligned). */
export interface TradeCandle {
  readonly width: CandleWidth;
  readonly startMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  buyVolume: number;
  sellVolume: number;
}

/** OHLC of one BBO series in ticks (bid + ask for the mid); undefined while the side is empty. */
export interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * A BBO candle: bid, ask and mid OHLC over the bucket. The mid is kept as bid + ask (twice the mid)
 * so every OHLC field is a small integer: a half-tick mid would make V8 box every field of every
 * candle's OHLC objects as heap numbers (~30 MB more for a venue day of 29 symbols).
 */
export interface BboCandle {
  readonly width: CandleWidth;
  readonly startMs: number;
  bid: Ohlc | undefined;
  ask: Ohlc | undefined;
  /** OHLC of bid + ask in ticks (the mid × 2). */
  midSum: Ohlc | undefined;
}

/** Bucket start of `tsMs` for a width. */
export const bucketStart = (tsMs: number, width: CandleWidth): number => Math.floor(tsMs / WIDTH_MS[width]) * WIDTH_MS[width];

/**
 * `v` as a small integer when it is one. Ticks and quantities arrive as integral doubles (results of
 * float maths); stored as such, V8 boxes every such field of every candle as a 16-byte heap number
 * (~45 MB for a venue day of 29 symbols). `v | 0` hands V8 a small integer instead.
 */
const smi = (v: number): number => ((v | 0) === v ? v | 0 : v);

function touch(o: Ohlc | undefined, value: number | undefined): Ohlc | undefined {
  if (value === undefined) return o;
  const v = smi(value);
  if (!o) return { open: v, high: v, low: v, close: v };
  if (v > o.high) o.high = v;
  if (v < o.low) o.low = v;
  o.close = v;
  return o;
}

/**
 * Aggregates one symbol's trades and touches into candles of every width. Completed candles are
 * kept in a bounded history per width (oldest dropped). Only buckets with trades produce trade
 * candles (a candle's open is not the previous close, as on the venue).
 */
export class CandleAggregator {
  readonly #current = new Map<CandleWidth, TradeCandle>();
  readonly #history = new Map<CandleWidth, RingBuffer<TradeCandle>>();
  readonly #bboCurrent = new Map<CandleWidth, BboCandle>();
  readonly #bboHistory = new Map<CandleWidth, RingBuffer<BboCandle>>();

  /** @param maxHistory completed candles kept per width, trade and BBO each (`md.candle_history`). */
  constructor(maxHistory = 2_000) {
    for (const w of CANDLE_WIDTHS) {
      this.#history.set(w, new RingBuffer(maxHistory));
      this.#bboHistory.set(w, new RingBuffer(maxHistory));
    }
  }

  /** Completed candles held for `width` (trade, BBO). */
  held(width: CandleWidth): { trade: number; bbo: number } {
    return { trade: this.#history.get(width)!.length, bbo: this.#bboHistory.get(width)!.length };
  }

  /** Adds a trade; returns the in-progress candles it updated (one per width). */
  onTrade(tsMs: number, tradeTicks: number, tradeQty: number, takerSide: Side): TradeCandle[] {
    const priceTicks = smi(tradeTicks);
    const qty = smi(tradeQty);
    const out: TradeCandle[] = [];
    for (const w of CANDLE_WIDTHS) {
      const start = bucketStart(tsMs, w);
      let c = this.#current.get(w);
      if (c && c.startMs !== start) {
        this.#history.get(w)!.push(c);
        c = undefined;
      }
      if (!c) {
        c = { width: w, startMs: start, open: priceTicks, high: priceTicks, low: priceTicks, close: priceTicks, buyVolume: 0, sellVolume: 0 };
        this.#current.set(w, c);
      }
      if (priceTicks > c.high) c.high = priceTicks;
      if (priceTicks < c.low) c.low = priceTicks;
      c.close = priceTicks;
      if (takerSide === 'buy') c.buyVolume = smi(c.buyVolume + qty);
      else c.sellVolume = smi(c.sellVolume + qty);
      out.push(c);
    }
    return out;
  }

  /** Records the touch at `tsMs`; returns the in-progress BBO candles (one per width). */
  onBbo(tsMs: number, bidTicks: number | undefined, askTicks: number | undefined): BboCandle[] {
    const midSum = bidTicks !== undefined && askTicks !== undefined ? bidTicks + askTicks : undefined;
    const out: BboCandle[] = [];
    for (const w of CANDLE_WIDTHS) {
      const start = bucketStart(tsMs, w);
      let c = this.#bboCurrent.get(w);
      if (c && c.startMs !== start) {
        this.#bboHistory.get(w)!.push(c);
        c = undefined;
      }
      if (!c) {
        c = { width: w, startMs: start, bid: undefined, ask: undefined, midSum: undefined };
        this.#bboCurrent.set(w, c);
      }
      c.bid = touch(c.bid, bidTicks);
      c.ask = touch(c.ask, askTicks);
      c.midSum = touch(c.midSum, midSum);
      out.push(c);
    }
    return out;
  }

  /** The in-progress candle of the bucket containing `nowMs`, if it has trades. */
  current(width: CandleWidth, nowMs: number): TradeCandle | undefined {
    const c = this.#current.get(width);
    return c && c.startMs === bucketStart(nowMs, width) ? c : undefined;
  }

  /** The last completed candle before the bucket containing `nowMs`. */
  last(width: CandleWidth, nowMs: number): TradeCandle | undefined {
    const start = bucketStart(nowMs, width);
    const c = this.#current.get(width);
    if (c && c.startMs < start) return c;
    return this.#history.get(width)!.last();
  }

  /** Candles with fromMs ≤ start ≤ toMs, ascending (the in-progress one included). */
  range(width: CandleWidth, fromMs: number, toMs: number): TradeCandle[] {
    const all = [...this.#history.get(width)!];
    const c = this.#current.get(width);
    if (c) all.push(c);
    return all.filter((x) => x.startMs >= fromMs && x.startMs <= toMs);
  }

  /** BBO candles with fromMs ≤ start ≤ toMs, ascending. */
  bboRange(width: CandleWidth, fromMs: number, toMs: number): BboCandle[] {
    const all = [...this.#bboHistory.get(width)!];
    const c = this.#bboCurrent.get(width);
    if (c) all.push(c);
    return all.filter((x) => x.startMs >= fromMs && x.startMs <= toMs);
  }
}
