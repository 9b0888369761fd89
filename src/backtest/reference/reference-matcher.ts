import { RefBook } from './reference-book.ts';
import { fifoAhead, fifoTradeFront, fifoVolumeAhead, onListedL2, onPrintL2, type RefQueue } from './rules.ts';
import type { RefEvent, RefFill, RefLevel, RefOptions, RefSide } from './types.ts';

/** One of our orders in the reference. */
interface Ours {
  readonly ref: number;
  readonly side: 'buy' | 'sell';
  readonly level: RefSide;
  readonly priceTicks: number;
  readonly qty: number;
  readonly postOnly: boolean;
  readonly tif: 'GTC' | 'IOC';
  filled: number;
  /** Time priority among ours (higher = later). */
  seq: number;
  /** L2 rules: the market volume ahead. */
  readonly q: RefQueue;
  /** Exact FIFO: the ids of the market orders ahead (rules.ts fifoAhead); null while the queue is unknown (joined out of depth with no list known). */
  aheadIds: Set<number> | null;
  /** Queue ahead a frame at `frameMs` removed that no print has matched yet (a frame before its print). */
  frameAdvance: number;
  frameMs: number;
}

type Market = Extract<RefEvent, { kind: 'book' | 'print' }>;
type Request = Extract<RefEvent, { kind: 'place' | 'cancel' | 'replace' }>;

const opposite = (s: RefSide): RefSide => (s === 'bid' ? 'ask' : 'bid');
/** `a` is at least as good a price as `b` for an order on `side`. */
const atOrBetter = (side: RefSide, a: number, b: number): boolean => (side === 'bid' ? a >= b : a <= b);
const leaves = (o: Ours): number => o.qty - o.filled;
/** Fill priority among ours: the better price first, then the earlier. */
const priority = (a: Ours, b: Ours): number => (a.level === 'bid' ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks) || a.seq - b.seq;

/**
 * The reference matcher: small, slow and written to be read. It replays one symbol's market events
 * at their exchange instants and our requests at their arrival (send + entry latency, in the order
 * sent; market events at the same instant come first), and returns every fill of ours. Rules:
 * a print fills our orders priced better than it first (best price, then time; each takes what is
 * left), then those at its price through the queue rule; a frame crossing our resting order fills
 * it at its price against the displayed volume not yet taken; a marketable order takes the displayed
 * levels best first up to its limit; post-only orders that would cross are rejected.
 */
export function referenceMatch(events: readonly RefEvent[], opts: RefOptions): RefFill[] {
  const m = new ReferenceMatcher(opts);
  const market = events.filter((e): e is Market => e.kind === 'book' || e.kind === 'print').map((e, i) => ({ e, i }));
  // Market events happen at their exchange instant, whatever order they were recorded in.
  market.sort((a, b) => a.e.tMs - b.e.tMs || a.i - b.i);
  let lastArrival = -Infinity;
  const requests = events.filter((e): e is Request => e.kind === 'place' || e.kind === 'cancel' || e.kind === 'replace').map((e) => {
    lastArrival = Math.max(e.tMs + opts.entryMs, lastArrival);
    return { e, at: lastArrival };
  });
  let j = 0;
  for (const { e } of market) {
    while (j < requests.length && requests[j]!.at < e.tMs) m.request(requests[j]!.e, requests[j++]!.at);
    m.market(e);
  }
  for (; j < requests.length; j++) m.request(requests[j]!.e, requests[j]!.at);
  return m.fills;
}

class ReferenceMatcher {
  readonly fills: RefFill[] = [];
  readonly #book = new RefBook();
  readonly #ours: Ours[] = [];
  #seq = 0;
  #now = 0;

  constructor(readonly o: RefOptions) {}

