import { Decimal } from '../core/decimal.ts';
import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';
import { asExecutionId, asTradeId, asVenueOrderId, type ClientOrderId, type Symbol, type VenueOrderId } from '../core/ids.ts';
import { statePermissions, type InstrumentState } from '../domain/enums.ts';
import type { OrderEvent } from '../domain/events.ts';
import { fundingCash, type FundingEstimate, type FundingSettlement } from '../domain/funding.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import type { AccountReader, OrderGateway } from '../engine/ports.ts';
import type { ActionQueue } from './action-queue.ts';
import { ASK, BID, DenseBook } from './dense-book.ts';
import { ReplayIds } from './replay-ids.ts';
import { BACKTEST_ACCOUNT, leaves, toOrder, toStatus, type XOrder } from './exchange-order.ts';
import { FillRecord, SymbolLedger, type BacktestFill, type FeeSchedule } from './ledger.ts';
import type { LatencyModel } from './latency-model.ts';
import type { QueueModel } from './queue-model.ts';

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
  readonly fees: FeeSchedule;
  readonly seed: number;
  /** Max open orders per symbol before MAX_OPEN_ORDERS_EXCEEDED (venue default 100). */
  readonly maxOpenOrders?: number;
  /** Delivers an order event to the bot (at its arrival time). */
  readonly onOrderEvent: (ev: OrderEvent) => void;
  /** Called whenever a gateway promise settles, so the runner lets continuations run. */
  readonly onSettled: () => void;
  /** Called on every fill (exchange time), for reports. */
  readonly onFill?: (fill: BacktestFill) => void;
}

const CROSS_TEXT = 'post-only order would cross the book';

/**
 * The backtest's venue: the bot's orders live here against the recorded book (immutable: our orders
 * never change it, so there is no market impact). Requests reach the matching engine after the
 * entry latency; replies, acks and fills reach the bot after the response latency, in FIFO order.
 * Resting orders fill per the queue model; marketable orders fill against the displayed levels.
 */
export class ReplayExchange implements OrderGateway, AccountReader {
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
  readonly #byId = new Map<string, XOrder>();
  readonly #symIdx = new Map<string, number>();
  readonly #state: InstrumentState[];
  readonly #band: { lo: number; hi: number }[];
  readonly #ids: ReplayIds;
  #lastArrival = -Infinity;
  #lastDelivery = -Infinity;
  readonly #o: ReplayExchangeOptions;

