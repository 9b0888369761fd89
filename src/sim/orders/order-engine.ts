import type { Clock } from '../../core/clock.ts';
import type { RejectReason, RepriceBehavior, SelfTradePrevention } from '../../domain/enums.ts';
import { statePermissions } from '../../domain/enums.ts';
import { isOpenState, isTerminal } from '../../domain/order-state.ts';

/** Orders kept per account for history and status queries (oldest terminal ones are forgotten beyond it). */
export const HISTORY_CAP = 100_000;
import { aggOf, positionOf, type Account } from '../accounts/account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { RiskContext } from '../accounts/risk.ts';
import type { BookSide, OrderBook } from '../book/order-book.ts';
import type { VenueIds } from '../ids.ts';
import type { InstrumentMarket } from '../prices.ts';
import { snapshotOrder, type PlaceSpec, type ReplaceSpec, type SimOrder, type TradeEvent, type VenueOrderEvent } from '../types.ts';
import { OrderIndex } from './order-index.ts';
import { validateOrder, type Reject } from './validate.ts';

/** What the engine needs from the venue around it. */
export interface EngineDeps {
  readonly clock: Clock;
  readonly ids: VenueIds;
  readonly accounts: AccountRegistry;
  readonly markets: ReadonlyMap<string, InstrumentMarket>;
  readonly books: ReadonlyMap<string, OrderBook>;
  ackLatencyMs(): number;
  maxOpenOrdersPerSymbol(): number;
  riskContext(): RiskContext;
  /** Next forced reject for this symbol, consumed when returned. */
  takeForcedReject(symbol: string): Reject | null;
  /** Emits an order event to the account's listeners; `build` runs only when someone listens. */
  emitOrder(accountId: string, build: () => VenueOrderEvent): void;
  /** True when someone listens to this account's order events (callers skip building closures otherwise). */
  listening(accountId: string): boolean;
  emitTrade(t: TradeEvent): void;
  tradeListened(): boolean;
  emitBook(symbol: string): void;
}

/** Who acts: the user, the account and (for cancel-on-disconnect) the WS connection. */
export interface Actor {
  readonly userId: string;
  readonly accountId: string;
  readonly connId?: string | null;
}

/** How an order is designated in cancel/replace/status: by venue id or by client id. */
export type OrderRef = { readonly oid: string } | { readonly cid: string };

/** Outcome of a cancel or replace request at the gateway. */
export type RequestOutcome<T = undefined> =
  | { readonly status: 'accepted'; readonly value: T }
  | { readonly status: 'pending' }
  | { readonly status: 'not_found' }
  | { readonly status: 'refused'; readonly order: SimOrder; readonly text: string };

/** Called once an order has been processed (acknowledged and matched, or rejected). */
export type Processed = (order: SimOrder) => void;

/**
 * The order engine: validation, acknowledgement, price-time matching, self-trade prevention,
 * post-only reprice, cancel and atomic cancel-replace. Book and account state change only here.
 */
export class OrderEngine {
  /** Every order still known by id (internal accounts' orders are dropped once terminal). */
  readonly orders = new OrderIndex();
  readonly #d: EngineDeps;

  constructor(deps: EngineDeps) {
    this.#d = deps;
  }

  /**
   * Accepts a place request: the order is PENDING until processed after the ack latency
   * (`immediate` skips it). Plain flags rather than an options object keep the hot path allocation-free.
   */
  submit(actor: Actor, spec: PlaceSpec, done?: Processed, immediate = false, liquidation = false): SimOrder {
    const acct = this.#d.accounts.account(actor.accountId);
    const now = this.#d.clock.nowNs();
    const order = this.#newOrder(actor, acct, spec, liquidation, null, now);
    // Reserve the cid while pending so a cancel by cid before the ack answers 409, not "not found".
    if (order.cid !== null && acct && !acct.liveByCid.has(order.cid)) acct.liveByCid.set(order.cid, order.oid);
    const lat = immediate ? 0 : this.#d.ackLatencyMs();
    if (lat <= 0) this.#process(order, acct, null, done, now);
    else this.#d.clock.setTimer(lat, () => this.#process(order, acct, null, done, this.#d.clock.nowNs()));
    return order;
  }

