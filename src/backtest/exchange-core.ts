import { Decimal } from '../core/decimal.ts';
import type { Clock } from '../core/clock.ts';
import { asExecutionId } from '../core/ids.ts';
import type { InstrumentState } from '../domain/enums.ts';
import type { OrderEvent } from '../domain/events.ts';
import { fundingCash, type FundingEstimate, type FundingSettlement } from '../domain/funding.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { ActionQueue } from './action-queue.ts';
import { ASK, BID, DenseBook } from './dense-book.ts';
import { OwnLevels } from './own-levels.ts';
import { ReplayIds } from './replay-ids.ts';
import { ConsumedLiquidity } from './consumed-liquidity.ts';
import { byAskPriority, byBidPriority, leaves, toOrder, type XOrder } from './exchange-order.ts';
import { FillRecord, SymbolLedger, type BacktestFill, type FeeSchedule } from './ledger.ts';
import type { LatencyModel } from './latency-model.ts';
import type { RoundTripOp } from '../record/format.ts';
import type { QueueModel } from './queue-model.ts';

const isScheduleList = (f: FeeSchedule | readonly FeeSchedule[]): f is readonly FeeSchedule[] => Array.isArray(f);

/** What the replay exchange needs. */
export interface ReplayExchangeOptions {
  /** Instruments by symbol index (the columnar recording's order). */
  readonly instruments: readonly Instrument[];
  /** Price range per symbol index (ticks), for the dense books. */
  readonly minTick: ArrayLike<number>;
  readonly maxTick: ArrayLike<number>;
  /** The bot's (virtual) clock: requests leave at its time. */
  readonly clock: Clock;
  readonly actions: ActionQueue;
  readonly latency: LatencyModel;
  readonly queue: QueueModel;
  /** One schedule for every symbol, or one per symbol index. */
  readonly fees: FeeSchedule | readonly FeeSchedule[];
  readonly seed: number;
  /**
   * The venue's order-entry rate limit (per user, place/replace/cancel/cancel-all; rules.md §10):
   * a token bucket on exchange time; a request finding it empty is answered 429. null = unlimited.
   */
  readonly rateLimit?: { readonly burst: number; readonly perSecond: number } | null;
  /** Max open orders per symbol before MAX_OPEN_ORDERS_EXCEEDED (venue default 100). */
  readonly maxOpenOrders?: number;
  /** Delivers an order event to the bot (at its arrival time). */
  readonly onOrderEvent: (ev: OrderEvent) => void;
  /** Called whenever a gateway promise settles, so the runner lets continuations run. */
  readonly onSettled: () => void;
  /** Called on every fill (exchange time), for reports. */
  readonly onFill?: (fill: BacktestFill) => void;
}

/**
 * The replay exchange's state and market side: books, our resting orders, ledgers, the FIFO reply
 * channel, and how recorded market data advances queues and fills resting orders. Order entry and
 * the gateway/account ports are in ReplayExchange (replay-exchange.ts).
 */
export class ExchangeCore {
  /** Current exchange time (the runner sets it before each step). */
  now = 0;
  readonly books: DenseBook[];
  readonly ledgers: SymbolLedger[];
  /** Open orders per symbol index (small arrays: a quoting bot has a handful). */
  readonly open: XOrder[][];
  /** Every fill booked, in exchange-time order. */
  readonly fillLog: BacktestFill[] = [];
  /** Latest ready funding estimate per symbol (from tickers), for schedule-driven settlement. */
  readonly fundingEstimates: (FundingEstimate | null)[];
  /** The recording bot's own working orders per symbol (`o` lines), null until the first one. */
  readonly own: (OwnLevels | null)[];
  /** Displayed liquidity our orders took per symbol, until the recording changes the level. */
  readonly consumed: ConsumedLiquidity[];
  /** Time-priority counter of our resting orders (XOrder.seq). */
  protected _seq = 0;
  /** Scratch list for fill allocation (no allocation per trade). */
  readonly #cand: XOrder[] = [];
  protected readonly _byId = new Map<string, XOrder>();
  protected readonly _symIdx = new Map<string, number>();
  protected readonly _state: InstrumentState[];
  protected readonly _band: { lo: number; hi: number }[];
  protected readonly _ids: ReplayIds;
  protected _lastArrival = -Infinity;
  protected _lastDelivery = -Infinity;
  protected readonly _o: ReplayExchangeOptions;
  /** Response leg of the request being processed (recorded latency), null = sample per delivery. */
  protected _replyMs: number | null = null;
  /** Order-entry requests answered 429 by the emulated venue limit. */
  rateLimited = 0;
  #tokens = Infinity;
  #tokensMs = -Infinity;