  constructor(o: ReplayExchangeOptions) {
    this.#o = o;
    this.books = o.instruments.map((_, s) => new DenseBook(o.minTick[s]!, o.maxTick[s]!, 64));
    this.ledgers = o.instruments.map((i) => new SymbolLedger(i, o.fees));
    this.open = o.instruments.map(() => []);
    this.fundingEstimates = o.instruments.map(() => null);
    this.#state = o.instruments.map(() => 'OPEN');
    this.#band = o.instruments.map(() => ({ lo: -Infinity, hi: Infinity }));
    o.instruments.forEach((i, s) => this.#symIdx.set(i.symbol, s));
    this.#ids = new ReplayIds(o.seed);
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
    if (snapshot) {
      const prev = no > 0 ? orders.map((x) => book.qty(x.sideIdx, x.priceTicks)) : null;
      book.clear();
      for (let j = start, end = start + nb + na; j < end; j++) book.set(j - start < nb ? BID : ASK, levels[2 * j]!, levels[2 * j + 1]!);
      if (prev) for (let k = 0; k < no; k++) this.#depth(orders[k]!, prev[k]!, book.qty(orders[k]!.sideIdx, orders[k]!.priceTicks));
    } else {
      for (let j = start, end = start + nb + na; j < end; j++) {
        const side = j - start < nb ? BID : ASK;
        const p = levels[2 * j]!;
        const q = levels[2 * j + 1]!;
        const prev = book.set(side, p, q);
        for (let k = 0; k < no; k++) {
          const x = orders[k]!;
          if (x.priceTicks === p && x.sideIdx === side) this.#depth(x, prev, q);
        }
      }
    }
    if (no > 0) this.#fillCrossed(s);
  }

  /** A public trade: advances queues at its price and fills our orders it traded through. */
  applyTrade(s: number, priceTicks: number, qty: number, takerBuy: boolean): void {
    const orders = this.open[s]!;
    if (orders.length === 0) return;
    const restingSide = takerBuy ? ASK : BID;
    for (let k = 0; k < orders.length; k++) {
      const x = orders[k]!;
      if (x.sideIdx !== restingSide) continue;
      const through = restingSide === BID ? x.priceTicks > priceTicks : x.priceTicks < priceTicks;
      if (through) {
        // The print went through our price: the aggressor would have met our order first. Capped at
        // the print's size (as NautilusTrader's trade-driven fills), so a small print cannot fill a big order.
        this.#fill(x, Math.min(leaves(x), qty), x.priceTicks, false);
      } else if (x.priceTicks === priceTicks) {
        this.#o.queue.onTrade(x.queue, qty);
        if (x.queue.front < 0) {
          const q = Math.min(leaves(x), Math.floor(-x.queue.front));
          x.queue.front = 0;
          if (q > 0) this.#fill(x, q, x.priceTicks, false);
        }
      } else continue;
      if (x.state === 'FILLED') k--; // #fill removed it from `orders`
    }
  }

  /** A ticker: instrument state and price band for order checks, and the latest funding estimate. */
  applyTicker(s: number, state: InstrumentState, bandLo: number | null, bandHi: number | null, funding: FundingEstimate | null = null): void {
    this.#state[s] = state;
    this.#band[s] = { lo: bandLo ?? -Infinity, hi: bandHi ?? Infinity };
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

  #depth(x: XOrder, prev: number, next: number): void {
    if (prev !== next) this.#o.queue.onDepth(x.queue, prev, next);
  }

  /** Resting orders the book now trades through (bid ≥ best ask or ask ≤ best bid) fill as makers. */
  #fillCrossed(s: number): void {
    const book = this.books[s]!;
    const orders = this.open[s]!;
    const ba = book.bestAsk();
    const bb = book.bestBid();
    for (let k = 0; k < orders.length; k++) {
      const x = orders[k]!;
      const crossed = x.sideIdx === BID ? x.priceTicks >= ba : x.priceTicks <= bb;
      if (crossed) {
        this.#fill(x, leaves(x), x.priceTicks, false);
        k--;
      }
    }
  }

  // ------------------------------------------------------------------ fills and events

