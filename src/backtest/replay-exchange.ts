import type { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import { asVenueOrderId, type ClientOrderId, type Symbol, type VenueOrderId } from '../core/ids.ts';
import { statePermissions } from '../domain/enums.ts';
import { isOpenState, isReplaceable } from '../domain/order-state.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import type { VenuePosition } from '../domain/position.ts';
import type { AccountReader, OrderGateway } from '../engine/ports.ts';
import { ASK, BID } from './dense-book.ts';
import { ExchangeMarket } from './exchange-market.ts';
import { BACKTEST_ACCOUNT, leaves, RetiredOrder, toOrder, toStatus, type XOrder } from './exchange-order.ts';

export type { ReplayExchangeOptions } from './exchange-core.ts';

const CROSS_TEXT = 'post-only order would cross the book';

/**
 * The backtest's venue: the bot's orders live here against the recorded book (immutable: our orders
 * never change it, so there is no market impact). Requests reach the matching engine after the
 * entry latency; replies, acks and fills reach the bot after the response latency, in FIFO order.
 * Resting orders fill per the queue model; marketable orders fill against the displayed levels.
 */
export class ReplayExchange extends ExchangeMarket implements OrderGateway, AccountReader {
  // ------------------------------------------------------------------ OrderGateway (bot time)

  place(intent: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    return new Promise((resolve, reject) => this._send(() => this.#limited('place', reject) || this.#arrivePlace(intent, resolve), 'place'));
  }

  replace(intent: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    return new Promise((resolve, reject) => this._send(() => this.#limited('replace', reject) || this.#arriveReplace(intent, resolve, reject), 'replace'));
  }

  cancel(intent: CancelOrder): Promise<{ readonly accepted: boolean }> {
    return new Promise((resolve, reject) => this._send(() => this.#limited('cancel', reject) || this.#arriveCancel(intent, resolve), 'cancel'));
  }

  cancelAll(symbol: Symbol | null): Promise<void> {
    return new Promise((resolve, reject) =>
      this._send(() => {
        if (this.#limited('cancel_all', reject)) return;
        const victims: XOrder[] = [];
        for (const list of this.open) for (const x of list) if (symbol === null || x.symbol === symbol) victims.push(x);
        this._reply(() => resolve());
        for (const x of victims) this.#cancelOrder(x);
      }, 'cancel_all'),
    );
  }

  /** Answered at the venue's state when the query arrives, one round trip after it was asked (as live, where it is a REST call). */
  status(ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }): Promise<OrderStatus | null> {
    return new Promise((resolve) =>
      this._send(() => {
        const x = this.#findAny(ref.orderId ?? null, ref.clientOrderId ?? null);
        const answer = x ? toStatus(x) : null;
        this._reply(() => resolve(answer));
      }, 'status'),
    );
  }

  /** The open orders when the query arrives, one round trip after it was asked. */
  openOrders(): Promise<readonly Order[]> {
    return new Promise((resolve) =>
      this._send(() => {
        const out: Order[] = [];
        for (const list of this.open) for (const x of list) out.push(toOrder(x));
        this._reply(() => resolve(out));
      }, 'open_orders'),
    );
  }

  /** The venue's order-entry budget is spent: answer 429 (nothing done) and return true. */
  #limited(op: string, reject: (e: unknown) => void): boolean {
    if (this._admit()) return false;
    const venueMessage = 'rate limit exceeded; slow down';
    this._reply(() => reject(new MmError('RATE_LIMITED', `${op} refused by the venue (429): ${venueMessage}`, { op, status: 429, venueMessage })));
    return true;
  }

  // ------------------------------------------------------------------ AccountReader

  /** Fills already delivered to the bot with exchange time in [fromMs, toMs), with fees. */
  fills(fromMs: number, toMs: number): Promise<readonly (Fill & { readonly fee: Decimal })[]> {
    const nowLocal = this._o.clock.nowMs();
    this._o.onSettled();
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

  /**
   * Net positions from the fills delivered to the bot by now: a fill the matching engine made whose
   * event is still on its way is not known to the bot (it would be a look-ahead). Cost basis and
   * realized PnL are not reported; the last delivered fill's time is.
   */
  positions(): Promise<ReadonlyMap<string, VenuePosition>> {
    const nowLocal = this._o.clock.nowMs();
    this._o.onSettled();
    const pos = new Map(this.ledgers.map((l) => [l.instrument.symbol as string, l.position]));
    const lastFillMs = new Map<string, number>();
    // Deliveries are FIFO, so the undelivered fills are the log's tail.
    const log = this.fillLog;
    let k = log.length - 1;
    for (; k >= 0 && log[k]!.tsLocal > nowLocal; k--) {
      const f = log[k]!;
      pos.set(f.symbol, pos.get(f.symbol)! - (f.side === 'buy' ? f.qty : -f.qty));
    }
    for (; k >= 0 && lastFillMs.size < this.ledgers.length; k--) if (!lastFillMs.has(log[k]!.symbol)) lastFillMs.set(log[k]!.symbol, log[k]!.tsExchange);
    return Promise.resolve(new Map([...pos].map(([sym, qty]) => [sym, { qty, costBasis: null, realizedPnl: null, lastFillMs: lastFillMs.get(sym) ?? null }])));
  }

  // ------------------------------------------------------------------ matching (exchange time)

  #arrivePlace(intent: PlaceOrder, resolve: (r: { orderId: VenueOrderId }) => void): void {
    const id = asVenueOrderId(this._ids.next('O', this.now));
    const s = this._symIdx.get(intent.symbol);
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
      stp: intent.selfTrade,
      tag: intent.tag,
      createdMs: this.now,
      restingSinceMs: this.now,
      seq: 0,
      queue: { front: 0, cumTrades: 0 },
      rejectReason: null,
      text: null,
    };
    this._byId.set(id, x);
    this._reply(() => resolve({ orderId: id }));
    const reason = s === undefined ? 'UNKNOWN_SYMBOL' : this.#checkNew(x, s);
    if (reason !== null) return this.#reject(x, reason, reason.toLowerCase().replaceAll('_', ' '));
    this.#enter(x, s!);
  }

  /** Venue checks of a new order; returns a reject reason or null. */
  #checkNew(x: XOrder, s: number): string | null {
    const inst = this._o.instruments[s]!;
    if (!statePermissions(this._state[s]!).canPlace) return 'EXCHANGE_CLOSED';
    if (!Number.isSafeInteger(x.qty) || x.qty < inst.minOrderSize) return 'INCORRECT_QUANTITY';
    if (!Number.isSafeInteger(x.priceTicks) || x.priceTicks <= 0) return 'INVALID_PRICE_INCREMENT';
    const band = this._band[s]!;
    if (x.priceTicks < band.lo || x.priceTicks > band.hi) return 'PRICE_OUT_OF_BOUNDS';
    const list = this.open[s]!;
    if (list.length >= (this._o.maxOpenOrders ?? 100)) return 'MAX_OPEN_ORDERS_EXCEEDED';
    if (x.cid !== null) for (const o of list) if (o.cid === x.cid) return 'DUPLICATE_CLIENT_ORDER_ID';
    return null;
  }

  #reject(x: XOrder, reason: string | null, text: string): void {
    x.state = 'REJECTED';
    x.rejectReason = reason;
    x.text = text;
    this._retire(x);
    const order = toOrder(x);
    this._event((tsRecv) => ({ type: 'rejected', order, reason, text, executionId: this._eid(), tsEvent: this.now, tsRecv }));
  }

  /**
   * Enters an accepted order: post-only crossing per its reprice rule, taker fills for marketable
   * orders against the displayed levels, then rest at the back of the queue (or expire if IOC).
   */
  #enter(x: XOrder, s: number): void {
    const buy = x.sideIdx === BID;
    const opp = this.#bestOpposite(s, x.sideIdx);
    const crosses = buy ? x.priceTicks >= opp : x.priceTicks <= opp;
    if (crosses && x.postOnly) {
      if (x.reprice === 'rej') return this.#reject(x, null, CROSS_TEXT);
      x.priceTicks = this.#repriced(x, s, opp);
    }
    x.state = 'ACCEPTED';
    const accepted = toOrder(x);
    this._event((tsRecv) => ({ type: 'accepted', order: accepted, executionId: this._eid(), tsEvent: this.now, tsRecv }));
    if (crosses && !x.postOnly && !this.#take(x, s)) return;
    if (leaves(x) === 0) return;
    if (x.tif === 'IOC') {
      x.state = 'EXPIRED';
      this._retire(x);
      const order = toOrder(x);
      this._event((tsRecv) => ({ type: 'expired', order, executionId: this._eid(), tsEvent: this.now, tsRecv }));
      return;
    }
    this.#rest(x, s);
  }

  /** The price a crossing post-only order moves to: the same side's best ('tbl'), else one tick off the opposite best `opp`. */
  #repriced(x: XOrder, s: number, opp: number): number {
    const buy = x.sideIdx === BID;
    const same = this.#best(s, x.sideIdx, this.bestOther(s, x.sideIdx));
    return x.reprice === 'tbl' && Number.isFinite(same) ? same : buy ? opp - 1 : opp + 1;
  }

  /**
   * The best price an incoming order on side `sideIdx` meets: the better of the market's (others')
   * and our own resting orders' on the other side, as on the venue, whose book holds both: a
   * post-only bid at or above our own resting ask crosses (NaN when the side is empty).
   */
  #bestOpposite(s: number, sideIdx: number): number {
    const other = sideIdx === BID ? ASK : BID;
    return this.#best(s, other, this.bestOther(s, other));
  }

  /** The better of `market` (NaN = none) and our resting orders' best price on `side`. */
  #best(s: number, side: number, market: number): number {
    let best = market;
    const list = this.open[s]!;
    for (let k = 0; k < list.length; k++) {
      const o = list[k]!;
      if (o.sideIdx !== side) continue;
      if (!(side === BID ? o.priceTicks <= best : o.priceTicks >= best)) best = o.priceTicks;
    }
    return best;
  }

  #rest(x: XOrder, s: number): void {
    this._join(x, s);
    x.queue.cumTrades = 0;
    x.restingSinceMs = this.now;
    x.seq = ++this._seq;
    this.open[s]!.push(x);
    this._react(x, s);
  }

  /**
   * Walks the opposite side best price first up to the limit, taking what is displayed (less the
   * recording bot's own orders and less what our earlier orders took there: ConsumedLiquidity). The
   * recorded book is not changed. Self-trade prevention as the venue's matcher: reaching the price
   * of one of our own resting orders on the other side, `CancelResting`/`CancelBoth` cancel our
   * resting orders within the limit, `CancelIncoming`/`CancelBoth` cancel `x` (returns false: it is
   * done). Others' volume at that same price is not taken first (ours may be ahead of it; the
   * conservative reading).
   */
  #take(x: XOrder, s: number): boolean {
    const buy = x.sideIdx === BID;
    const other = buy ? ASK : BID;
    const own = this.open[s]!.filter((o) => o.sideIdx === other && (buy ? o.priceTicks <= x.priceTicks : o.priceTicks >= x.priceTicks));
    if (own.length === 0) {
      this._walk(x, s, other, x.priceTicks, true);
      return true;
    }
    let ownBest = own[0]!.priceTicks;
    for (const o of own) ownBest = buy ? Math.min(ownBest, o.priceTicks) : Math.max(ownBest, o.priceTicks);
    this._walk(x, s, other, buy ? ownBest - 1 : ownBest + 1, true);
    if (leaves(x) === 0) return true;
    if (x.stp === 'CancelResting' || x.stp === 'CancelBoth') for (const o of own) this.#cancelOrder(o, 'self-trade prevention: resting order canceled');
    if (x.stp === 'CancelIncoming' || x.stp === 'CancelBoth') {
      this.#cancelOrder(x, 'self-trade prevention: incoming order canceled');
      return false;
    }
    this._walk(x, s, other, x.priceTicks, true);
    return true;
  }

  #arriveReplace(intent: ReplaceOrder, resolve: (r: { orderId: VenueOrderId }) => void, reject: (e: unknown) => void): void {
    const x = this._byId.get(intent.orderId);
    if (!x || !isReplaceable(x.state)) {
      const reason = x || this._retired.get(intent.orderId) ? 'ORIGINAL_ORDER_TERMINATED' : 'NOT_FOUND';
      this._reply(() => reject(new MmError('ORDER_REJECTED', `replace of ${intent.orderId}: ${reason}`, { reason, orderId: intent.orderId })));
      return;
    }
    const s = x.sym;
    const inst = this._o.instruments[s]!;
    const newQty = intent.qty;
    // The venue validates a replacement as a new order (instrument state, size, price grid, band).
    const band = this._band[s]!;
    const reason = !statePermissions(this._state[s]!).canPlace
      ? 'EXCHANGE_CLOSED'
      : !Number.isSafeInteger(newQty) || newQty < inst.minOrderSize
        ? 'INCORRECT_QUANTITY'
        : !Number.isSafeInteger(intent.priceTicks) || intent.priceTicks <= 0
          ? 'INVALID_PRICE_INCREMENT'
          : intent.priceTicks < band.lo || intent.priceTicks > band.hi
            ? 'PRICE_OUT_OF_BOUNDS'
            : null;
    if (reason !== null) {
      this._reply(() => reject(new MmError('ORDER_REJECTED', `replace of ${intent.orderId}: ${reason}`, { reason, orderId: intent.orderId })));
      return;
    }
    const buy = x.sideIdx === BID;
    const opp = this.#bestOpposite(s, x.sideIdx);
    const crosses = buy ? intent.priceTicks >= opp : intent.priceTicks <= opp;
    if (x.postOnly && x.reprice === 'rej' && crosses) {
      this._reply(() => reject(new MmError('ORDER_REJECTED', `replace of ${intent.orderId}: ${CROSS_TEXT}`, { reason: null, orderId: intent.orderId })));
      return;
    }
    const id = asVenueOrderId(this._ids.next('O', this.now));
    this._unrest(x);
    x.state = 'REPLACED';
    this._retire(x);
    const original = toOrder(x);
    // Spelled out as in #arrivePlace (not `{ ...x }`): one object shape for every order, so the
    // exchange's per-order code stays monomorphic.
    const y: XOrder = {
      id,
      cid: x.cid,
      sym: x.sym,
      symbol: x.symbol,
      sideIdx: x.sideIdx,
      side: x.side,
      priceTicks: intent.priceTicks,
      qty: newQty,
      filled: 0,
      state: 'PENDING',
      tif: x.tif,
      postOnly: x.postOnly,
      reprice: x.reprice,
      stp: x.stp,
      tag: x.tag,
      createdMs: this.now,
      restingSinceMs: this.now,
      seq: x.seq,
      queue: { front: 0, cumTrades: 0 },
      rejectReason: null,
      text: null,
    };
    this._byId.set(id, y);
    this._reply(() => resolve({ orderId: id }));
    // The replacement takes new time priority; post-only reprice applies as for a new order.
    if (crosses && y.postOnly) y.priceTicks = this.#repriced(y, s, opp);
    y.state = 'ACCEPTED';
    const replacement = toOrder(y);
    this._event((tsRecv) => ({ type: 'replaced', original, replacement, newOrderId: id, executionId: this._eid(), tsEvent: this.now, tsRecv }));
    if (crosses && !y.postOnly && !this.#take(y, s)) return;
    if (leaves(y) > 0) this.#rest(y, s);
  }

  #arriveCancel(intent: CancelOrder, resolve: (r: { accepted: boolean }) => void): void {
    const x = this.#findOpen(intent.orderId, intent.clientOrderId);
    if (!x) {
      this._reply(() => resolve({ accepted: false }));
      const orderId = intent.orderId;
      const clientOrderId = intent.clientOrderId;
      this._event((tsRecv) => ({ type: 'cancel-rejected', orderId, clientOrderId, reason: 'ORDER_NOT_FOUND', text: 'Order not found or already canceled', order: null, tsEvent: this.now, tsRecv }));
      return;
    }
    this._reply(() => resolve({ accepted: true }));
    this.#cancelOrder(x);
  }

  #cancelOrder(x: XOrder, text = ''): void {
    this._unrest(x);
    x.state = 'CANCELED';
    this._retire(x);
    const order = toOrder(x);
    const reason = text === '' ? '' : 'UNKNOWN';
    this._event((tsRecv) => ({ type: 'canceled', order, reason, text, executionId: this._eid(), tsEvent: this.now, tsRecv }));
  }

  /** A working order by venue id, else by client id (for cancels): a done order is not found by its own id. */
  #findOpen(orderId: VenueOrderId | null, cid: ClientOrderId | null): XOrder | undefined {
    if (orderId !== null) {
      const x = this._byId.get(orderId);
      if (x) return isOpenState(x.state) ? x : undefined;
      if (this._retired.get(orderId)) return undefined;
    }
    if (cid !== null) for (const list of this.open) for (const x of list) if (x.cid === cid) return x;
    return undefined;
  }

  /**
   * Any order by venue id, else by client id: a working one first, else the last one created with
   * that id (status queries, answered between arrivals: every working order is then resting).
   */
  #findAny(orderId: VenueOrderId | null, cid: ClientOrderId | null): XOrder | RetiredOrder | undefined {
    if (orderId !== null) {
      const x = this._byId.get(orderId) ?? this._retired.get(orderId);
      if (x) return x;
    }
    if (cid !== null) {
      for (const list of this.open) for (const x of list) if (x.cid === cid) return x;
      for (const x of this._byId.values()) if (x.cid === cid) return x;
      return this._retired.lastWithCid(cid);
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