  /** Finds an order of `accountId` by oid or cid (cid among live orders, then history by oid). */
  find(accountId: string, ref: OrderRef): SimOrder | undefined {
    if ('oid' in ref) {
      const o = this.orders.get(ref.oid);
      return o && o.accountId === accountId ? o : undefined;
    }
    const acct = this.#d.accounts.account(accountId);
    const oid = acct?.liveByCid.get(ref.cid);
    if (oid !== undefined) return this.orders.get(oid);
    // Not live: the most recent order with this cid, for status queries.
    if (!acct) return undefined;
    for (let i = acct.orderIds.length - 1; i >= 0; i--) {
      const o = this.orders.get(acct.orderIds[i]!);
      if (o?.cid === ref.cid) return o;
    }
    return undefined;
  }

  /** Cancels one order. PENDING → 'pending' (409); unknown or terminal → 'not_found' plus an `e` event. */
  cancel(actor: Actor, ref: OrderRef, reason = '', text = ''): RequestOutcome {
    const o = this.find(actor.accountId, ref);
    if (!o || !(o.state === 'ACCEPTED' || o.state === 'PARTIALLY_FILLED' || o.state === 'PENDING')) {
      this.#cancelReject(actor.accountId, ref, o ?? null, 'ORDER_NOT_FOUND', 'Order not found or already canceled');
      return { status: 'not_found' };
    }
    if (o.state === 'PENDING') return { status: 'pending' };
    const m = this.#d.markets.get(o.symbol);
    if (m && !statePermissions(m.state).canCancel) {
      const t = `instrument ${o.symbol} is ${m.state}; orders cannot be canceled`;
      this.#cancelReject(actor.accountId, ref, o, 'UNKNOWN', t);
      return { status: 'refused', order: o, text: t };
    }
    this.#cancelOrder(o, this.#d.accounts.account(o.accountId)!, reason, text, this.#d.clock.nowNs());
    this.#d.emitBook(o.symbol);
    return { status: 'accepted', value: undefined };
  }

  /** Cancels every open order of the account (optionally one symbol, optionally one connection). Returns how many. */
  cancelAll(accountId: string, filter: { symbol?: string; connId?: string } = {}, reason = '', text = ''): number {
    const acct = this.#d.accounts.account(accountId);
    if (!acct) return 0;
    const victims: SimOrder[] = [];
    for (const o of this.#openOrdersOf(acct)) {
      if (filter.symbol !== undefined && o.symbol !== filter.symbol) continue;
      if (filter.connId !== undefined && o.connId !== filter.connId) continue;
      const m = this.#d.markets.get(o.symbol);
      if (m && !statePermissions(m.state).canCancel) continue;
      victims.push(o);
    }
    const symbols = new Set<string>();
    const now = this.#d.clock.nowNs();
    for (const o of victims) {
      this.#cancelOrder(o, acct, reason, text, now);
      symbols.add(o.symbol);
    }
    for (const s of symbols) this.#d.emitBook(s);
    return victims.length;
  }

  /**
   * Atomic cancel-replace: a new order (new oid, inherited cid/tag/side, new time priority) takes
   * the original's place when processed; if the original terminated meanwhile the replacement is
   * rejected ORIGINAL_ORDER_TERMINATED, and a rejected replacement leaves the original untouched.
   */
  replace(actor: Actor, ref: OrderRef, spec: ReplaceSpec, done?: Processed, opts: { immediate?: boolean } = {}): RequestOutcome<SimOrder> {
    const orig = this.find(actor.accountId, ref);
    if (!orig || !(orig.state === 'ACCEPTED' || orig.state === 'PARTIALLY_FILLED' || orig.state === 'PENDING')) return { status: 'not_found' };
    if (orig.state === 'PENDING') return { status: 'pending' };
    const next: PlaceSpec = {
      symbol: orig.symbol,
      side: orig.side,
      qty: spec.qty ?? orig.remainingQty,
      price: spec.price ?? orig.priceText,
      tif: spec.tif ?? orig.tif,
      postOnly: spec.postOnly ?? orig.postOnly,
      reprice: spec.reprice ?? orig.reprice,
      stp: orig.stp,
      tag: orig.tag,
      cid: orig.cid,
    };
    const acct = this.#d.accounts.account(actor.accountId);
    const order = this.#newOrder({ userId: actor.userId, accountId: actor.accountId, connId: actor.connId ?? orig.connId }, acct, next, false, orig.oid, this.#d.clock.nowNs());
    this.#schedule(opts.immediate === true, () => this.#process(order, acct, orig, done, this.#d.clock.nowNs()));
    return { status: 'accepted', value: order };
  }