  constructor(o: ReplayExchangeOptions) {
    this._o = o;
    this.books = o.instruments.map((_, s) => new DenseBook(o.minTick[s]!, o.maxTick[s]!, 64));
    const fees = o.fees;
    this.ledgers = o.instruments.map((i, s) => new SymbolLedger(i, isScheduleList(fees) ? fees[s]! : fees));
    this.open = o.instruments.map(() => []);
    this.fundingEstimates = o.instruments.map(() => null);
    this.own = o.instruments.map(() => null);
    this.consumed = o.instruments.map(() => new ConsumedLiquidity());
    this._state = o.instruments.map(() => 'OPEN');
    this._band = o.instruments.map(() => ({ lo: -Infinity, hi: Infinity }));
    o.instruments.forEach((i, s) => this._symIdx.set(i.symbol, s));
    this._ids = new ReplayIds(o.seed);
    if (o.rateLimit) this.#tokens = o.rateLimit.burst;
  }

  // ------------------------------------------------------------------ market side (exchange time)

  /**
   * Applies a book frame from the columnar level pool: `levels[2j], levels[2j+1]` for j in
   * [start, start + nb + na), bids first. Updates queue positions and fills crossed orders.
   */
  applyBook(s: number, snapshot: boolean, levels: Float64Array, start: number, nb: number, na: number): void {
    const book = this.books[s]!;
    const orders = this.open[s]!;
    const no = orders.length;
    const consumed = this.consumed[s]!;
    if (snapshot) {
      const prev = no > 0 ? orders.map((x) => this.othersQty(s, x.sideIdx, x.priceTicks)) : null;
      const taken = consumed.empty ? null : consumed.levelsTaken((side, p) => book.qty(side, p));
      book.load(levels, start, nb, na);
      if (taken) consumed.afterSnapshot(taken, (side, p) => book.qty(side, p));
      if (prev) for (let k = 0; k < no; k++) this._depth(orders[k]!, prev[k]!, this.othersQty(s, orders[k]!.sideIdx, orders[k]!.priceTicks));
    } else {
      const own = this.own[s];
      const anyTaken = !consumed.empty;
      for (let j = start, end = start + nb + na; j < end; j++) {
        const side = j - start < nb ? BID : ASK;
        const p = levels[2 * j]!;
        const q = levels[2 * j + 1]!;
        const prev = book.set(side, p, q);
        // Fresh data at a level: what our orders took there is displayed again (NautilusTrader's rule).
        if (anyTaken && prev !== q) consumed.reset(side, p);
        for (let k = 0; k < no; k++) {
          const x = orders[k]!;
          if (x.priceTicks !== p || x.sideIdx !== side) continue;
          // Queue models see the volume of others: the recording bot's own orders are not ahead of us.
          const g = own ? own.qty(side, p) : 0;
          this._depth(x, prev > g ? prev - g : 0, q > g ? q - g : 0);
        }
      }
    }
    if (no > 0) this._fillCrossed(s);
  }

