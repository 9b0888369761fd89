import { truncate } from '../core/arrays.ts';
import { MmError } from '../core/errors.ts';
import { ASK, BID } from './dense-book.ts';
import type { ConsumedLiquidity } from './consumed-liquidity.ts';
import { ExchangeCore } from './exchange-core.ts';
import { byAskPriority, byBidPriority, leaves, type XOrder } from './exchange-order.ts';
import { aheadAfter, levelDiff, sizeAhead, type L3Levels } from './l3-fifo.ts';
import { noteDepthAdvance, seenInDepth } from './depth-before-print.ts';
import { depthLeftAt, inferredCondition } from './infer-hidden.ts';
import { TRADE_CODE } from '../record/format.ts';
import { CompetitorReaction } from './competitor-reaction.ts';

/**
 * The replay exchange's market side (exchange time): recorded books and trade prints advance our
 * orders' queues and fill them, with exact accounting: a print's volume is consumed once (also when
 * the frame showing it came first: depth-before-print.ts), displayed liquidity our orders take
 * stays taken until the level empties, a level pushed out of the recorded depth keeps our place in
 * its queue, and order-level recordings keep exact FIFO queues (l3-fifo.ts).
 */
export class ExchangeMarket extends ExchangeCore {
  /** Scratch list for fill allocation (no allocation per trade). */
  readonly #cand: XOrder[] = [];
  /** Scratch list of our orders whose level a frame removed, with the volume they had ahead (pairs). */
  readonly #gone: (XOrder | number)[] = [];
  /** Per symbol, the most levels a side of its book has shown: the recorded depth when the source cut its books. */
  readonly #depthSeen: number[] = [];
  /** Competitors answering our improving quotes (null: off, the recorded book never answers). */
  readonly reaction: CompetitorReaction | null = this._o.reaction ? new CompetitorReaction(this._o.reaction, this._o.seed) : null;

  /**
   * Our order `x` just rested: when it is alone better than every other order on its side, the
   * competitor model may answer it after a delay (on the action queue, exchange time).
   */
  protected _react(x: XOrder, s: number): void {
    const r = this.reaction;
    if (!r) return;
    const side = x.sideIdx;
    const best = this.bestOther(s, side);
    if (side === BID ? best >= x.priceTicks : best <= x.priceTicks) return;
    const delay = r.answerDelay();
    if (delay === null) return;
    this._o.actions.push(this.now + delay, () => {
      if (this.open[s]!.includes(x)) r.appear(s, x, this.bestOther(s, side), this.bestOther(s, side === BID ? ASK : BID));
    });
  }

  /**
   * True when `priceTicks` shows nothing because it is beyond the recorded depth rather than empty:
   * the side shows as many better levels as the deepest book the recording has shown (a source cut
   * to its top N levels writes a level pushed below the N-th as removed). Queue positions there are
   * kept, not reset to nothing ahead.
   */
  beyondDepth(s: number, side: number, priceTicks: number): boolean {
    const book = this.books[s]!;
    if (book.qty(side, priceTicks) > 0) return false;
    const n = this.#depthSeen[s] ?? 0;
    return n > 0 && book.levelsBetter(side, priceTicks, n) >= n;
  }