  /** Ends every DAY order (DONE_FOR_DAY), as at the session end. */
  endOfDay(): number {
    const symbols = new Set<string>();
    let n = 0;
    const now = this.#d.clock.nowNs();
    for (const o of [...this.orders.values()]) {
      if (o.tif !== 'DAY' || !(o.state === 'ACCEPTED' || o.state === 'PARTIALLY_FILLED')) continue;
      this.#terminate(o, this.#d.accounts.account(o.accountId)!, 'DONE_FOR_DAY', now);
      if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'd', eid: this.#d.ids.execution(), tsNs: now, order: snapshotOrder(o) }));
      symbols.add(o.symbol);
      n++;
    }
    for (const s of symbols) this.#d.emitBook(s);
    return n;
  }

  /**
   * Uncrosses a book after a non-matching state (PRE_OPEN → OPEN) [I]: the older of the two best
   * orders is treated as resting and the newer as aggressor, repeatedly, at the resting price.
   */
  uncross(symbol: string): void {
    const book = this.#d.books.get(symbol);
    const market = this.#d.markets.get(symbol);
    if (!book || !market) return;
    const now = this.#d.clock.nowNs();
    for (;;) {
      const b = book.bids.best()?.head;
      const a = book.asks.best()?.head;
      if (!b || !a || b.priceTicks < a.priceTicks) break;
      const taker = b.createdNs > a.createdNs ? b : a;
      const acct = this.#d.accounts.account(taker.accountId)!;
      book.sideOf(taker.side).remove(taker);
      this.#unagg(taker, acct, taker.remainingQty, true);
      acct.open.delete(taker);
      this.#match(taker, acct, book, market, now);
      if (taker.remainingQty > 0 && (taker.state === 'ACCEPTED' || taker.state === 'PARTIALLY_FILLED')) this.#rest(taker, acct, book);
    }
    this.#d.emitBook(symbol);
  }

