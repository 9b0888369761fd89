import type { BookSide } from '../domain/book.ts';
import type { Side } from '../domain/enums.ts';
import { EpochScoreAccumulator, scoreMinute, type RewardScoreParams, type ScoredOrder } from '../domain/reward-score.ts';
import { QueueAgeTracker, type AgedOrder } from './queue-age.ts';

/** One of our working orders as the estimator needs it. */
export interface OwnOrderInput {
  /** Stable id (client order id) so a price change can restart its rest time. */
  readonly id: string;
  readonly side: Side;
  readonly priceTicks: number;
  /** Remaining contracts. */
  readonly qty: number;
  /** When the order started resting (ack or local creation), epoch ms. */
  readonly restingSinceMs: number;
}

/** Everything one minute sample needs for one symbol. */
export interface MinuteSampleInput {
  /**
   * The public book (L2 or L3), our orders included, as of the sample. Absent: the last book fed
   * to `observeBook` with a timestamp at or before the sample time (so a sample taken a little
   * after the minute still sees the book as of the minute).
   */
  readonly bids?: BookSide;
  readonly asks?: BookSide;
  /** Our working orders that are acknowledged and resting. */
  readonly ownOrders: readonly OwnOrderInput[];
  /** Price of a tick count in USD (the instrument's grid). */
  readonly priceOf: (ticks: number) => number;
  /** Contract multiplier. */
  readonly multiplier: number;
  /** False when the symbol is not OPEN: the venue scores no minute then. */
  readonly open: boolean;
}

/** The estimate for one sampled minute. */
export interface MinuteEstimate {
  readonly tsMs: number;
  readonly epochStartMs: number;
  /** Our combined score Q (USD-notional weighted). */
  readonly score: number;
  /** Our share of all makers' scores this minute, in [0, 1]. */
  readonly share: number;
  /** Whether the minute counted (symbol open, mid present). */
  readonly scored: boolean;
}

/** Options of the estimator; the model parameters must be the venue's (config). */
export interface ScoreEstimatorOptions {
  readonly params: RewardScoreParams;
  /** Epoch length (ms, default one day); epochs are aligned to `epochOriginMs` (default 0 = UTC midnight). */
  readonly epochMs?: number;
  readonly epochOriginMs?: number;
  /** Bonus weight of the minute starting at `minuteMs` (default 1). */
  readonly bonusWeight?: (minuteMs: number, symbol: string) => number;
  /** Epochs kept per symbol for comparison with the venue (default 16). */
  readonly keepEpochs?: number;
  /** How far back book versions are kept for as-of sampling (ms of book time, default 30 s). */
  readonly historyMs?: number;
  /**
   * How other makers' orders are grouped into accounts (the book does not say whose they are):
   * `one-account` (default) lumps them, a lower bound on our share; `queue-position` takes the
   * k-th order of every level (L3) as maker k's, exact when each maker quotes one order per level
   * and they join levels in the same order (ladder makers), else an approximation.
   */
  readonly othersAs?: 'one-account' | 'queue-position';
}

/** One book version: when it became true, every public order with its age, and the touch. */
interface BookVersion {
  readonly tsMs: number;
  readonly orders: readonly AgedOrder[];
  readonly bestBid: number | undefined;
  readonly bestAsk: number | undefined;
}

const SELF = 'self';
const OTHERS = 'others';

/**
 * Estimates our per-minute maker score and epoch share with the venue's model
 * (domain/reward-score.ts, docs/venue-rules.md §12.3), from the public book and our own working orders.
 * Other makers' orders are the book minus ours, taken as one competing account: exact when one
 * background maker quotes symmetric ladders, an upper bound on their combined score otherwise.
 * Their rest times come from when we first saw each order in the book (QueueAgeTracker).
 */
export class RewardScoreEstimator {
  readonly #o: ScoreEstimatorOptions;
  #epochMs: number;
  #epochOriginMs: number;
  readonly #ages = new Map<string, QueueAgeTracker>();
  readonly #history = new Map<string, BookVersion[]>();
  readonly #ownPrice = new Map<string, { priceTicks: number; sinceMs: number }>();
  // Per symbol and epoch start, running sums (not a row per minute: a 16-epoch memory costs the same at minute 1 and minute 23 040).
  readonly #epochs = new Map<string, Map<number, EpochScoreAccumulator>>();
  readonly #last = new Map<string, MinuteEstimate>();