  #seeDepth(s: number): void {
    const book = this.books[s]!;
    const n = book.nBids > book.nAsks ? book.nBids : book.nAsks;
    if (n > (this.#depthSeen[s] ?? 0)) this.#depthSeen[s] = n;
  }

  /**
   * Applies a book frame from the columnar level pool: `levels[2j], levels[2j+1]` for j in
   * [start, start + nb + na), bids first. Updates queue positions and fills crossed orders.
   */
  applyBook(s: number, snapshot: boolean, levels: Float64Array, start: number, nb: number, na: number): void {
    const book = this.books[s]!;
    const orders = this.open[s]!;
    const no = orders.length;
    const consumed = this.consumed[s]!;
    const l3 = this.l3[s];
    // A fill by this frame crossing our order met the book as it was: its spread capture is
    // measured against the mid before the frame, not the crossed mid after it.
    const midBefore = no > 0 ? (book.bestBid() + book.bestAsk()) / 2 : NaN;
    if (snapshot) {
      const prev = no > 0 && !l3 ? orders.map((x) => this.othersQty(s, x.sideIdx, x.priceTicks)) : null;
      book.load(levels, start, nb, na);
      this.#seeDepth(s);
      if (!consumed.empty) consumed.afterSnapshot((side, p) => this.othersQty(s, side, p));
      if (prev) {
        for (let k = 0; k < no; k++) {
          const x = orders[k]!;
          if (!this.beyondDepth(s, x.sideIdx, x.priceTicks)) this._depth(x, prev[k]!, this.othersQty(s, x.sideIdx, x.priceTicks));
        }
      }
    } else {
      const own = this.own[s];
      const anyTaken = !consumed.empty;
      const gone = this.#gone;
      for (let j = start, end = start + nb + na; j < end; j++) {
        const side = j - start < nb ? BID : ASK;
        const p = levels[2 * j]!;
        const q = levels[2 * j + 1]!;
        const prev = book.set(side, p, q);
        // What our orders took at a level stays taken until it empties; a smaller level caps it.
        if (anyTaken && prev !== q) consumed.level(side, p, this.othersQty(s, side, p));
        if (l3) continue;
        for (let k = 0; k < no; k++) {
          const x = orders[k]!;
          if (x.priceTicks !== p || x.sideIdx !== side) continue;
          // Queue models see the volume of others: the recording bot's own orders are not ahead of us.
          const g = own ? own.qty(side, p) : 0;
          // A level that shows nothing now either emptied or left the recorded depth: told apart
          // once the whole frame is in (beyondDepth).
          if (q === 0) gone.push(x, prev > g ? prev - g : 0);
          else this._depth(x, prev > g ? prev - g : 0, q - g > 0 ? q - g : 0);
        }
      }
      this.#seeDepth(s);
      for (let k = 0; k < gone.length; k += 2) {
        const x = gone[k] as XOrder;
        if (!this.beyondDepth(s, x.sideIdx, x.priceTicks)) this._depth(x, gone[k + 1] as number, 0);
      }
      truncate(gone, 0);
      // A frame that does not list our level says nothing about it: the level's own feed may not
      // have shown the prints counted there yet, so the probabilistic models' trade count is reset
      // only by frames that list the level (above, changed or not). Resetting here read the print's
      // later depth drop as a cancel too: behind 100, print 50, unrelated frame, level 100 → 50,
      // then a print of 40 filled 15 (power(2)), not 0.
    }
    // After the levels: whether an emptied level left the recorded depth needs the whole frame.
    if (l3) this.#applyL3(s, l3, snapshot, levels, start, nb, nb + na);
    if (no > 0) this._fillCrossed(s, midBefore);
  }

  /**
   * L3: stores the row's order lists and moves our orders at changed levels to their new place in
   * the queue: behind the market orders ahead of them that are still there (fifoDiff).
   */
  #applyL3(s: number, l3: L3Levels, snapshot: boolean, levels: Float64Array, start: number, nb: number, n: number): void {
    const orderStart = l3.pool!.orderStart;
    const orders = this.open[s]!;
    if (snapshot) {
      const before = orders.map((x) => [l3.get(x.sideIdx, x.priceTicks), l3.ids(x.sideIdx, x.priceTicks)] as const);
      l3.clear();
      for (let j = start; j < start + n; j++) l3.setPooled(j - start < nb ? BID : ASK, levels[2 * j]!, j);
      for (let k = 0; k < orders.length; k++) {
        const x = orders[k]!;
        // Our level left the recorded depth: its last order list and our place in it are kept.
        if (this.beyondDepth(s, x.sideIdx, x.priceTicks)) l3.set(x.sideIdx, x.priceTicks, before[k]![0], before[k]![1]);
        else this.#requeue(x, levelDiff(before[k]![0], before[k]![1], l3.get(x.sideIdx, x.priceTicks), l3.ids(x.sideIdx, x.priceTicks)), l3.get(x.sideIdx, x.priceTicks));
      }
      return;
    }
    for (let j = start; j < start + n; j++) {
      const side = j - start < nb ? BID : ASK;
      const p = levels[2 * j]!;
      // A level pushed out of the recorded depth keeps its last order list (and our place in it):
      // when it shows again, the orders still there are matched against it.
      if (orderStart[j + 1] === orderStart[j] && this.beyondDepth(s, side, p)) continue;
      let mine = false;
      for (let k = 0; k < orders.length && !mine; k++) mine = orders[k]!.priceTicks === p && orders[k]!.sideIdx === side;
      if (!mine) {
        l3.setPooled(side, p, j);
        continue;
      }
      const prev = l3.get(side, p);
      const prevIds = l3.ids(side, p);
      l3.setPooled(side, p, j);
      const next = l3.get(side, p);
      const map = levelDiff(prev, prevIds, next, l3.ids(side, p));
      for (const x of orders) if (x.priceTicks === p && x.sideIdx === side) this.#requeue(x, map, next);
    }
  }

