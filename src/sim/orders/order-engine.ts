import { statePermissions } from '../../domain/enums.ts';
import { isCancelable, isOpenState } from '../../domain/order-state.ts';
import type { Account } from '../accounts/account.ts';
import { snapshotOrder, type PlaceSpec, type ReplaceSpec, type SimOrder } from '../types.ts';
import { Auction } from './auction.ts';
import type { Actor, EngineDeps, OrderRef, Processed, RequestOutcome } from './engine-types.ts';
import { Matcher } from './matcher.ts';
import type { OrderIndex } from './order-index.ts';
import { OrderStore } from './order-store.ts';
import { validateOrder, type Reject } from './validate.ts';

export { HISTORY_CAP, type Actor, type EngineDeps, type OrderRef, type Processed, type RequestOutcome } from './engine-types.ts';
export type { Reject };

/**
 * The order engine: the gateway operations (place, cancel, cancel-all, atomic cancel-replace, day
 * end, uncross at the open) over the order store and the matcher. Book and account state change
 * only through here.
 */
export class OrderEngine {
  /** Session hand-overs: connection id → the connection its orders now belong to. */
  readonly #connAlias = new Map<string, string>();
  readonly #d: EngineDeps;
  readonly #store: OrderStore;
  readonly #matcher: Matcher;
  readonly #auction: Auction;

  constructor(deps: EngineDeps) {
    this.#d = deps;
    this.#store = new OrderStore(deps);
    this.#matcher = new Matcher(deps, this.#store);
    this.#auction = new Auction(deps, this.#store, this.#matcher);
  }

  /** Every order still known by id (internal accounts' orders are dropped once terminal). */
  get orders(): OrderIndex {
    return this.#store.orders;
  }

  /**
   * Accepts a place request: the order is PENDING until processed after the ack latency
   * (`immediate` skips it). Plain flags rather than an options object keep the hot path allocation-free.
   */
  submit(actor: Actor, spec: PlaceSpec, done?: Processed, immediate = false, liquidation = false): SimOrder {
    const acct = this.#d.accounts.account(actor.accountId);
    const now = this.#d.clock.nowNs();
    const order = this.#store.create(actor, acct, spec, liquidation, null, now);
    // Reserve the cid while pending so a cancel by cid before the ack answers 409, not "not found".
    if (order.cid !== null && acct && !acct.liveByCid.has(order.cid)) acct.liveByCid.set(order.cid, order.oid);
    this.#schedule(order, acct, null, done, immediate, now);
    return order;
  }

  /** Finds an order of `accountId` by oid or cid (cid among live orders, then history by oid). */
  find(accountId: string, ref: OrderRef): SimOrder | undefined {
    return this.#store.find(accountId, ref);
  }

  /** Cancels one order. PENDING → 'pending' (409); unknown or terminal → 'not_found' plus an `e` event. */
  cancel(actor: Actor, ref: OrderRef, reason = '', text = ''): RequestOutcome {
    const o = this.#store.find(actor.accountId, ref);
    if (!o || !isCancelable(o.state)) {
      this.#store.cancelReject(actor.accountId, ref, o ?? null, 'ORDER_NOT_FOUND', 'Order not found or already canceled');
      return { status: 'not_found' };
    }
    if (o.state === 'PENDING') return { status: 'pending' };
    const m = this.#d.markets.get(o.symbol);
    if (m && !statePermissions(m.state).canCancel) {
      const t = `instrument ${o.symbol} is ${m.state}; orders cannot be canceled`;
      this.#store.cancelReject(actor.accountId, ref, o, 'UNKNOWN', t);
      return { status: 'refused', order: o, text: t };
    }
    this.#store.cancel(o, this.#d.accounts.account(o.accountId)!, reason, text, this.#d.clock.nowNs());
    this.#d.emitBook(o.symbol);
    return { status: 'accepted', value: undefined };
  }