  constructor(options: ScoreEstimatorOptions) {
    this.#o = options;
    this.#epochMs = options.epochMs ?? 86_400_000;
    this.#epochOriginMs = options.epochOriginMs ?? 0;
  }

  /** Epoch length in ms. */
  get epochMs(): number {
    return this.#epochMs;
  }

  /** Changes the epoch grid (e.g. learnt from the venue's accruals); minutes already recorded keep their epoch. */
  setEpoch(epochMs: number, originMs = 0): void {
    if (!(epochMs > 0)) throw new RangeError(`epoch length must be > 0 ms, got ${epochMs}`);
    this.#epochMs = epochMs;
    this.#epochOriginMs = originMs;
  }

  /** The model parameters in use. */
  get params(): RewardScoreParams {
    return this.#o.params;
  }

  /** Start of the epoch containing `tsMs`. */
  epochStartOf(tsMs: number): number {
    const len = this.#epochMs;
    const origin = this.#epochOriginMs;
    return origin + Math.floor((tsMs - origin) / len) * len;
  }

  /**
   * Feeds a public book view as of `tsMs` (the venue's event time of the frame, so rest times and
   * as-of lookups are on the venue's timeline). Call on every book update.
   */
  observeBook(symbol: string, book: { readonly bids: BookSide; readonly asks: BookSide }, tsMs: number): void {
    let t = this.#ages.get(symbol);
    if (!t) {
      t = new QueueAgeTracker();
      this.#ages.set(symbol, t);
    }
    t.observe(book, tsMs);
    let h = this.#history.get(symbol);
    if (!h) {
      h = [];
      this.#history.set(symbol, h);
    }
    // Frames may arrive with equal or (after a reconnect) earlier venue times: keep the list sorted.
    while (h.length > 0 && h[h.length - 1]!.tsMs > tsMs) h.pop();
    h.push({ tsMs, orders: t.orders(), bestBid: book.bids[0]?.priceTicks, bestAsk: book.asks[0]?.priceTicks });
    const cutoff = tsMs - (this.#o.historyMs ?? 30_000);
    let drop = 0;
    while (drop < h.length - 1 && h[drop + 1]!.tsMs <= cutoff) drop++;
    if (drop > 0) h.splice(0, drop);
  }

  /** Forgets a symbol's book (call when the market-data stream dropped): ages restart from the next snapshot. */
  resetBook(symbol: string): void {
    this.#ages.get(symbol)?.reset();
  }

  /** Scores the minute at `atMs` (venue time) for `symbol` and records it in its epoch. */
  sample(symbol: string, input: MinuteSampleInput, atMs: number): MinuteEstimate {
    if (input.bids && input.asks) this.observeBook(symbol, { bids: input.bids, asks: input.asks }, atMs);
    const epochStartMs = this.epochStartOf(atMs);
    const version = this.#versionAt(symbol, atMs);
    const bb = version?.bestBid;
    const ba = version?.bestAsk;
    const mid = bb === undefined || ba === undefined ? undefined : (input.priceOf(bb) + input.priceOf(ba)) / 2;
    if (!input.open || mid === undefined || !version) {
      const est: MinuteEstimate = { tsMs: atMs, epochStartMs, score: 0, share: 0, scored: false };
      this.#last.set(symbol, est);
      return est;
    }
    const orders: ScoredOrder[] = [];
    // Orders placed after the sample instant were not in the book the venue scored.
    const own = this.#ownOrders(symbol, input.ownOrders, atMs).filter((o) => o.restingSinceMs <= atMs);
    for (const o of own) orders.push({ accountId: SELF, side: o.side, price: input.priceOf(o.priceTicks), qty: o.qty, multiplier: input.multiplier, restedMs: atMs - o.restingSinceMs });
    const byPosition = this.#o.othersAs === 'queue-position';
    const position = new Map<string, number>();
    for (const o of othersOf(version.orders, own)) {
      let account = OTHERS;
      if (byPosition) {
        const key = `${o.side}:${o.priceTicks}`;
        const k = position.get(key) ?? 0;
        position.set(key, k + 1);
        account = `${OTHERS}:${k}`;
      }
      orders.push({ accountId: account, side: o.side, price: input.priceOf(o.priceTicks), qty: o.qty, multiplier: input.multiplier, restedMs: atMs - o.firstSeenMs });
    }
    const scores = scoreMinute(orders, mid, this.#o.params);
    const mine = scores.get(SELF);
    const est: MinuteEstimate = { tsMs: atMs, epochStartMs, score: mine?.q ?? 0, share: mine?.share ?? 0, scored: true };
    const weight = this.#o.bonusWeight?.(atMs, symbol) ?? 1;
    this.#epoch(symbol, epochStartMs).add(weight, new Map([[SELF, est.share]]));
    this.#last.set(symbol, est);
    return est;
  }

  /** The latest book version at or before `atMs`. */
  #versionAt(symbol: string, atMs: number): BookVersion | undefined {
    const h = this.#history.get(symbol);
    if (!h) return undefined;
    for (let i = h.length - 1; i >= 0; i--) if (h[i]!.tsMs <= atMs) return h[i];
    return undefined;
  }

  /** The last minute estimate for a symbol, or null before any sample. */
  lastMinute(symbol: string): MinuteEstimate | null {
    return this.#last.get(symbol) ?? null;
  }

  /** Our estimated share over an epoch (bonus-weighted average of minute shares), null when no minute was scored. */
  epochShare(symbol: string, epochStartMs: number): number | null {
    const acc = this.#epochs.get(symbol)?.get(epochStartMs);
    if (!acc || acc.minutes === 0) return null;
    return acc.shares(this.#o.params).get(SELF) ?? 0;
  }

  /** Scored minutes recorded for an epoch. */
  scoredMinutes(symbol: string, epochStartMs: number): number {
    return this.#epochs.get(symbol)?.get(epochStartMs)?.minutes ?? 0;
  }

  #epoch(symbol: string, epochStartMs: number): EpochScoreAccumulator {
    let bySym = this.#epochs.get(symbol);
    if (!bySym) {
      bySym = new Map();
      this.#epochs.set(symbol, bySym);
    }
    let acc = bySym.get(epochStartMs);
    if (!acc) {
      acc = new EpochScoreAccumulator();
      bySym.set(epochStartMs, acc);
      const keep = this.#o.keepEpochs ?? 16;
      while (bySym.size > keep) bySym.delete(Math.min(...bySym.keys()));
    }
    return acc;
  }

  /** Our orders with rest time restarted whenever an order's price changed since we last saw it. */
  #ownOrders(symbol: string, orders: readonly OwnOrderInput[], nowMs: number): OwnOrderInput[] {
    const seen = new Set<string>();
    const out: OwnOrderInput[] = [];
    for (const o of orders) {
      if (o.qty <= 0) continue;
      const key = `${symbol}:${o.id}`;
      seen.add(key);
      const prev = this.#ownPrice.get(key);
      const sinceMs = prev && prev.priceTicks !== o.priceTicks ? nowMs : Math.max(o.restingSinceMs, prev?.sinceMs ?? o.restingSinceMs);
      this.#ownPrice.set(key, { priceTicks: o.priceTicks, sinceMs });
      out.push({ ...o, restingSinceMs: sinceMs });
    }
    for (const key of this.#ownPrice.keys()) if (key.startsWith(`${symbol}:`) && !seen.has(key)) this.#ownPrice.delete(key);
    return out;
  }
}

/**
 * The public orders minus ours: per (side, price), remove one queue entry of exactly our size when
 * there is one (L3), else subtract our quantity from the level's entries back to front.
 */
export function othersOf<T extends { side: Side; priceTicks: number; qty: number }>(book: readonly T[], own: readonly { side: Side; priceTicks: number; qty: number }[]): T[] {
  const out = book.map((o) => ({ ...o }));
  for (const mine of own) {
    const at = out.map((o, i) => [o, i] as const).filter(([o]) => o.side === mine.side && o.priceTicks === mine.priceTicks && o.qty > 0);
    const exact = at.find(([o]) => o.qty === mine.qty);
    if (exact) {
      exact[0].qty = 0;
      continue;
    }
    let left = mine.qty;
    for (let k = at.length - 1; k >= 0 && left > 0; k--) {
      const o = at[k]![0];
      const take = Math.min(o.qty, left);
      o.qty -= take;
      left -= take;
    }
  }
  return out.filter((o) => o.qty > 0);
}