  /**
   * A public trade print of `qty`: its volume is consumed once. It fills our resting orders on the
   * side it hit in price-then-time order: first those priced better than the print (the aggressor
   * would have met them before reaching the print's price; each takes what is left of the print),
   * then those at the print's price through the queue model (what remains of the print advances the
   * queue; the excess over the volume ahead fills, our earlier orders there first). The sum of our
   * fills never exceeds the print.
   */
  applyTrade(s: number, priceTicks: number, qty: number, takerBuy: boolean): void {
    const orders = this.open[s]!;
    const no = orders.length;
    if (no === 0) return;
    const restingSide = takerBuy ? ASK : BID;
    // Most prints meet at most one of our orders: that case allocates nothing and sorts nothing.
    const cand = this.#cand;
    let first: XOrder | null = null;
    let n = 0;
    for (let k = 0; k < no; k++) {
      const x = orders[k]!;
      if (x.sideIdx !== restingSide || (restingSide === BID ? x.priceTicks < priceTicks : x.priceTicks > priceTicks)) continue;
      if (n === 0) first = x;
      else {
        if (n === 1) {
          cand.length = 0;
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
        cand.length = 0;
        cand.push(x);
        this._fillAtPrint(cand, 0, qty);
      }
      cand.length = 0;
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
    if (k < cand.length) this._fillAtPrint(cand, k, rem);
    cand.length = 0;
  }

  /**
   * Our orders `cand[k..]` rest at the print's price (time order); `volume` of the print reaches the
   * level. L2: each order's queue advances by it; an order fills by the excess over the volume ahead
   * of it, less what our earlier orders there took; an order left unfilled stops the print.
   */
  protected _fillAtPrint(cand: readonly XOrder[], k: number, volume: number): void {
    const queue = this._o.queue;
    let used = 0;
    let blocked = false;
    for (; k < cand.length; k++) {
      const x = cand[k]!;
      queue.onTrade(x.queue, volume);
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

  /**
   * The recording bot's own working orders on symbol `s` (an `o` line, levels as in applyBook):
   * from now on they are taken out of the displayed levels for queue positions, fills and crossing.
   * Depth changes they explain are not queue events, so no queue is updated here.
   */
  applyOwn(s: number, levels: Float64Array, start: number, nb: number, na: number): void {
    let own = this.own[s];
    if (!own) this.own[s] = own = new OwnLevels(this.books[s]!);
    own.replace(levels, start, nb, na);
  }

  /** Displayed quantity at a price minus the recording bot's own orders there. */
  othersQty(s: number, side: number, priceTicks: number): number {
    const own = this.own[s];
    return own ? own.others(this.books[s]!, side, priceTicks) : this.books[s]!.qty(side, priceTicks);
  }

  /** Best price of a side with volume other than the recording bot's own orders (NaN when none). */
  bestOther(s: number, side: number): number {
    const own = this.own[s];
    const book = this.books[s]!;
    if (own) return own.bestOther(book, side);
    return side === BID ? book.bestBid() : book.bestAsk();
  }

  /** A ticker: instrument state and price band for order checks, and the latest funding estimate. */
  applyTicker(s: number, state: InstrumentState, bandLo: number | null, bandHi: number | null, funding: FundingEstimate | null = null): void {
    this._state[s] = state;
    this._band[s] = { lo: bandLo ?? -Infinity, hi: bandHi ?? Infinity };
    if (funding && funding.status === 'ready' && funding.amount !== null) this.fundingEstimates[s] = funding;
  }

  /** A funding settlement: positions held now pay or receive (longs pay when amount > 0). */
  applyFunding(s: number, settlement: FundingSettlement): Decimal {
    const ledger = this.ledgers[s]!;
    const cash = fundingCash(ledger.position, settlement.amount, ledger.instrument.multiplier);
    ledger.funding = ledger.funding.plus(cash);
    ledger.fundingEvents++;
    return cash;
  }

  protected _depth(x: XOrder, prev: number, next: number): void {
    if (prev !== next) this._o.queue.onDepth(x.queue, prev, next);
  }

  /**
   * Resting orders the book now crosses (a bid at or above the best ask of others, an ask at or
   * below the best bid) fill as makers at their price against the crossing volume: each walks the
   * opposite levels up to its price, best order first (price, then time), taking what is displayed
   * and not yet taken (ConsumedLiquidity), so a small crossing order does not fill a big one.
   */
  protected _fillCrossed(s: number): void {
    const orders = this.open[s]!;
    const ba = this.bestOther(s, ASK);
    const bb = this.bestOther(s, BID);
    const cand = this.#cand;
    cand.length = 0;
    for (let k = 0; k < orders.length; k++) {
      const x = orders[k]!;
      if (x.sideIdx === BID ? x.priceTicks >= ba : x.priceTicks <= bb) cand.push(x);
    }
    if (cand.length === 0) return;
    if (cand.length > 1) cand.sort((a, b) => (a.sideIdx - b.sideIdx) || (a.sideIdx === BID ? byBidPriority(a, b) : byAskPriority(a, b)));
    for (let k = 0; k < cand.length; k++) {
      const x = cand[k]!;
      this._walk(x, s, x.sideIdx === BID ? ASK : BID, x.priceTicks, false);
    }
    cand.length = 0;
  }

  /**
   * Fills `x` against the displayed levels of `side` from the best up to `limitTicks` (others' volume
   * not yet taken), recording what it takes. Takers fill at each level's price, a crossed resting
   * order at its own price.
   */
  protected _walk(x: XOrder, s: number, side: number, limitTicks: number, aggressor: boolean): void {
    const book = this.books[s]!;
    const consumed = this.consumed[s]!;
    const size = book.size;
    const stop = limitTicks - book.lo;
    if (side === ASK) {
      for (let i = book.bestAskIdx; i < size && i <= stop && leaves(x) > 0; i++) {
        if (book.asks[i]! > 0) this.#takeAt(x, s, consumed, ASK, book.lo + i, aggressor);
      }
    } else {
      for (let i = book.bestBidIdx; i >= 0 && i >= stop && leaves(x) > 0; i--) {
        if (book.bids[i]! > 0) this.#takeAt(x, s, consumed, BID, book.lo + i, aggressor);
      }
    }
  }

  #takeAt(x: XOrder, s: number, consumed: ConsumedLiquidity, side: number, p: number, aggressor: boolean): void {
    // Never trade with the recording bot's own orders, nor twice with the same displayed volume.
    const avail = this.othersQty(s, side, p) - consumed.taken(side, p);
    if (avail <= 0) return;
    const f = Math.min(leaves(x), avail);
    consumed.take(side, p, f);
    this._fill(x, f, aggressor ? p : x.priceTicks, aggressor);
  }

  // ------------------------------------------------------------------ fills and events

  protected _fill(x: XOrder, qty: number, priceTicks: number, aggressor: boolean): void {
    const s = x.sym;
    const book = this.books[s]!;
    const bb = book.bestBid();
    const ba = book.bestAsk();
    const mid = (bb + ba) / 2;
    const ledger = this.ledgers[s]!;
    ledger.fill(x.side, priceTicks, qty, aggressor, mid);
    x.filled += qty;
    const done = x.filled >= x.qty;
    x.state = done ? 'FILLED' : 'PARTIALLY_FILLED';
    if (done) this._unrest(x);
    const tradeId = this._ids.next('T', this.now);
    const snapshot = toOrder(x);
    const tsRecv = this._deliveryTime();
    const fill = new FillRecord(this.now, tsRecv, tradeId, x.id, x.cid, x.symbol, x.side, priceTicks, qty, aggressor, mid, ledger.position, aggressor ? ledger.takerUnitFee : ledger.makerUnitFee);
    this.fillLog.push(fill);
    this._o.onFill?.(fill);
    const ev: OrderEvent = {
      type: 'filled',
      order: snapshot,
      partial: !done,
      tradeId,
      fillPriceTicks: priceTicks,
      fillQty: qty,
      fillSide: x.side,
      aggressor,
      executionId: this._eid(),
      tsEvent: this.now,
      tsRecv,
    };
    this._deliverAt(tsRecv, () => this._o.onOrderEvent(ev));
  }

  protected _unrest(x: XOrder): void {
    const list = this.open[x.sym]!;
    const i = list.indexOf(x);
    if (i >= 0) list.splice(i, 1);
  }

  protected _eid() {
    return asExecutionId(this._ids.next('E', this.now));
  }

  /** Next FIFO delivery time on the order stream. */
  protected _deliveryTime(): number {
    const t = Math.max(this.now + (this._replyMs ?? this._o.latency.responseMs()), this._lastDelivery);
    this._lastDelivery = t;
    return t;
  }

  protected _deliverAt(t: number, fn: () => void): void {
    this._o.actions.push(t, fn);
  }

  /** Schedules a request's arrival at the matching engine (FIFO, like one socket); its answers travel the request's response leg. */
  protected _send(run: () => void, op: RoundTripOp = 'place'): void {
    const legs = this._o.latency.request(op);
    const t = Math.max(this._o.clock.nowMs() + legs.entryMs, this._lastArrival);
    this._lastArrival = t;
    this._o.actions.push(t, () => {
      this.now = Math.max(this.now, t);
      this._replyMs = legs.responseMs;
      try {
        run();
      } finally {
        this._replyMs = null;
      }
    });
  }

  /** Takes one token of the venue's order-entry budget at exchange time; false = answer 429. */
  protected _admit(): boolean {
    const rl = this._o.rateLimit;
    if (!rl) return true;
    if (this.#tokensMs > -Infinity) this.#tokens = Math.min(rl.burst, this.#tokens + ((this.now - this.#tokensMs) / 1000) * rl.perSecond);
    this.#tokensMs = this.now;
    if (this.#tokens < 1) {
      this.rateLimited++;
      return false;
    }
    this.#tokens -= 1;
    return true;
  }

  /** Replies to the bot: settles the request's promise at the next delivery time. */
  protected _reply(settle: () => void): number {
    const t = this._deliveryTime();
    this._deliverAt(t, () => {
      settle();
      this._o.onSettled();
    });
    return t;
  }

  protected _event(build: (tsRecv: number) => OrderEvent): void {
    const t = this._deliveryTime();
    const ev = build(t);
    this._deliverAt(t, () => this._o.onOrderEvent(ev));
  }

}
