import type { OrderEvent } from '../../domain/events.ts';
import type { Order } from '../../domain/order.ts';
import { KIND } from '../../record/format.ts';
import type { ColumnarRecording } from '../../record/columnar.ts';
import { ASK, BID, DenseBook } from '../dense-book.ts';
import { fillBound } from '../fill-bound.ts';
import type { BacktestFill } from '../ledger.ts';

/** The rules `mmbot backtest --check` holds a replay to. */
export type InvariantRule = 'fill-bound' | 'fill-before-arrival' | 'fill-after-cancel' | 'own-cross' | 'post-only-crossed';

/** One broken rule: where (symbol, exchange time, order) and what. */
export interface Violation {
  readonly rule: InvariantRule;
  readonly symbol: string;
  /** Exchange time (ms since the epoch); NaN for the whole-run fill bound. */
  readonly tsMs: number;
  readonly orderId: string | null;
  readonly detail: string;
}

/** What was checked and every violation found. */
export interface InvariantReport {
  readonly fills: number;
  readonly orders: number;
  /** Price levels and sides our maker fills were held against the market's prints. */
  readonly levels: number;
  readonly violations: readonly Violation[];
}

/** One of our orders as the venue's events tell its life: from its arrival (acceptance) to its end. */
interface Life {
  readonly order: Order;
  readonly arrivedMs: number;
  /** Why and when it stopped working (replaced, canceled, expired, filled); null while working. */
  end: { readonly kind: string; readonly tsMs: number } | null;
}

/**
 * Checks a finished replay against the venue's invariants: (1) our maker fills at each price and
 * side never exceed what the recorded prints traded at or through it (fill-bound.ts, book crossings
 * included); (2) no fill of an order before the venue accepted it (its arrival at the matching
 * engine) nor after its cancel or replace arrived; (3) our resting bids never at or above our
 * resting asks at the end of an exchange instant; (4) a post-only order never takes liquidity and
 * never rests across the recorded book as of its arrival. `events` is the order stream as the
 * exchange emitted it (delivery order is emission order: the reply channel is FIFO). The recorded
 * book is the displayed one: a daemon's recording with `o` lines (its own orders) may show a
 * post-only order crossing the recording bot's own order, which the replay rightly ignores.
 */
export function checkInvariants(col: ColumnarRecording, events: readonly OrderEvent[], fills: readonly BacktestFill[], feedLatencyOffsetMs = 0): InvariantReport {
  const violations: Violation[] = [];
  const bound = fillBound(col, fills);
  for (const r of bound.over)
    violations.push({ rule: 'fill-bound', symbol: r.symbol, tsMs: NaN, orderId: null, detail: `${r.side} at ${r.priceTicks} ticks: our maker fills ${r.ours} (${r.crossed} by book crossings) exceed the ${r.market} the market traded at or through the price` });
  const lives = new Map<string, Life>();
  const books = new RecordedBooks(col, feedLatencyOffsetMs);
  let instant = -Infinity;
  const crossed = new Set<string>();
  const start = (order: Order, tsMs: number): void => {
    lives.set(order.orderId, { order, arrivedMs: tsMs, end: null });
    if (order.postOnly && books.crosses(order, tsMs))
      violations.push({ rule: 'post-only-crossed', symbol: order.symbol, tsMs, orderId: order.orderId, detail: `post-only ${order.side} at ${order.priceTicks} ticks accepted across the recorded book (best ${order.side === 'buy' ? 'ask' : 'bid'} ${books.bestAgainst(order)})` });
  };
  const stop = (orderId: string, kind: string, tsMs: number): void => {
    const l = lives.get(orderId);
    if (l && l.end === null) l.end = { kind, tsMs };
  };
  for (const ev of events) {
    if (ev.tsEvent > instant) {
      violations.push(...ownCrossings(lives, instant, crossed));
      instant = ev.tsEvent;
    }
    switch (ev.type) {
      case 'accepted':
        start(ev.order, ev.tsEvent);
        break;
      case 'replaced':
        stop(ev.original.orderId, 'replaced', ev.tsEvent);
        if (ev.replacement) start(ev.replacement, ev.tsEvent);
        break;
      case 'canceled':
      case 'expired':
      case 'rejected':
      case 'done-for-day':
        stop(ev.order.orderId, ev.type, ev.tsEvent);
        break;
      case 'filled': {
        const id = ev.order.orderId;
        const l = lives.get(id);
        const what = `fill of ${ev.fillQty} at ${ev.fillPriceTicks} ticks`;
        if (!l || ev.tsEvent < l.arrivedMs)
          violations.push({ rule: 'fill-before-arrival', symbol: ev.order.symbol, tsMs: ev.tsEvent, orderId: id, detail: `${what} before the order reached the matching engine${l ? ` (at ${l.arrivedMs})` : ' (never accepted)'}` });
        else if (l.end !== null)
          violations.push({ rule: 'fill-after-cancel', symbol: ev.order.symbol, tsMs: ev.tsEvent, orderId: id, detail: `${what} after the order was ${l.end.kind} at ${l.end.tsMs}` });
        if (ev.aggressor && ev.order.postOnly)
          violations.push({ rule: 'post-only-crossed', symbol: ev.order.symbol, tsMs: ev.tsEvent, orderId: id, detail: `post-only order took liquidity: ${what} as taker` });
        if (!ev.partial) stop(id, 'filled', ev.tsEvent);
        break;
      }
      default:
        break;
    }
  }
  violations.push(...ownCrossings(lives, instant, crossed));
  return { fills: fills.length, orders: lives.size, levels: bound.rows.length, violations };
}

