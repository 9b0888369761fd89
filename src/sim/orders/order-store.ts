import type { RepriceBehavior, SelfTradePrevention } from '../../domain/enums.ts';
import { isTerminal } from '../../domain/order-state.ts';
import { aggOf, type Account } from '../accounts/account.ts';
import type { OrderBook } from '../book/order-book.ts';
import { snapshotOrder, type PlaceSpec, type SimOrder } from '../types.ts';
import { HISTORY_CAP, type Actor, type EngineDeps, type OrderRef } from './engine-types.ts';
import { OrderIndex } from './order-index.ts';
import type { Reject } from './validate.ts';

/**
 * Orders and their bookkeeping: creation and lookup, resting on a book with the account's open set
 * and margin aggregate, and the terminal transitions (cancel, reject, expire, fill, day end) with
 * their events. Every method takes the order's account and the request's clock reading, so the
 * hot path does one lookup and one clock read per request.
 */
export class OrderStore {
  /** Every order still known by id (internal accounts' orders are dropped once terminal). */
  readonly orders = new OrderIndex();
  readonly #d: EngineDeps;

  constructor(deps: EngineDeps) {
    this.#d = deps;
  }

  /** Creates a PENDING order with a fresh `O-` (or `L-`) id and indexes it. */
  create(actor: Actor, acct: Account | undefined, spec: PlaceSpec, liquidation: boolean, replaces: string | null, now: bigint): SimOrder {
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
      const cap = this.#d.orderHistoryCap ?? HISTORY_CAP;
      if (acct.orderIds.length > cap + Math.ceil(cap / 10)) this.#pruneHistory(acct, cap);
    }
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

  /** Puts an accepted order on its book (tail of its level) and into the account's open set and aggregate. */
  rest(order: SimOrder, acct: Account, book: OrderBook): void {
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
  unagg(order: SimOrder, acct: Account, qty: number, leaving: boolean): void {
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

  /** Cancels an order (off the book) and emits `c`. */
  cancel(o: SimOrder, acct: Account, reason: string, text: string, now: bigint): void {
    this.terminate(o, acct, 'CANCELED', now);
    if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'c', eid: this.#d.ids.execution(), tsNs: o.updatedNs, order: snapshotOrder(o), reason, text }));
  }

  /** Rejects an order and emits `j`. */
  reject(o: SimOrder, acct: Account, rej: Reject, now: bigint): void {
    o.rejectReason = rej.reason;
    o.text = rej.text;
    this.terminate(o, acct, 'REJECTED', now);
    if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'j', eid: this.#d.ids.execution(), tsNs: o.updatedNs, order: snapshotOrder(o), reason: rej.reason, text: rej.text }));
  }

  /** Expires an IOC remainder with the venue's text and emits `x`. */
  expire(o: SimOrder, acct: Account, now: bigint): void {
    o.text = o.filledQty === 0 ? 'order could not be filled, no available liquidity' : 'order could not be filled completely';
    this.terminate(o, acct, 'EXPIRED', now);
    if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'x', eid: this.#d.ids.execution(), tsNs: now, order: snapshotOrder(o) }));
  }

  /** Ends a DAY order (DONE_FOR_DAY) and emits `d`. */
  endDay(o: SimOrder, acct: Account, now: bigint): void {
    this.terminate(o, acct, 'DONE_FOR_DAY', now);
    if (this.#d.listening(o.accountId)) this.#d.emitOrder(o.accountId, () => ({ t: 'd', eid: this.#d.ids.execution(), tsNs: now, order: snapshotOrder(o) }));
  }

  /** Emits a cancel reject `e` (unknown, terminal or frozen order). */
  cancelReject(accountId: string, ref: OrderRef, o: SimOrder | null, reason: string, text: string): void {
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

  /** Ends an order: off the book (if resting), out of the account's open set, quantity zeroed. */
  terminate(o: SimOrder, acct: Account, state: SimOrder['state'], now: bigint): void {
    if (o.restingLevel) {
      this.#d.books.get(o.symbol)?.sideOf(o.side).remove(o);
      this.unagg(o, acct, o.remainingQty, true);
    }
    o.state = state;
    o.remainingQty = 0;
    o.updatedNs = now;
    this.forget(o, acct);
  }

  /** Frees the cid and drops internal accounts' terminal orders from memory. */
  forget(o: SimOrder, acct: Account): void {
    acct.open.delete(o);
    if (o.cid !== null && acct.liveByCid.get(o.cid) === o.oid) acct.liveByCid.delete(o.cid);
    if (acct.internal) this.orders.delete(o);
  }

  /** Forgets the oldest terminal orders of a long-running account so memory stays bounded. */
  #pruneHistory(acct: Account, cap: number): void {
    const keep: string[] = [];
    let excess = acct.orderIds.length - cap;
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
}