  /**
   * A public trade print of `qty`: its volume is consumed once. It fills our resting orders on the
   * side it hit in price-then-time order: first those priced better than the print (the aggressor
   * would have met them before reaching the print's price; each takes what is left of the print),
   * then those at the print's price through the queue model (what remains of the print advances the
   * queue; the excess over the volume ahead fills, our earlier orders there first). The sum of our
   * fills never exceeds the print. `condition` (format.ts TRADE_CODE): a hidden print traded a
   * non-displayed order, so it advances no displayed queue and fills only our orders priced better
   * than it (displayed orders there had priority over it); an auction cross fills nothing.
   * @throws MmError RECORDING_INVALID when the size is not a positive finite number or the price not a positive integer.
   */
  applyTrade(s: number, priceTicks: number, qty: number, takerBuy: boolean, condition: number = TRADE_CODE.regular): void {
    // A print of 0 or less (or NaN) would book fills of that size against our orders.
    if (!(qty > 0 && qty < Infinity) || !(priceTicks > 0 && Number.isSafeInteger(priceTicks))) this.#badPrint(s, priceTicks, qty);
    const orders = this.open[s]!;
    const no = orders.length;
    if (no === 0 || condition === TRADE_CODE.cross) return;
    const restingSide = takerBuy ? ASK : BID;
    if (this._o.queue.inferHidden === true && condition === TRADE_CODE.regular && !this.l3[s]) condition = this.#inferCondition(s, restingSide, priceTicks, condition);
    const hidden = condition === TRADE_CODE.hidden;
    // A competitor answering our improving quote is ahead of us: it takes the print first.
    const printQty = qty;
    if (this.reaction) {
      qty = this.reaction.absorb(s, restingSide, priceTicks, qty, hidden, orders, this.bestOther(s, restingSide));
      if (qty <= 0) return;
    }
    // Most prints meet at most one of our orders: that case allocates nothing and sorts nothing.
    const cand = this.#cand;
    let first: XOrder | null = null;
    let n = 0;
    for (let k = 0; k < no; k++) {
      const x = orders[k]!;
      if (x.sideIdx !== restingSide || (restingSide === BID ? x.priceTicks < priceTicks : x.priceTicks > priceTicks) || (hidden && x.priceTicks === priceTicks)) continue;
      if (n === 0) first = x;
      else {
        if (n === 1) {
          truncate(cand, 0);
          cand.push(first!);
        }
        cand.push(x);
      }
      n++;
    }
    if (n === 0) return;
    if (n === 1) {
      const x = first!;
      if (x.priceTicks !== priceTicks) this._fill(x, Math.min(leaves(x), qty), x.priceTicks, false);
      else {
        truncate(cand, 0);
        cand.push(x);
        this._fillAtPrint(s, cand, 0, qty, printQty);
      }
      truncate(cand, 0);
      return;
    }
    cand.sort(restingSide === BID ? byBidPriority : byAskPriority);
    let rem = qty;
    let k = 0;
    for (; k < cand.length && cand[k]!.priceTicks !== priceTicks; k++) {
      if (rem <= 0) continue;
      const x = cand[k]!;
      const f = Math.min(leaves(x), rem);
      rem -= f;
      this._fill(x, f, x.priceTicks, false);
    }
    if (k < cand.length) this._fillAtPrint(s, cand, k, rem, printQty);
    truncate(cand, 0);
  }