/** Our working GTC orders of one symbol crossing each other at the end of an instant (each pair once: the best bid against the best ask). */
function ownCrossings(lives: ReadonlyMap<string, Life>, tsMs: number, reported: Set<string>): Violation[] {
  const best = new Map<string, { bid: Order | null; ask: Order | null }>();
  for (const l of lives.values()) {
    if (l.end !== null || l.order.tif === 'IOC') continue;
    const b = best.get(l.order.symbol) ?? { bid: null, ask: null };
    const o = l.order;
    if (o.side === 'buy' && (!b.bid || o.priceTicks > b.bid.priceTicks)) b.bid = o;
    if (o.side === 'sell' && (!b.ask || o.priceTicks < b.ask.priceTicks)) b.ask = o;
    best.set(o.symbol, b);
  }
  const out: Violation[] = [];
  for (const [symbol, { bid, ask }] of best)
    if (bid && ask && bid.priceTicks >= ask.priceTicks)
      out.push({ rule: 'own-cross', symbol, tsMs, orderId: bid.orderId, detail: `our buy ${bid.orderId} at ${bid.priceTicks} ticks rests at or above our sell ${ask.orderId} at ${ask.priceTicks}` });
  // A crossing that lasts is one violation, not one per instant.
  return out.filter((v) => !reported.has(v.detail) && reported.add(v.detail));
}

/** The recording's displayed books replayed on exchange time (clamped monotone, never after receipt, as the runner does). */
class RecordedBooks {
  readonly #books: DenseBook[];
  readonly #sym = new Map<string, number>();
  #i = 0;
  #t = -Infinity;

  constructor(
    readonly col: ColumnarRecording,
    readonly offsetMs: number,
  ) {
    this.#books = col.instruments.map((_, s) => new DenseBook(col.minTick[s]!, col.maxTick[s]!, 64));
    col.instruments.forEach((inst, s) => this.#sym.set(inst.symbol, s));
  }

  /** Applies the rows the exchange had processed by an arrival at `tsMs` (rows at the same instant come first). */
  #advance(tsMs: number): void {
    const c = this.col;
    for (; this.#i < c.length; this.#i++) {
      const t = Math.max(this.#t, Math.min(c.tsEvent[this.#i]!, c.tsRecv[this.#i]! + this.offsetMs));
      if (t > tsMs) break;
      this.#t = t;
      const k = c.kind[this.#i];
      const book = this.#books[c.sym[this.#i]!];
      if (!book || (k !== KIND.bookDelta && k !== KIND.bookSnapshot)) continue;
      const start = c.a[this.#i]!;
      const nb = c.b[this.#i]!;
      const na = c.c[this.#i]!;
      if (k === KIND.bookSnapshot) book.load(c.levels, start, nb, na);
      else for (let j = start; j < start + nb + na; j++) book.set(j - start < nb ? BID : ASK, c.levels[2 * j]!, c.levels[2 * j + 1]!);
    }
  }

  /** The opposite best an order arriving at `tsMs` met (NaN when that side was empty). */
  bestAgainst(o: Order): number {
    const book = this.#books[this.#sym.get(o.symbol) ?? -1];
    if (!book) return NaN;
    return o.side === 'buy' ? book.bestAsk() : book.bestBid();
  }

  /** True when `o`, accepted at `tsMs`, rests at or through the opposite best of the recorded book. */
  crosses(o: Order, tsMs: number): boolean {
    this.#advance(tsMs);
    const opp = this.bestAgainst(o);
    return o.side === 'buy' ? o.priceTicks >= opp : o.priceTicks <= opp;
  }
}