  /**
   * Moves the cancel-on-disconnect binding of every order placed on connection `from` (open, still
   * pending an ack, or placed later by a request already in flight) to connection `to`: a session
   * handed over to a newer connection (make-before-break token rollover).
   */
  moveConnection(from: string, to: string): void {
    if (from === to) return;
    // Every connection handed to `from` earlier goes straight to `to`: one hop per lookup, however
    // many rollovers a session lives through (a chain would grow by one per token lifetime).
    for (const [k, v] of this.#connAlias) if (v === from) this.#connAlias.set(k, to);
    this.#connAlias.set(from, to);
    // Every alias key is a closed connection whose requests were all submitted when it closed (a
    // request becomes a PENDING order at once): once none of its orders is live, its alias is dead.
    // Without this a session living through many rollovers keeps one entry per token lifetime.
    const live = new Set<string>();
    for (const o of this.#store.orders.values()) if (o.connId !== null && isCancelable(o.state)) live.add(o.connId);
    for (const k of this.#connAlias.keys()) if (k !== from && !live.has(k)) this.#connAlias.delete(k);
  }

  /**
   * Forgets the hand-overs that ended at connection `connId`, closed with no successor (its orders
   * were just cancelled on disconnect): nothing can be bound to it any more.
   */
  releaseConnection(connId: string): void {
    for (const [k, v] of this.#connAlias) if (v === connId) this.#connAlias.delete(k);
  }

  /** Number of live hand-over aliases (tests: bounded by the connections still owning live orders). */
  get connectionAliases(): number {
    return this.#connAlias.size;
  }

  /** The connection an order placed on `connId` is bound to now (after hand-overs), null for REST. */
  connectionOf(connId: string | null): string | null {
    return connId === null ? null : (this.#connAlias.get(connId) ?? connId);
  }

  /** Cancels every open order of the account (optionally one symbol, optionally one connection). Returns how many. */
  cancelAll(accountId: string, filter: { symbol?: string; connId?: string } = {}, reason = '', text = ''): number {
    const acct = this.#d.accounts.account(accountId);
    if (!acct) return 0;
    const victims: SimOrder[] = [];
    for (const o of acct.open) {
      if (filter.symbol !== undefined && o.symbol !== filter.symbol) continue;
      if (filter.connId !== undefined && this.connectionOf(o.connId) !== filter.connId) continue;
      const m = this.#d.markets.get(o.symbol);
      if (m && !statePermissions(m.state).canCancel) continue;
      victims.push(o);
    }
    const symbols = new Set<string>();
    const now = this.#d.clock.nowNs();
    for (const o of victims) {
      this.#store.cancel(o, acct, reason, text, now);
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
    const orig = this.#store.find(actor.accountId, ref);
    if (!orig || !isCancelable(orig.state)) return { status: 'not_found' };
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
    const now = this.#d.clock.nowNs();
    const order = this.#store.create({ userId: actor.userId, accountId: actor.accountId, connId: actor.connId ?? orig.connId }, acct, next, false, orig.oid, now);
    this.#schedule(order, acct, orig, done, opts.immediate === true, now);
    return { status: 'accepted', value: order };
  }

  /** Ends every DAY order (DONE_FOR_DAY), as at the session end. */
  endOfDay(): number {
    const symbols = new Set<string>();
    let n = 0;
    const now = this.#d.clock.nowNs();
    for (const o of [...this.#store.orders.values()]) {
      if (o.tif !== 'DAY' || !isOpenState(o.state)) continue;
      this.#store.endDay(o, this.#d.accounts.account(o.accountId)!, now);
      symbols.add(o.symbol);
      n++;
    }
    for (const s of symbols) this.#d.emitBook(s);
    return n;
  }

  /**
   * Uncrosses a book when matching starts again (PRE_OPEN → OPEN, end of a closing auction) with a
   * single-price auction (see `Auction`).
   */
  uncross(symbol: string): void {
    this.#auction.run(symbol);
  }

  /** Processes a new order at once (`immediate`, or no ack latency), else once the ack latency has passed. */
  #schedule(order: SimOrder, acct: Account | undefined, replacing: SimOrder | null, done: Processed | undefined, immediate: boolean, now: bigint): void {
    const lat = immediate ? 0 : this.#d.ackLatencyMs();
    if (lat <= 0) this.#process(order, acct, replacing, done, now);
    else this.#d.clock.setTimer(lat, () => this.#process(order, acct, replacing, done, this.#d.clock.nowNs()));
  }

  /** Validates, acknowledges (`n`, or `r` for a replacement), matches when the state allows, then rests or expires. */
  #process(order: SimOrder, account: Account | undefined, replacing: SimOrder | null, done: Processed | undefined, now: bigint): void {
    if (order.state !== 'PENDING') return;
    const d = this.#d;
    const acct = account ?? d.accounts.account(order.accountId)!;
    const market = d.markets.get(order.symbol);
    let rej: Reject | null = null;
    if (replacing && !isOpenState(replacing.state)) {
      rej = { reason: 'ORIGINAL_ORDER_TERMINATED', text: `original order ${replacing.oid} is ${replacing.state}` };
    }
    rej ??= d.takeForcedReject(order.symbol);
    rej ??= validateOrder(order, market, acct, replacing, d);
    const book = d.books.get(order.symbol);
    const matches = market ? statePermissions(market.state).matches : false;
    if (!rej && order.postOnly && book && market && matches) rej = this.#matcher.postOnly(order, book, market);
    if (rej || !book || !market) {
      this.#store.reject(order, acct, rej ?? { reason: 'UNKNOWN_SYMBOL', text: `unknown symbol ${order.symbol}` }, now);
      done?.(order);
      return;
    }
    order.state = 'ACCEPTED';
    order.updatedNs = now;
    if (order.cid !== null) acct.liveByCid.set(order.cid, order.oid);
    if (replacing) {
      // The original leaves the book in the same step the replacement is acknowledged.
      this.#store.terminate(replacing, acct, 'REPLACED', now);
      const orig = replacing;
      if (d.listening(order.accountId)) d.emitOrder(order.accountId, () => ({ t: 'r', eid: d.ids.execution(), tsNs: order.updatedNs, original: snapshotOrder(orig), replacement: snapshotOrder(order) }));
    } else if (d.listening(order.accountId)) {
      d.emitOrder(order.accountId, () => ({ t: 'n', eid: d.ids.execution(), tsNs: order.updatedNs, order: snapshotOrder(order) }));
    }
    if (matches) this.#matcher.match(order, acct, book, market, now);
    if (order.remainingQty > 0 && isOpenState(order.state)) {
      if (order.tif === 'IOC' && matches) this.#store.expire(order, acct, now);
      else this.#store.rest(order, acct, book);
    }
    d.emitBook(order.symbol);
    done?.(order);
  }
}
