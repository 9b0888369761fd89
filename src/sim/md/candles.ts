import type { Side } from '../../domain/enums.ts';

/** Candle widths the venue serves (protocol.md §5). */
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

/** OHLC of one BBO series (ticks, or half-ticks for the mid); undefined while the side is empty. */
export interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

/** A BBO candle: bid, ask and mid OHLC over the bucket. */
export interface BboCandle {
  readonly width: CandleWidth;
  readonly startMs: number;
  bid: Ohlc | undefined;
  ask: Ohlc | undefined;
  mid: Ohlc | undefined;
}

/** Bucket start of `tsMs` for a width. */
export const bucketStart = (tsMs: number, width: CandleWidth): number => Math.floor(tsMs / WIDTH_MS[width]) * WIDTH_MS[width];

function touch(o: Ohlc | undefined, v: number | undefined): Ohlc | undefined {
  if (v === undefined) return o;
  if (!o) return { open: v, high: v, low: v, close: v };
  o.high = Math.max(o.high, v);
  o.low = Math.min(o.low, v);
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
  readonly #history = new Map<CandleWidth, TradeCandle[]>();
  readonly #bboCurrent = new Map<CandleWidth, BboCandle>();
  readonly #bboHistory = new Map<CandleWidth, BboCandle[]>();

  constructor(private readonly maxHistory = 2_000) {
    for (const w of CANDLE_WIDTHS) {
      this.#history.set(w, []);
      this.#bboHistory.set(w, []);
    }
  }

  /** Adds a trade; returns the in-progress candles it updated (one per width). */
  onTrade(tsMs: number, priceTicks: number, qty: number, takerSide: Side): TradeCandle[] {
    const out: TradeCandle[] = [];
    for (const w of CANDLE_WIDTHS) {
      const start = bucketStart(tsMs, w);
      let c = this.#current.get(w);
      if (c && c.startMs !== start) {
        this.#archive(this.#history.get(w)!, c);
        c = undefined;
      }
      if (!c) {
        c = { width: w, startMs: start, open: priceTicks, high: priceTicks, low: priceTicks, close: priceTicks, buyVolume: 0, sellVolume: 0 };
        this.#current.set(w, c);
      }
      c.high = Math.max(c.high, priceTicks);
      c.low = Math.min(c.low, priceTicks);
      c.close = priceTicks;
      if (takerSide === 'buy') c.buyVolume += qty;
      else c.sellVolume += qty;
      out.push(c);
    }
    return out;
  }

  /** Records the touch at `tsMs`; returns the in-progress BBO candles (one per width). */
  onBbo(tsMs: number, bidTicks: number | undefined, askTicks: number | undefined): BboCandle[] {
    const mid = bidTicks !== undefined && askTicks !== undefined ? (bidTicks + askTicks) / 2 : undefined;
    const out: BboCandle[] = [];
    for (const w of CANDLE_WIDTHS) {
      const start = bucketStart(tsMs, w);
      let c = this.#bboCurrent.get(w);
      if (c && c.startMs !== start) {
        this.#archive(this.#bboHistory.get(w)!, c);
        c = undefined;
      }
      if (!c) {
        c = { width: w, startMs: start, bid: undefined, ask: undefined, mid: undefined };
        this.#bboCurrent.set(w, c);
      }
      c.bid = touch(c.bid, bidTicks);
      c.ask = touch(c.ask, askTicks);
      c.mid = touch(c.mid, mid);
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
    const h = this.#history.get(width)!;
    return h[h.length - 1];
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

  #archive<T>(list: T[], c: T): void {
    list.push(c);
    if (list.length > this.maxHistory) list.splice(0, list.length - this.maxHistory);
  }
}