  get #l3(): boolean {
    return this.o.rule.kind === 'fifo-by-id';
  }

  market(e: Market): void {
    this.#now = e.tMs;
    if (e.kind === 'print') {
      // An auction cross traded at the auction, not against the continuous book our orders rest in.
      if (e.auction !== true) this.#print(e.priceTicks, e.qty, e.takerBuy, e.hidden === true);
    }
    else this.#frame(e.snapshot, e.levels);
  }

  request(e: Request, at: number): void {
    this.#now = at;
    const x = this.#ours.find((o) => o.ref === e.ref);
    if (e.kind === 'place') {
      const y = newOrder(e.ref, e.side, e.priceTicks, e.qty, e.postOnly, e.tif);
      if (this.#valid(y)) this.#enter(y);
      return;
    }
    if (!x) return; // not working any more: the venue refuses the request
    if (e.kind === 'cancel') return this.#remove(x);
    // A replacement is checked like a new order and takes new time priority; refused, the order stays.
    const y = newOrder(x.ref, x.side, e.priceTicks, e.qty, x.postOnly, x.tif);
    if (!this.#valid(y) || (y.postOnly && this.#crosses(y.level, y.priceTicks))) return;
    this.#remove(x);
    this.#enter(y);
  }

  /** The venue's checks of a new order or a replacement: size at least the minimum, a positive price on the tick grid. */
  #valid(x: Ours): boolean {
    return Number.isSafeInteger(x.qty) && x.qty >= this.o.minOrderSize && Number.isSafeInteger(x.priceTicks) && x.priceTicks > 0;
  }

  /** True when `priceTicks` on `level` reaches the opposite best: the market's, or one of our own opposite orders'. */
  #crosses(level: RefSide, priceTicks: number): boolean {
    const opp = opposite(level);
    const prices = [this.#book.best(opp), ...this.#ours.filter((o) => o.level === opp).map((o) => o.priceTicks)].filter((p) => !Number.isNaN(p));
    return prices.some((p) => atOrBetter(level, priceTicks, p));
  }

  /** A valid order reaches the book: post-only across it is rejected, a marketable one takes first; GTC rests what is left, IOC expires. */
  #enter(x: Ours): void {
    if (this.#crosses(x.level, x.priceTicks)) {
      if (x.postOnly) return;
      if (!this.#take(x)) return;
    }
    if (leaves(x) > 0 && x.tif === 'GTC') this.#rest(x);
  }

  /** A marketable order takes displayed volume up to its limit, stopping short of our own opposite orders (then it is canceled). */
  #take(x: Ours): boolean {
    const opp = opposite(x.level);
    const own = this.#ours.filter((o) => o.level === opp && atOrBetter(x.level, x.priceTicks, o.priceTicks)).map((o) => o.priceTicks);
    const limit = own.length === 0 ? x.priceTicks : x.level === 'bid' ? Math.min(...own) - 1 : Math.max(...own) + 1;
    this.#walk(x, limit, 'taker');
    return own.length === 0 || leaves(x) === 0;
  }

  /** `x` takes the opposite side's displayed volume not yet taken, best first up to `limitTicks`. */
  #walk(x: Ours, limitTicks: number, source: 'taker' | 'cross'): void {
    const opp = opposite(x.level);
    for (const p of this.#book.pricesBestFirst(opp)) {
      if (leaves(x) === 0 || !atOrBetter(x.level, limitTicks, p)) break;
      const free = this.#book.qty(opp, p) - this.#book.taken(opp, p);
      if (free <= 0) continue;
      const q = Math.min(leaves(x), free);
      this.#book.take(opp, p, q);
      this.#fill(x, q, source === 'taker' ? p : x.priceTicks, source);
    }
  }

  #rest(x: Ours): void {
    const b = this.#book;
    x.seq = ++this.#seq;
    if (!this.#l3) {
      x.q.ahead = b.outOfDepth(x.level, x.priceTicks) ? b.lastShown(x.level, x.priceTicks) || Infinity : b.qty(x.level, x.priceTicks);
    } else {
      const orders = b.orders(x.level, x.priceTicks);
      x.aheadIds = orders.length === 0 && b.outOfDepth(x.level, x.priceTicks) ? null : new Set(orders.map((o) => o.id));
    }
    this.#ours.push(x);
  }

  #remove(x: Ours): void {
    const i = this.#ours.indexOf(x);
    if (i >= 0) this.#ours.splice(i, 1);
  }

  #fill(x: Ours, qty: number, priceTicks: number, source: RefFill['source']): void {
    x.filled += qty;
    if (x.filled >= x.qty) this.#remove(x);
    this.fills.push({ tMs: this.#now, ref: x.ref, side: x.side, priceTicks, qty, source });
  }

  /** The market volume ahead of `x` now. */
  #ahead(x: Ours): number {
    if (!this.#l3) return x.q.ahead;
    if (x.aheadIds === null) return this.#book.lastShown(x.level, x.priceTicks) || Infinity;
    return fifoVolumeAhead(x.aheadIds, this.#book.orders(x.level, x.priceTicks));
  }

  /** A frame moved `x` up by `advanced`: a print at this instant is that volume, not a new trade. */
  #noteAdvance(x: Ours, advanced: number): void {
    if (!(advanced > 0)) return;
    x.frameAdvance = (x.frameMs === this.#now ? x.frameAdvance : 0) + advanced;
    x.frameMs = this.#now;
  }

  /** The part of a print of `volume` that a frame at this instant already showed gone from ahead of `x`. */
  #alreadySeen(x: Ours, volume: number): number {
    if (x.frameAdvance <= 0 || x.frameMs !== this.#now) return 0;
    const seen = Math.min(x.frameAdvance, volume);
    x.frameAdvance -= seen;
    return seen;
  }

  #print(priceTicks: number, qty: number, takerBuy: boolean, hidden: boolean): void {
    if (!(qty > 0)) return; // a print of nothing trades nothing
    const level: RefSide = takerBuy ? 'ask' : 'bid';
    // The aggressor meets our orders priced better than the print before it reaches the print's price.
    const better = this.#ours.filter((o) => o.level === level && atOrBetter(level, o.priceTicks, priceTicks) && o.priceTicks !== priceTicks).sort(priority);
    let left = qty;
    for (const x of better) {
      const q = Math.min(leaves(x), left);
      if (q <= 0) continue;
      left -= q;
      this.#fill(x, q, x.priceTicks, 'print');
    }
    // A hidden print traded a non-displayed order: displayed orders at its price had priority over it and did not trade.
    const at = hidden ? [] : this.#ours.filter((o) => o.level === level && o.priceTicks === priceTicks).sort(priority);
    if (at.length === 0) return;
    if (this.#l3) return this.#printFifo(at, left, qty);
    let used = 0;
    let stopped = false;
    for (const x of at) {
      onPrintL2(this.o.rule, x.q, left - this.#alreadySeen(x, left));
      if (x.q.ahead >= 0) {
        stopped = true;
        continue;
      }
      const reached = Math.floor(-x.q.ahead);
      x.q.ahead = 0;
      if (stopped) continue;
      const want = leaves(x);
      const q = Math.min(want, reached - used, left - used);
      if (q > 0) {
        used += q;
        this.#fill(x, q, x.priceTicks, 'print');
      }
      // An order of ours left unfilled stops the print: the ones behind it are not reached.
      if (q < want) stopped = true;
    }
  }

  /** Exact FIFO: ours fill by the print's excess over the market volume ahead; the print then trades the market's queue from the front. */
  #printFifo(at: readonly Ours[], volume: number, printQty: number): void {
    const x0 = at[0]!;
    const seen = this.#alreadySeen(x0, printQty);
    for (const x of at.slice(1)) this.#alreadySeen(x, printQty);
    let used = 0;
    for (const x of at) {
      const want = leaves(x);
      const q = Math.min(want, volume - seen - this.#ahead(x) - used);
      if (q > 0) {
        used += q;
        this.#fill(x, q, x.priceTicks, 'print');
      }
      if (q < want) break;
    }
    const traded = fifoTradeFront(this.#book.orders(x0.level, x0.priceTicks), printQty - seen);
    this.#book.setOrders(x0.level, x0.priceTicks, traded);
    for (const x of at) if (x.aheadIds !== null) x.aheadIds = fifoAhead(x.aheadIds, traded);
  }

  #frame(snapshot: boolean, levels: readonly RefLevel[]): void {
    const b = this.#book;
    const hadOrders = this.#ours.length > 0;
    const before = this.#ours.map((x) => ({ x, qty: b.qty(x.level, x.priceTicks), orders: b.orders(x.level, x.priceTicks), ahead: this.#ahead(x) }));
    const listed = (x: Ours): boolean => snapshot || levels.some((l) => l.side === x.level && l.priceTicks === x.priceTicks);
    if (snapshot) b.load(levels);
    else for (const l of levels) b.setLevel(l);
    b.seeDepth();
    for (const { x, qty, orders, ahead } of before) {
      // A level our order is at that left the recorded depth keeps our place (and, L3, its order list).
      if (!listed(x) || b.outOfDepth(x.level, x.priceTicks)) {
        if (this.#l3 && snapshot) b.setOrders(x.level, x.priceTicks, orders);
        continue;
      }
      if (!this.#l3) onListedL2(this.o.rule, x.q, qty, b.qty(x.level, x.priceTicks));
      else {
        const now = levels.find((l) => l.side === x.level && l.priceTicks === x.priceTicks)?.orders ?? [];
        if (x.aheadIds === null) {
          if (now.length > 0) x.aheadIds = new Set(now.map((o) => o.id));
          b.setOrders(x.level, x.priceTicks, now);
          continue;
        }
        b.setOrders(x.level, x.priceTicks, now);
        x.aheadIds = fifoAhead(x.aheadIds, now);
      }
      if (Number.isFinite(ahead)) this.#noteAdvance(x, ahead - Math.max(this.#ahead(x), 0));
    }
    // Order lists of levels none of ours is at are the frame's (an empty list out of depth keeps the last one).
    if (this.#l3) {
      for (const l of levels) {
        if (this.#ours.some((x) => x.level === l.side && x.priceTicks === l.priceTicks)) continue;
        if ((l.orders ?? []).length === 0 && b.outOfDepth(l.side, l.priceTicks)) continue;
        b.setOrders(l.side, l.priceTicks, l.orders ?? []);
      }
    }
    if (hadOrders) this.#fillCrossed();
  }

  /** Our resting orders the frame now crosses fill at their price against the crossing volume not yet taken: bids first, then asks, each by priority. */
  #fillCrossed(): void {
    const bestAsk = this.#book.best('ask');
    const bestBid = this.#book.best('bid');
    const crossed = this.#ours.filter((x) => (x.level === 'bid' ? x.priceTicks >= bestAsk : x.priceTicks <= bestBid));
    crossed.sort((a, b) => (a.level === b.level ? priority(a, b) : a.level === 'bid' ? -1 : 1));
    for (const x of crossed) this.#walk(x, x.priceTicks, 'cross');
  }
}

function newOrder(ref: number, side: 'buy' | 'sell', priceTicks: number, qty: number, postOnly: boolean, tif: 'GTC' | 'IOC'): Ours {
  return { ref, side, level: side === 'buy' ? 'bid' : 'ask', priceTicks, qty, postOnly, tif, filled: 0, seq: 0, q: { ahead: 0, printedSinceListed: 0 }, aheadIds: new Set(), frameAdvance: 0, frameMs: NaN };
}