  #fill(x: XOrder, qty: number, priceTicks: number, aggressor: boolean): void {
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
    if (done) this.#unrest(x);
    const tradeId = this.#ids.next('T', this.now);
    const snapshot = toOrder(x);
    const tsRecv = this.#deliveryTime();
    const fill = new FillRecord(this.now, tsRecv, tradeId, x.id, x.cid, x.symbol, x.side, priceTicks, qty, aggressor, mid, ledger.position, aggressor ? ledger.takerUnitFee : ledger.makerUnitFee);
    this.fillLog.push(fill);
    this.#o.onFill?.(fill);
    const ev: OrderEvent = {
      type: 'filled',
      order: snapshot,
      partial: !done,
      tradeId,
      fillPriceTicks: priceTicks,
      fillQty: qty,
      fillSide: x.side,
      aggressor,
      executionId: this.#eid(),
      tsEvent: this.now,
      tsRecv,
    };
    this.#deliverAt(tsRecv, () => this.#o.onOrderEvent(ev));
  }

  #unrest(x: XOrder): void {
    const list = this.open[x.sym]!;
    const i = list.indexOf(x);
    if (i >= 0) list.splice(i, 1);
  }

  #eid() {
    return asExecutionId(this.#ids.next('E', this.now));
  }

  /** Next FIFO delivery time on the order stream. */
  #deliveryTime(): number {
    const t = Math.max(this.now + this.#o.latency.responseMs(), this.#lastDelivery);
    this.#lastDelivery = t;
    return t;
  }

  #deliverAt(t: number, fn: () => void): void {
    this.#o.actions.push(t, fn);
  }

  /** Schedules a request's arrival at the matching engine (FIFO, like one socket). */
  #send(run: () => void): void {
    const t = Math.max(this.#o.clock.nowMs() + this.#o.latency.entryMs(), this.#lastArrival);
    this.#lastArrival = t;
    this.#o.actions.push(t, () => {
      this.now = Math.max(this.now, t);
      run();
    });
  }

  /** Replies to the bot: settles the request's promise at the next delivery time. */
  #reply(settle: () => void): number {
    const t = this.#deliveryTime();
    this.#deliverAt(t, () => {
      settle();
      this.#o.onSettled();
    });
    return t;
  }

  #event(build: (tsRecv: number) => OrderEvent): void {
    const t = this.#deliveryTime();
    const ev = build(t);
    this.#deliverAt(t, () => this.#o.onOrderEvent(ev));
  }

  // ------------------------------------------------------------------ OrderGateway (bot time)

  place(intent: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    return new Promise((resolve) => this.#send(() => this.#arrivePlace(intent, resolve)));
  }

  replace(intent: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    return new Promise((resolve, reject) => this.#send(() => this.#arriveReplace(intent, resolve, reject)));
  }

  cancel(intent: CancelOrder): Promise<{ readonly accepted: boolean }> {
    return new Promise((resolve) => this.#send(() => this.#arriveCancel(intent, resolve)));
  }

  cancelAll(symbol: Symbol | null): Promise<void> {
    return new Promise((resolve) =>
      this.#send(() => {
        const victims: XOrder[] = [];
        for (const list of this.open) for (const x of list) if (symbol === null || x.symbol === symbol) victims.push(x);
        this.#reply(() => resolve());
        for (const x of victims) this.#cancelOrder(x);
      }),
    );
  }

  status(ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }): Promise<OrderStatus | null> {
    const x = this.#find(ref.orderId ?? null, ref.clientOrderId ?? null, false);
    this.#o.onSettled();
    return Promise.resolve(x ? toStatus(x) : null);
  }

  openOrders(): Promise<readonly Order[]> {
    const out: Order[] = [];
    for (const list of this.open) for (const x of list) out.push(toOrder(x));
    this.#o.onSettled();
    return Promise.resolve(out);
  }

  // ------------------------------------------------------------------ AccountReader

  /** Fills already delivered to the bot with exchange time in [fromMs, toMs), with fees. */
  fills(fromMs: number, toMs: number): Promise<readonly (Fill & { readonly fee: Decimal })[]> {
    const nowLocal = this.#o.clock.nowMs();
    this.#o.onSettled();
    // The log is in exchange-time order and deliveries are FIFO, so both bounds are binary searches.
    const log = this.fillLog;
    const lo = lowerBound(log.length, (k) => log[k]!.tsExchange >= fromMs);
    const hi = lowerBound(log.length, (k) => log[k]!.tsExchange >= toMs || log[k]!.tsLocal > nowLocal);
    return Promise.resolve(log
      .slice(lo, Math.max(lo, hi))
      .map((f) => ({
        tradeId: f.tradeId,
        orderId: f.orderId,
        accountId: BACKTEST_ACCOUNT,
        symbol: f.symbol,
        side: f.side,
        priceTicks: f.priceTicks,
        qty: f.qty,
        aggressor: f.aggressor,
        tsEvent: f.tsExchange,
        fee: f.fee,
      })));
  }

  positions(): Promise<ReadonlyMap<string, number>> {
    this.#o.onSettled();
    return Promise.resolve(new Map(this.ledgers.map((l) => [l.instrument.symbol as string, l.position])));
  }

  // ------------------------------------------------------------------ matching (exchange time)

  #arrivePlace(intent: PlaceOrder, resolve: (r: { orderId: VenueOrderId }) => void): void {
    const id = asVenueOrderId(this.#ids.next('O', this.now));
    const s = this.#symIdx.get(intent.symbol);
    const x: XOrder = {
      id,
      cid: intent.clientOrderId,
      sym: s ?? -1,
      symbol: intent.symbol,
      sideIdx: intent.side === 'buy' ? BID : ASK,
      side: intent.side,
      priceTicks: intent.priceTicks,
      qty: intent.qty,
      filled: 0,
      state: 'PENDING',
      tif: intent.tif,
      postOnly: intent.postOnly,
      reprice: intent.reprice,
      tag: intent.tag,
      createdMs: this.now,
      restingSinceMs: this.now,
      queue: { front: 0, cumTrades: 0 },
      rejectReason: null,
      text: null,
    };
    this.#byId.set(id, x);
    this.#reply(() => resolve({ orderId: id }));
    const reason = s === undefined ? 'UNKNOWN_SYMBOL' : this.#checkNew(x, s);
    if (reason !== null) return this.#reject(x, reason, reason.toLowerCase().replaceAll('_', ' '));
    this.#enter(x, s!);
  }

  /** Venue checks of a new order; returns a reject reason or null. */
  #checkNew(x: XOrder, s: number): string | null {
    const inst = this.#o.instruments[s]!;
    if (!statePermissions(this.#state[s]!).canPlace) return 'EXCHANGE_CLOSED';
    if (!Number.isSafeInteger(x.qty) || x.qty < inst.minOrderSize) return 'INCORRECT_QUANTITY';
    if (!Number.isSafeInteger(x.priceTicks) || x.priceTicks <= 0) return 'INVALID_PRICE_INCREMENT';
    const band = this.#band[s]!;
    if (x.priceTicks < band.lo || x.priceTicks > band.hi) return 'PRICE_OUT_OF_BOUNDS';
    const list = this.open[s]!;
    if (list.length >= (this.#o.maxOpenOrders ?? 100)) return 'MAX_OPEN_ORDERS_EXCEEDED';
    if (x.cid !== null) for (const o of list) if (o.cid === x.cid) return 'DUPLICATE_CLIENT_ORDER_ID';
    return null;
  }

  #reject(x: XOrder, reason: string | null, text: string): void {
    x.state = 'REJECTED';
    x.rejectReason = reason;
    x.text = text;
    const order = toOrder(x);
    this.#event((tsRecv) => ({ type: 'rejected', order, reason, text, executionId: this.#eid(), tsEvent: this.now, tsRecv }));
  }

  /**
   * Enters an accepted order: post-only crossing per its reprice rule, taker fills for marketable
   * orders against the displayed levels, then rest at the back of the queue (or expire if IOC).
   */
  #enter(x: XOrder, s: number): void {
    const book = this.books[s]!;
    const buy = x.sideIdx === BID;
    const opp = buy ? book.bestAsk() : book.bestBid();
    const crosses = buy ? x.priceTicks >= opp : x.priceTicks <= opp;
    if (crosses && x.postOnly) {
      if (x.reprice === 'rej') return this.#reject(x, null, CROSS_TEXT);
      const same = buy ? book.bestBid() : book.bestAsk();
      x.priceTicks = x.reprice === 'tbl' && Number.isFinite(same) ? same : buy ? opp - 1 : opp + 1;
    }
    x.state = 'ACCEPTED';
    const accepted = toOrder(x);
    this.#event((tsRecv) => ({ type: 'accepted', order: accepted, executionId: this.#eid(), tsEvent: this.now, tsRecv }));
    if (crosses && !x.postOnly) this.#take(x, s);
    if (leaves(x) === 0) return;
    if (x.tif === 'IOC') {
      x.state = 'EXPIRED';
      const order = toOrder(x);
      this.#event((tsRecv) => ({ type: 'expired', order, executionId: this.#eid(), tsEvent: this.now, tsRecv }));
      return;
    }
    this.#rest(x, s);
  }

  #rest(x: XOrder, s: number): void {
    x.queue.front = this.books[s]!.qty(x.sideIdx, x.priceTicks);
    x.queue.cumTrades = 0;
    x.restingSinceMs = this.now;
    this.open[s]!.push(x);
  }

  /** Walks the opposite side up to the limit without changing the recorded book. */
  #take(x: XOrder, s: number): void {
    const book = this.books[s]!;
    const buy = x.sideIdx === BID;
    for (const lvl of book.levels(buy ? ASK : BID, 1000)) {
      if (leaves(x) === 0) break;
      if (buy ? lvl.priceTicks > x.priceTicks : lvl.priceTicks < x.priceTicks) break;
      this.#fill(x, Math.min(leaves(x), lvl.qty), lvl.priceTicks, true);
    }
  }

  #arriveReplace(intent: ReplaceOrder, resolve: (r: { orderId: VenueOrderId }) => void, reject: (e: unknown) => void): void {
    const x = this.#byId.get(intent.orderId);
    const live = x && (x.state === 'ACCEPTED' || x.state === 'PARTIALLY_FILLED');
    if (!x || !live) {
      const reason = x ? 'ORIGINAL_ORDER_TERMINATED' : 'NOT_FOUND';
      this.#reply(() => reject(new MmError('ORDER_REJECTED', `replace of ${intent.orderId}: ${reason}`, { reason, orderId: intent.orderId })));
      return;
    }
    const s = x.sym;
    const book = this.books[s]!;
    const buy = x.sideIdx === BID;
    const opp = buy ? book.bestAsk() : book.bestBid();
    if (x.postOnly && x.reprice === 'rej' && (buy ? intent.priceTicks >= opp : intent.priceTicks <= opp)) {
      this.#reply(() => reject(new MmError('ORDER_REJECTED', `replace of ${intent.orderId}: ${CROSS_TEXT}`, { reason: null, orderId: intent.orderId })));
      return;
    }
    const inst = this.#o.instruments[s]!;
    const newQty = intent.qty;
    if (!Number.isSafeInteger(newQty) || newQty < inst.minOrderSize) {
      this.#reply(() => reject(new MmError('ORDER_REJECTED', `replace of ${intent.orderId}: INCORRECT_QUANTITY`, { reason: 'INCORRECT_QUANTITY', orderId: intent.orderId })));
      return;
    }
    const id = asVenueOrderId(this.#ids.next('O', this.now));
    this.#unrest(x);
    x.state = 'REPLACED';
    const original = toOrder(x);
    const y: XOrder = {
      ...x,
      id,
      priceTicks: intent.priceTicks,
      qty: newQty,
      filled: 0,
      state: 'PENDING',
      createdMs: this.now,
      restingSinceMs: this.now,
      queue: { front: 0, cumTrades: 0 },
      rejectReason: null,
      text: null,
    };
    this.#byId.set(id, y);
    this.#reply(() => resolve({ orderId: id }));
    // The replacement takes new time priority; post-only reprice applies as for a new order.
    const oppNow = buy ? book.bestAsk() : book.bestBid();
    if (y.postOnly && (buy ? y.priceTicks >= oppNow : y.priceTicks <= oppNow)) {
      const same = buy ? book.bestBid() : book.bestAsk();
      y.priceTicks = y.reprice === 'tbl' && Number.isFinite(same) ? same : buy ? oppNow - 1 : oppNow + 1;
    }
    y.state = 'ACCEPTED';
    const replacement = toOrder(y);
    this.#event((tsRecv) => ({ type: 'replaced', original, replacement, newOrderId: id, executionId: this.#eid(), tsEvent: this.now, tsRecv }));
    if (!y.postOnly && (buy ? y.priceTicks >= oppNow : y.priceTicks <= oppNow)) this.#take(y, s);
    if (leaves(y) > 0) this.#rest(y, s);
  }

  #arriveCancel(intent: CancelOrder, resolve: (r: { accepted: boolean }) => void): void {
    const x = this.#find(intent.orderId, intent.clientOrderId, true);
    if (!x) {
      this.#reply(() => resolve({ accepted: false }));
      const orderId = intent.orderId;
      const clientOrderId = intent.clientOrderId;
      this.#event((tsRecv) => ({ type: 'cancel-rejected', orderId, clientOrderId, reason: 'ORDER_NOT_FOUND', text: 'Order not found or already canceled', order: null, tsEvent: this.now, tsRecv }));
      return;
    }
    this.#reply(() => resolve({ accepted: true }));
    this.#cancelOrder(x);
  }

  #cancelOrder(x: XOrder): void {
    this.#unrest(x);
    x.state = 'CANCELED';
    const order = toOrder(x);
    this.#event((tsRecv) => ({ type: 'canceled', order, reason: '', text: '', executionId: this.#eid(), tsEvent: this.now, tsRecv }));
  }

  /** Finds an order by venue id, else by client id among open orders (`openOnly` for cancels). */
  #find(orderId: VenueOrderId | null, cid: ClientOrderId | null, openOnly: boolean): XOrder | undefined {
    if (orderId !== null) {
      const x = this.#byId.get(orderId);
      if (x && (!openOnly || x.state === 'ACCEPTED' || x.state === 'PARTIALLY_FILLED')) return x;
      if (x) return undefined;
    }
    if (cid !== null) {
      for (const list of this.open) for (const x of list) if (x.cid === cid) return x;
      if (!openOnly) {
        let last: XOrder | undefined;
        for (const x of this.#byId.values()) if (x.cid === cid) last = x;
        return last;
      }
    }
    return undefined;
  }
}

/** First index in [0, n) where `pred` holds (pred must be monotone false → true); n when none. */
function lowerBound(n: number, pred: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