  /** @throws MmError RECORDING_INVALID naming the print's symbol, price, size and exchange time. */
  #badPrint(s: number, priceTicks: number, qty: number): never {
    const symbol = this._o.instruments[s]?.symbol ?? `#${s}`;
    const what = !(qty > 0 && qty < Infinity) ? `size ${qty} (expected a positive finite number of contracts)` : `price ${priceTicks} ticks (expected a positive integer)`;
    throw new MmError('RECORDING_INVALID', `trade print on ${symbol} at exchange time ${this.now} ms has ${what}`, { symbol, priceTicks, qty, tsExchangeMs: this.now });
  }

  /** infer-hidden.ts: a regular print where no displayed volume stood is read as hidden. */
  #inferCondition(s: number, side: number, priceTicks: number, condition: number): number {
    let goneNow = false;
    const orders = this.open[s]!;
    for (let k = 0; k < orders.length && !goneNow; k++) {
      const x = orders[k]!;
      goneNow = x.sideIdx === side && x.priceTicks === priceTicks && depthLeftAt(x.queue, this.now);
    }
    // The displayed level, the recording bot's own orders included: a print where only its order
    // stood was that bot's fill, a displayed execution.
    return inferredCondition(condition, this.books[s]!.qty(side, priceTicks), this.beyondDepth(s, side, priceTicks), goneNow);
  }

  /**
   * Our orders `cand[k..]` rest at the print's price (time order); `volume` of the print (of
   * `printQty` in all) reaches the level. L2: each order's queue advances by it; an order fills by
   * the excess over the volume ahead of it, less what our earlier orders there took; an order left
   * unfilled stops the print. L3: the same with the exact volume ahead, then the print trades the
   * market's queue from the front.
   */
  protected _fillAtPrint(s: number, cand: readonly XOrder[], k: number, volume: number, printQty: number): void {
    const l3 = this.l3[s];
    if (l3) return this.#fillAtPrintL3(l3, cand, k, volume, printQty);
    const queue = this._o.queue;
    let used = 0;
    let blocked = false;
    for (; k < cand.length; k++) {
      const x = cand[k]!;
      // Volume a book frame just before already took off the queue ahead is not traded again.
      queue.onTrade(x.queue, volume - seenInDepth(x.queue, volume, this.now, this.nettingWindowMs));
      if (x.queue.front >= 0) {
        blocked = true;
        continue;
      }
      const excess = Math.floor(-x.queue.front);
      x.queue.front = 0;
      if (blocked) continue;
      const want = leaves(x);
      const f = Math.min(want, excess - used, volume - used);
      if (f > 0) {
        used += f;
        this._fill(x, f, x.priceTicks, false);
      }
      if (f < want) blocked = true;
    }
  }

  /** A depth observation at `x`'s level (also when unchanged: probabilistic models reset their trade count). */
  protected _depth(x: XOrder, prev: number, next: number): void {
    const before = x.queue.front;
    this._o.queue.onDepth(x.queue, prev, next);
    if (Number.isFinite(before)) noteDepthAdvance(x.queue, before - Math.max(x.queue.front, 0), this.now, this.nettingWindowMs);
  }

  /**
   * L3 (hftbacktest's L3FIFOQueueModel): an order of ours fills when the market trades orders behind
   * it, i.e. by the print's excess over the market volume ahead of it (exact), our earlier orders at
   * the level first. The print then consumes the market's queue from the front, as it did in the
   * recording, which moves our orders up.
   */
  #fillAtPrintL3(l3: L3Levels, cand: readonly XOrder[], k: number, volume: number, printQty: number): void {
    let used = 0;
    let blocked = false;
    // Volume a book frame just before already took off the queue ahead is neither traded again in
    // the market's queue nor counted towards ours.
    const w = this.nettingWindowMs;
    const seen = seenInDepth(cand[k]!.queue, printQty, this.now, w);
    for (let i = k + 1; i < cand.length; i++) seenInDepth(cand[i]!.queue, printQty, this.now, w);
    for (let i = k; i < cand.length && !blocked; i++) {
      const x = cand[i]!;
      const want = leaves(x);
      const f = Math.min(want, volume - seen - x.queue.front - used);
      if (f > 0) {
        used += f;
        this._fill(x, f, x.priceTicks, false);
      }
      if (f < want) blocked = true;
    }
    const x0 = cand[k]!;
    const removed = l3.trade(x0.sideIdx, x0.priceTicks, printQty - seen);
    const orders = l3.get(x0.sideIdx, x0.priceTicks);
    for (let i = k; i < cand.length; i++) {
      const q = cand[i]!.queue;
      if (q.aheadOrders === Infinity) continue; // an unknown queue stays unknown until the level shows
      q.aheadOrders = Math.max(0, (q.aheadOrders ?? 0) - removed);
      q.front = sizeAhead(orders, q.aheadOrders);
    }
  }

  /** Where a new resting order joins its level: at the back (L3: behind every market order there). */
  protected _join(x: XOrder, s: number): void {
    const l3 = this.l3[s];
    if (!l3) {
      // Beyond the recorded depth the queue is unknown: the last size seen there, or nothing known
      // (an unbounded queue until the level shows: then the displayed size caps it).
      x.queue.front = this.beyondDepth(s, x.sideIdx, x.priceTicks) ? this.books[s]!.lastQty(x.sideIdx, x.priceTicks) || Infinity : this.othersQty(s, x.sideIdx, x.priceTicks);
      return;
    }
    const orders = l3.get(x.sideIdx, x.priceTicks);
    if (orders.length === 0 && this.beyondDepth(s, x.sideIdx, x.priceTicks)) {
      // Beyond the recorded depth with no order list kept: an unknown queue (∞ orders ahead, the
      // last size seen there or ∞ as the volume) until the level shows.
      x.queue.aheadOrders = Infinity;
      x.queue.front = this.books[s]!.lastQty(x.sideIdx, x.priceTicks) || Infinity;
      return;
    }
    x.queue.aheadOrders = orders.length;
    x.queue.front = sizeAhead(orders, orders.length);
  }

  /**
   * Resting orders the book now crosses (a bid at or above the best ask of others, an ask at or
   * below the best bid) fill as makers at their price against the crossing volume: each walks the
   * opposite levels up to its price, best order first (price, then time), taking what is displayed
   * and not yet taken (ConsumedLiquidity), so a small crossing order does not fill a big one.
   */
  protected _fillCrossed(s: number, midBefore: number): void {
    const orders = this.open[s]!;
    const ba = this.bestOther(s, ASK);
    const bb = this.bestOther(s, BID);
    const cand = this.#cand;
    truncate(cand, 0);
    for (let k = 0; k < orders.length; k++) {
      const x = orders[k]!;
      if (x.sideIdx === BID ? x.priceTicks >= ba : x.priceTicks <= bb) cand.push(x);
    }
    if (cand.length === 0) return;
    if (cand.length > 1) cand.sort((a, b) => (a.sideIdx - b.sideIdx) || (a.sideIdx === BID ? byBidPriority(a, b) : byAskPriority(a, b)));
    for (let k = 0; k < cand.length; k++) {
      const x = cand[k]!;
      this._walk(x, s, x.sideIdx === BID ? ASK : BID, x.priceTicks, false, midBefore);
    }
    truncate(cand, 0);
  }

  /**
   * Fills `x` against the displayed levels of `side` from the best up to `limitTicks` (others' volume
   * not yet taken), recording what it takes. Takers fill at each level's price, a crossed resting
   * order at its own price.
   */
  protected _walk(x: XOrder, s: number, side: number, limitTicks: number, aggressor: boolean, midBefore = NaN): void {
    const book = this.books[s]!;
    const consumed = this.consumed[s]!;
    const size = book.size;
    const stop = limitTicks - book.lo;
    if (side === ASK) {
      for (let i = book.bestAskIdx; i < size && i <= stop && leaves(x) > 0; i++) {
        if (book.asks[i]! > 0) this.#takeAt(x, s, consumed, ASK, book.lo + i, aggressor, midBefore);
      }
    } else {
      for (let i = book.bestBidIdx; i >= 0 && i >= stop && leaves(x) > 0; i--) {
        if (book.bids[i]! > 0) this.#takeAt(x, s, consumed, BID, book.lo + i, aggressor, midBefore);
      }
    }
  }

  /** Moves an L3 order behind the market orders ahead of it that stayed (`map` from levelDiff). */
  #requeue(x: XOrder, map: Int32Array, next: readonly number[]): void {
    if (x.queue.aheadOrders === Infinity) {
      // Joined beyond the recorded depth where no order list was known: behind every order the
      // level shows when it first shows.
      if (next.length > 0) {
        x.queue.aheadOrders = next.length;
        x.queue.front = sizeAhead(next, next.length);
      }
      return;
    }
    const before = x.queue.front;
    const a = aheadAfter(map, x.queue.aheadOrders ?? 0);
    x.queue.aheadOrders = a;
    x.queue.front = sizeAhead(next, a);
    noteDepthAdvance(x.queue, before - x.queue.front, this.now, this.nettingWindowMs);
  }

  #takeAt(x: XOrder, s: number, consumed: ConsumedLiquidity, side: number, p: number, aggressor: boolean, midBefore: number): void {
    // Never trade with the recording bot's own orders, nor twice with the same displayed volume.
    const avail = this.othersQty(s, side, p) - consumed.taken(side, p);
    if (avail <= 0) return;
    const f = Math.min(leaves(x), avail);
    consumed.take(side, p, f);
    this._fill(x, f, aggressor ? p : x.priceTicks, aggressor, aggressor ? 'taker' : 'cross', midBefore);
  }
}