  #openOrdersOf(acct: Account): SimOrder[] {
    return [...acct.open.values()];
  }

  #newOrder(actor: Actor, acct: Account | undefined, spec: PlaceSpec, liquidation: boolean, replaces: string | null, now: bigint): SimOrder {
    const ids = this.#d.ids;
    // The id's time part from the request's own clock reading (ids only need monotonic ms).
    const ms = Number(now) / 1e6;
    const oid = liquidation ? ids.liquidation(ms) : ids.order(ms);
    const order: SimOrder = {
      oid,
      userId: actor.userId,
      accountId: actor.accountId,
      symbol: spec.symbol,
      side: spec.side,
      priceTicks: 0,
      priceText: spec.price,
      qty: spec.qty,
      filledQty: 0,
      remainingQty: spec.qty,
      state: 'PENDING',
      tif: spec.tif,
      postOnly: spec.postOnly,
      reprice: (spec.reprice ?? 'rej') as RepriceBehavior,
      stp: (spec.stp ?? 'CancelIncoming') as SelfTradePrevention,
      tag: spec.tag ?? null,
      cid: spec.cid ?? null,
      rejectReason: null,
      text: null,
      createdNs: now,
      updatedNs: now,
      connId: actor.connId ?? null,
      replaces,
      prev: null,
      next: null,
      restingLevel: null,
      idHead: ids.lastHead,
      idSlot: ids.lastSlot,
      acctPrev: null,
      acctNext: null,
    };
    this.orders.add(order);
    if (acct && !acct.internal) {
      acct.orderIds.push(oid);
      if (acct.orderIds.length > HISTORY_CAP + HISTORY_CAP / 10) this.#pruneHistory(acct);
    }
    return order;
  }

  /** Forgets the oldest terminal orders of a long-running account so memory stays bounded. */
  #pruneHistory(acct: Account): void {
    const keep: string[] = [];
    let excess = acct.orderIds.length - HISTORY_CAP;
    for (const oid of acct.orderIds) {
      const o = this.orders.get(oid);
      if (excess > 0 && (!o || isTerminal(o.state))) {
        if (o) this.orders.delete(o);
        excess--;
      } else keep.push(oid);
    }
    acct.orderIds.length = 0;
    for (const oid of keep) acct.orderIds.push(oid);
  }

  #schedule(immediate: boolean, fn: () => void): void {
    const lat = this.#d.ackLatencyMs();
    if (immediate || lat <= 0) fn();
    else this.#d.clock.setTimer(lat, fn);
  }

  #process(order: SimOrder, account: Account | undefined, replacing: SimOrder | null, done: Processed | undefined, now: bigint): void {
    if (order.state !== 'PENDING') return;
    const acct = account ?? this.#d.accounts.account(order.accountId)!;
    const market = this.#d.markets.get(order.symbol);
    let rej: Reject | null = null;
    if (replacing && !(replacing.state === 'ACCEPTED' || replacing.state === 'PARTIALLY_FILLED')) {
      rej = { reason: 'ORIGINAL_ORDER_TERMINATED', text: `original order ${replacing.oid} is ${replacing.state}` };
    }
    rej ??= this.#d.takeForcedReject(order.symbol);
    rej ??= validateOrder(order, market, acct, replacing, this.#d);
    const book = this.#d.books.get(order.symbol);
    const matches = market ? statePermissions(market.state).matches : false;
    if (!rej && order.postOnly && book && matches) rej = this.#postOnly(order, book);
    if (rej || !book || !market) {
      this.#reject(order, acct, rej ?? { reason: 'UNKNOWN_SYMBOL', text: `unknown symbol ${order.symbol}` }, now);
      done?.(order);
      return;
    }
    order.state = 'ACCEPTED';
    order.updatedNs = now;
    if (order.cid !== null) acct.liveByCid.set(order.cid, order.oid);
    if (replacing) {
      // The original leaves the book in the same step the replacement is acknowledged.
      this.#d.books.get(replacing.symbol)?.sideOf(replacing.side).remove(replacing);
      this.#unagg(replacing, acct, replacing.remainingQty, true);
      replacing.state = 'REPLACED';
      replacing.remainingQty = 0;
      replacing.updatedNs = now;
      this.#forget(replacing, acct);
      const orig = replacing;
      if (this.#d.listening(order.accountId)) this.#d.emitOrder(order.accountId, () => ({ t: 'r', eid: this.#d.ids.execution(), tsNs: order.updatedNs, original: snapshotOrder(orig), replacement: snapshotOrder(order) }));
    } else {
      if (this.#d.listening(order.accountId)) this.#d.emitOrder(order.accountId, () => ({ t: 'n', eid: this.#d.ids.execution(), tsNs: order.updatedNs, order: snapshotOrder(order) }));
    }
    if (matches) this.#match(order, acct, book, market, now);
    if (order.remainingQty > 0 && isOpenState(order.state)) {
      if (order.tif === 'IOC' && matches) {
        order.text = order.filledQty === 0 ? 'order could not be filled, no available liquidity' : 'order could not be filled completely';
        this.#terminate(order, acct, 'EXPIRED', now);
        if (this.#d.listening(order.accountId)) this.#d.emitOrder(order.accountId, () => ({ t: 'x', eid: this.#d.ids.execution(), tsNs: now, order: snapshotOrder(order) }));
      } else {
        this.#rest(order, acct, book);
      }
    }
    this.#d.emitBook(order.symbol);
    done?.(order);
  }

  /** Post-only handling: reject, or reprice behind the opposite best (bo) or to the same-side best (tbl). */
  #postOnly(order: SimOrder, book: OrderBook): Reject | null {
    const opp = book.oppositeOf(order.side).bestPrice();
    if (opp === undefined) return null;
    const crosses = order.side === 'buy' ? order.priceTicks >= opp : order.priceTicks <= opp;
    if (!crosses) return null;
    if (order.reprice === 'rej') return { reason: null, text: 'post-only order would cross the book' };
    const same = book.sideOf(order.side).bestPrice();
    const behind = order.side === 'buy' ? opp - 1 : opp + 1;
    order.priceTicks = order.reprice === 'tbl' && same !== undefined ? same : behind;
    const m = this.#d.markets.get(order.symbol)!;
    order.priceText = m.instrument.grid.toPrice(order.priceTicks);
    return null;
  }

  #rest(order: SimOrder, acct: Account, book: OrderBook): void {
    book.sideOf(order.side).add(order);
    acct.open.add(order);
    // Internal accounts have no margin or open-order cap, so they need no aggregate.
    if (acct.internal) return;
    const agg = aggOf(acct, order.symbol);
    agg.count++;
    if (order.side === 'buy') {
      agg.buyQty += order.remainingQty;
      agg.buyTickQty += order.remainingQty * order.priceTicks;
    } else {
      agg.sellQty += order.remainingQty;
      agg.sellTickQty += order.remainingQty * order.priceTicks;
    }
  }

  /** Removes `qty` of a resting order from its account's open-order aggregate (and the count when it leaves). */
  #unagg(order: SimOrder, acct: Account, qty: number, leaving: boolean): void {
    if (acct.internal) return;
    const agg = acct.openAgg.get(order.symbol);
    if (!agg) return;
    if (order.side === 'buy') {
      agg.buyQty -= qty;
      agg.buyTickQty -= qty * order.priceTicks;
    } else {
      agg.sellQty -= qty;
      agg.sellTickQty -= qty * order.priceTicks;
    }
    if (leaving) agg.count--;
  }

  /** Matches `taker` against the opposite side while it crosses, at each resting level's price. */
  #match(taker: SimOrder, takerAcct: Account, book: OrderBook, market: InstrumentMarket, now: bigint): void {
    const opp = book.oppositeOf(taker.side);
    const isBuy = taker.side === 'buy';
    while (taker.remainingQty > 0) {
      const lvl = opp.best();
      if (!lvl) break;
      if (isBuy ? taker.priceTicks < lvl.priceTicks : taker.priceTicks > lvl.priceTicks) break;
      const maker = lvl.head!;
      if (maker.accountId === taker.accountId) {
        const stp = taker.stp;
        if (stp === 'CancelResting' || stp === 'CancelBoth') this.#cancelOrder(maker, takerAcct, 'UNKNOWN', 'self-trade prevention: resting order canceled', now);
        if (stp === 'CancelIncoming' || stp === 'CancelBoth') {
          this.#cancelOrder(taker, takerAcct, 'UNKNOWN', 'self-trade prevention: incoming order canceled', now);
          return;
        }
        continue;
      }
      const makerAcct = this.#d.accounts.account(maker.accountId)!;
      this.#execute(maker, makerAcct, taker, takerAcct, Math.min(maker.remainingQty, taker.remainingQty), lvl.priceTicks, opp, market, now);
    }
  }

  #execute(maker: SimOrder, makerAcct: Account, taker: SimOrder, takerAcct: Account, qty: number, px: number, side: BookSide, market: InstrumentMarket, now: bigint): void {
    const d = this.#d;
    const nowMs = d.clock.nowMs();
    const tradeId = d.ids.trade(nowMs);
    side.reduce(maker, qty);
    this.#unagg(maker, makerAcct, qty, false);
    maker.remainingQty -= qty;
    maker.filledQty += qty;
    maker.updatedNs = now;
    if (maker.remainingQty === 0) {
      side.remove(maker);
      this.#unagg(maker, makerAcct, 0, true);
      this.#terminate(maker, makerAcct, 'FILLED', now);
    } else maker.state = 'PARTIALLY_FILLED';
    taker.remainingQty -= qty;
    taker.filledQty += qty;
    taker.updatedNs = now;
    taker.state = taker.remainingQty === 0 ? 'FILLED' : 'PARTIALLY_FILLED';
    if (taker.remainingQty === 0) this.#forget(taker, takerAcct);
    const symbol = taker.symbol;
    const makerPos = positionOf(makerAcct, symbol);
    const takerPos = positionOf(takerAcct, symbol);
    const oiBefore = Math.max(0, makerPos.signedQty) + Math.max(0, takerPos.signedQty);
    if (takerAcct.internal) d.accounts.bookInternalFill(takerAcct, symbol, taker.side, qty, now);
    else d.accounts.bookFill(takerAcct, market.instrument, { tradeId, orderId: taker.oid, side: taker.side, qty, priceTicks: px, isTaker: true, tsNs: now });
    if (makerAcct.internal) d.accounts.bookInternalFill(makerAcct, symbol, maker.side, qty, now);
    else d.accounts.bookFill(makerAcct, market.instrument, { tradeId, orderId: maker.oid, side: maker.side, qty, priceTicks: px, isTaker: false, tsNs: now });
    market.openInterest += Math.max(0, makerPos.signedQty) + Math.max(0, takerPos.signedQty) - oiBefore;
    market.lastTradeTicks = px;
    market.lastTradeQty = qty;
    market.lastTradeMs = nowMs;
    market.volume += qty;
    if (d.listening(taker.accountId)) d.emitOrder(taker.accountId, () => ({
      t: taker.remainingQty === 0 ? 'f' : 'p',
      eid: d.ids.execution(),
      tsNs: now,
      order: snapshotOrder(taker),
      fill: { tradeId, accountId: taker.accountId, symbol, qty, priceTicks: px, side: taker.side, aggressor: true },
    }));
    if (d.listening(maker.accountId)) d.emitOrder(maker.accountId, () => ({
      t: maker.remainingQty === 0 ? 'f' : 'p',
      eid: d.ids.execution(),
      tsNs: now,
      order: snapshotOrder(maker),
      fill: { tradeId, accountId: maker.accountId, symbol, qty, priceTicks: px, side: maker.side, aggressor: false },
    }));
    if (d.tradeListened()) d.emitTrade({ tradeId, symbol, priceTicks: px, qty, takerSide: taker.side, tsNs: now, makerAccountId: maker.accountId, takerAccountId: taker.accountId, makerOid: maker.oid, takerOid: taker.oid });
  }

  #cancelOrder(o: SimOrder, acct: Account, reason: string, text: string, now: bigint): void {
    this.#terminate(o, acct, 'CANCELED', now);
    if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'c', eid: this.#d.ids.execution(), tsNs: o.updatedNs, order: snapshotOrder(o), reason, text }));
  }

  #reject(o: SimOrder, acct: Account, rej: Reject, now: bigint): void {
    o.rejectReason = rej.reason;
    o.text = rej.text;
    this.#terminate(o, acct, 'REJECTED', now);
    if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'j', eid: this.#d.ids.execution(), tsNs: o.updatedNs, order: snapshotOrder(o), reason: rej.reason, text: rej.text }));
  }

  /** Ends an order: off the book (if resting), out of the account's open set, quantity zeroed. */
  #terminate(o: SimOrder, acct: Account, state: SimOrder['state'], now: bigint): void {
    if (o.restingLevel) {
      this.#d.books.get(o.symbol)?.sideOf(o.side).remove(o);
      this.#unagg(o, acct, o.remainingQty, true);
    }
    o.state = state;
    o.remainingQty = 0;
    o.updatedNs = now;
    this.#forget(o, acct);
  }

  /** Frees the cid and drops internal accounts' terminal orders from memory. */
  #forget(o: SimOrder, acct: Account): void {
    acct.open.delete(o);
    if (o.cid !== null && acct.liveByCid.get(o.cid) === o.oid) acct.liveByCid.delete(o.cid);
    if (acct.internal) this.orders.delete(o);
  }

  #cancelReject(accountId: string, ref: OrderRef, o: SimOrder | null, reason: string, text: string): void {
    if (this.#d.listening(accountId)) this.#d.emitOrder(accountId, () => ({
      t: 'e',
      tsNs: this.#d.clock.nowNs(),
      oid: o?.oid ?? ('oid' in ref ? ref.oid : null),
      cid: o?.cid ?? ('cid' in ref ? ref.cid : null),
      reason,
      text,
      order: o ? snapshotOrder(o) : null,
    }));
  }
}

/** Re-exported for callers building rejects. */
export type { Reject, RejectReason };
