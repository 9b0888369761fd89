import { truncate } from '../core/arrays.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { Side } from '../domain/enums.ts';
import type { OrderEvent, OrderFilled } from '../domain/events.ts';
import type { QuoteLevel } from '../domain/intents.ts';
import type { Order } from '../domain/order.ts';
import { isCancelable, isTerminal } from '../domain/order-state.ts';
import type { CidFactory } from './cid.ts';
import { diffSide, DiffScratch, isDeferred, isNoChange, type DiffAccess, type DiffTolerance, type SideDiff } from './quote-diff.ts';
import { LocalOrder } from './order-store.ts';
import type { OrderRequests, RequestEnv } from './order-requests.ts';
import type { UnknownOrderPolicy } from './config.ts';

/** What the manager needs beyond the request layer. */
export interface ManagerEnv extends RequestEnv {
  readonly cids: CidFactory;
  readonly requests: OrderRequests;
  /** Symbols the engine quotes (adoption applies only to these). */
  readonly symbols: ReadonlySet<string>;
  /**
   * Our trading account's id, when known: a fill naming another account is not ours whatever
   * order it names. Null: not checked.
   */
  readonly accountId: string | null;
  /** A fill of one of our orders (tracked, or carrying a client id we issued); the engine dedupes by trade id. */
  onFill(ev: OrderFilled, cid: ClientOrderId | null): void;
  /** A fill that is not ours (see `UnknownFillEvent`): never booked from the stream. */
  onUnknownFill(ev: OrderFilled, kind: 'unknown-order' | 'other-account'): void;
  /** A venue reject event for one of our orders. */
  onRejectEvent(symbol: Symbol, cid: ClientOrderId | null, reason: string, text: string): void;
}

/** Counts from one reconciliation. */
export interface ReconcileCounts {
  adopted: number;
  cancelled: number;
  missing: number;
}

/** Exposure of orders outside the quote diff (pending cancel, unknown outcome). */
export interface Lingering {
  buyQty: number;
  sellQty: number;
  orders: number;
}

/** Sent and not yet answered (or of unknown outcome): the diff holds such an order's level. */
function inFlight(o: LocalOrder): boolean {
  return o.status === 'pending-new' || o.status === 'pending-replace' || o.status === 'unknown';
}

/**
 * The order manager: turns desired ladders into the fewest requests, applies the venue's order
 * events to tracked orders, and reconciles against the venue's open orders.
 */
export class OrderManager {
  readonly #bids: LocalOrder[] = [];
  readonly #asks: LocalOrder[] = [];
  /** Each side's diff is built here (quote-diff.ts); `#applying` > 0 while one is being read. */
  readonly #bidDiff = new DiffScratch<LocalOrder>();
  readonly #askDiff = new DiffScratch<LocalOrder>();
  #applying = 0;
  #now = 0;
  #force = false;
  readonly #tol: DiffTolerance;
  readonly #access: DiffAccess<LocalOrder>;
  readonly #minLife: number;
  /**
   * After an applyQuotes that sent nothing only because orders left over were locked (a deferred
   * diff, the usual answer while a quote is in flight or too young to move): the earliest `sentMs`
   * among the symbol's orders locked by their minimum lifetime (Infinity when only in-flight
   * orders are locked); NaN after any other answer. See `deferredHolds`.
   */
  deferredLockSentMs = NaN;

  constructor(private readonly env: ManagerEnv) {
    this.#tol = { priceTicks: env.config.priceToleranceTicks, size: env.config.sizeTolerance };
    const minLife = env.config.minOrderLifetimeMs;
    this.#minLife = minLife;
    const useReplace = env.config.useReplace;
    this.#access = {
      price: (o) => o.effPrice,
      qty: (o) => o.effQty,
      locked: (o) => {
        if (this.#force) return false;
        if (inFlight(o)) return true;
        return o.status !== 'queued' && this.#now - o.sentMs < minLife;
      },
      replaceable: (o) => o.status === 'queued' || (o.status === 'open' && o.orderId !== null && useReplace),
    };
  }

  /**
   * True when the order takes part in the quote diff. An order whose place outcome is unknown still
   * holds its level (locked), so the level is not placed twice while we wait for the venue.
   */
  static inDiff(o: LocalOrder): boolean {
    return !o.cancelWanted && !o.hedge && o.status !== 'pending-cancel';
  }

  /** Exposure of a symbol's orders that the next ladder will not replace. */
  lingering(symbol: Symbol, out: Lingering): Lingering {
    out.buyQty = 0;
    out.sellQty = 0;
    out.orders = 0;
    const list = this.env.store.forSymbol(symbol);
    for (let i = 0; i < list.length; i++) {
      const o = list[i]!;
      if (OrderManager.inDiff(o)) continue;
      out.orders++;
      if (o.side === 'buy') out.buyQty += o.qty;
      else out.sellQty += o.qty;
    }
    return out;
  }

  /**
   * Makes the symbol's working orders match the ladders. `force` ignores the minimum order
   * lifetime (risk pulls). Sends cancels first, then replaces, then places. Returns true when the
   * working orders already matched exactly (nothing sent, nothing deferred by a lock).
   */
  applyQuotes(symbol: Symbol, bids: readonly QuoteLevel[], asks: readonly QuoteLevel[], force: boolean): boolean {
    const { env } = this;
    this.#now = env.clock.nowMs();
    this.#force = force;
    // Scratch arrays refilled in place, shortened keeping their storage (core/arrays.ts).
    const bidBuf = this.#bids;
    const askBuf = this.#asks;
    let nb = 0;
    let na = 0;
    const list = env.store.forSymbol(symbol);
    for (let i = 0; i < list.length; i++) {
      const o = list[i]!;
      if (!OrderManager.inDiff(o)) continue;
      if (o.side === 'buy') bidBuf[nb++] = o;
      else askBuf[na++] = o;
    }
    truncate(bidBuf, nb);
    truncate(askBuf, na);
    const tol = this.#tol;
    // A request that reaches applyQuotes again before the loops below are done (a gateway answering
    // synchronously) builds its diffs in new objects, not in the ones being read.
    const reentered = this.#applying > 0;
    const db = diffSide(bids, bidBuf, this.#access, tol, true, true, reentered ? null : this.#bidDiff);
    const da = diffSide(asks, askBuf, this.#access, tol, true, false, reentered ? null : this.#askDiff);
    const deferred = (isDeferred(db) && (isDeferred(da) || isNoChange(da))) || (isNoChange(db) && isDeferred(da));
    const lock = deferred ? this.#earliestLifetimeLock(bidBuf, askBuf) : NaN;
    this.#applying++;
    try {
      this.#send(symbol, db, da);
    } finally {
      this.#applying--;
    }
    // Set after sending: a re-entered applyQuotes (a gateway answering synchronously) set its own.
    this.deferredLockSentMs = lock;
    return isNoChange(db) && isNoChange(da);
  }

  /**
   * True while a deferred answer given at `lockSentMs` (deferredLockSentMs) still holds for the
   * same ladders and the same orders (store version): no order locked by its lifetime has come of
   * age (the earliest sent decides: the same comparison as the diff's lock test). In-flight locks
   * end only with an order change, which moves the store version.
   */
  deferredHolds(lockSentMs: number): boolean {
    return this.env.clock.nowMs() - lockSentMs < this.#minLife;
  }

  /** The earliest `sentMs` of the orders locked now by their minimum lifetime (not in flight, not queued); Infinity when none. */
  #earliestLifetimeLock(bids: readonly LocalOrder[], asks: readonly LocalOrder[]): number {
    return Math.min(this.#earliestIn(bids), this.#earliestIn(asks));
  }

  #earliestIn(xs: readonly LocalOrder[]): number {
    let t = Infinity;
    for (let i = 0; i < xs.length; i++) {
      const o = xs[i]!;
      if (inFlight(o) || o.status === 'queued') continue;
      if (this.#now - o.sentMs < this.#minLife && o.sentMs < t) t = o.sentMs;
    }
    return t;
  }

  #send(symbol: Symbol, db: SideDiff<LocalOrder>, da: SideDiff<LocalOrder>): void {
    const { env } = this;
    // Indexed loops: the no-change diff is a shared frozen object, and most calls change nothing.
    for (let i = 0; i < db.cancel.length; i++) env.requests.cancel(db.cancel[i]!);
    for (let i = 0; i < da.cancel.length; i++) env.requests.cancel(da.cancel[i]!);
    for (let i = 0; i < db.replace.length; i++) {
      const r = db.replace[i]!;
      env.requests.replace(r.order, r.level.priceTicks, r.level.qty);
    }
    for (let i = 0; i < da.replace.length; i++) {
      const r = da.replace[i]!;
      env.requests.replace(r.order, r.level.priceTicks, r.level.qty);
    }
    for (let i = 0; i < db.place.length; i++) this.placeNew(symbol, 'buy', db.place[i]!.priceTicks, db.place[i]!.qty);
    for (let i = 0; i < da.place.length; i++) this.placeNew(symbol, 'sell', da.place[i]!.priceTicks, da.place[i]!.qty);
  }

  /** Tracks and queues a new order (`hedge`: a marketable order outside the ladder, never post-only); returns it. */
  placeNew(symbol: Symbol, side: Side, priceTicks: number, qty: number, tif: 'GTC' | 'IOC' | 'DAY' | null = null, hedge = false): LocalOrder {
    const o = new LocalOrder(this.env.cids.next(), symbol, side, priceTicks, qty, this.env.clock.nowMs(), false);
    o.hedge = hedge;
    this.env.store.add(o);
    this.env.requests.place(o, tif);
    return o;
  }

  /** Pulls every order of a symbol: one cancel-all when several are out, else single cancels. */
  pullAll(symbol: Symbol): void {
    const orders = this.env.store.forSymbol(symbol).filter((o) => !o.cancelWanted || o.status === 'queued');
    const live = orders.filter((o) => o.status !== 'queued');
    if (live.length > 1) this.env.requests.cancelAll(symbol, orders);
    else for (const o of orders) this.env.requests.cancel(o);
  }

  /** Applies one order event from the venue stream. */
  onOrderEvent(ev: OrderEvent): void {
    const { env } = this;
    const req = env.requests;
    if (ev.type === 'cancel-rejected') {
      const o = env.store.find(ev.clientOrderId, ev.orderId);
      if (o) req.scheduleStatus(o, 0);
      return;
    }
    if (ev.type === 'replaced') {
      const o = env.store.find(ev.original.clientOrderId, ev.original.orderId);
      if (!o) return;
      const rep = ev.replacement;
      const newId = ev.newOrderId ?? rep?.orderId ?? null;
      if (newId) env.store.setOrderId(o, newId);
      if (rep) {
        env.store.moveTo(o, rep.priceTicks, rep.remainingQty);
        o.filledQty = rep.filledQty;
      } else if (o.target) {
        env.store.moveTo(o, o.target.priceTicks, o.target.qty);
        o.filledQty = 0;
      }
      o.target = null;
      o.acked = true;
      if (o.status === 'pending-replace' || o.status === 'unknown') o.status = o.cancelWanted ? 'pending-cancel' : 'open';
      o.sentMs = env.clock.nowMs();
      env.store.touch(o.symbol);
      if (rep && isTerminal(rep.state)) req.terminate(o);
      else env.onOrderChanged(o.symbol);
      return;
    }
    const order = ev.order;
    const o = env.store.find(order.clientOrderId, order.orderId);
    const current = o !== undefined && (o.orderId === null || o.orderId === order.orderId);
    switch (ev.type) {
      case 'accepted':
        if (!o || !current) return;
        env.store.setOrderId(o, order.orderId);
        o.acked = true;
        o.priceTicks = order.priceTicks;
        o.qty = order.remainingQty;
        o.filledQty = order.filledQty;
        if (o.status === 'pending-new' || o.status === 'unknown' || o.status === 'queued') o.status = o.cancelWanted ? 'pending-cancel' : 'open';
        env.store.touch(o.symbol);
        req.afterAck(o);
        return;
      case 'filled':
        // A fill moves the position, which every risk limit reads: only our own orders' fills
        // count. Anything else (a venue glitch, a hostile peer) is reported and checked over REST.
        if (env.accountId !== null && order.accountId !== env.accountId) return env.onUnknownFill(ev, 'other-account');
        if (!o && !env.cids.issued(order.clientOrderId)) return env.onUnknownFill(ev, 'unknown-order');
        env.onFill(ev, o?.clientOrderId ?? order.clientOrderId);
        if (!o || !current) return;
        env.store.setOrderId(o, order.orderId);
        o.acked = true;
        env.store.filledTo(o, order.remainingQty);
        o.filledQty = order.filledQty;
        if (!ev.partial || order.remainingQty <= 0 || order.state === 'FILLED') req.terminate(o);
        else env.onOrderChanged(o.symbol);
        req.afterAck(o);
        return;
      case 'rejected':
        if (!o || !current) return;
        env.onRejectEvent(o.symbol, o.clientOrderId, ev.reason ?? 'POST_ONLY_WOULD_CROSS', ev.text);
        req.terminate(o);
        return;
      case 'canceled':
      case 'expired':
      case 'done-for-day':
        if (!o || !current) return;
        req.terminate(o);
        return;
    }
  }

  /**
   * Reconciles local orders with the venue's open orders: known orders take the venue's figures;
   * unknown ones are cancelled, adopted (quoted symbols only) or ignored per policy; local orders
   * the venue does not list are asked about by status.
   */
  reconcile(venue: readonly Order[], policy: UnknownOrderPolicy): ReconcileCounts {
    const { env } = this;
    const counts: ReconcileCounts = { adopted: 0, cancelled: 0, missing: 0 };
    const seen = new Set<LocalOrder>();
    for (const v of venue) {
      if (!isCancelable(v.state)) continue;
      const known = env.store.find(v.clientOrderId, v.orderId);
      if (known) {
        seen.add(known);
        env.store.setOrderId(known, v.orderId);
        known.acked = true;
        known.qty = v.remainingQty;
        known.filledQty = v.filledQty;
        if (known.status === 'unknown' || known.status === 'pending-new') known.status = 'open';
        if (known.status === 'open') known.priceTicks = v.priceTicks;
        if (known.cancelWanted) {
          known.status = 'open';
          env.requests.cancel(known);
        }
        env.store.touch(known.symbol);
        continue;
      }
      if (policy === 'ignore') continue;
      const adopt = policy === 'adopt' && env.symbols.has(v.symbol);
      const o = this.#track(v);
      seen.add(o);
      if (adopt) counts.adopted++;
      else {
        counts.cancelled++;
        env.requests.cancel(o);
      }
    }
    for (const o of env.store.all()) {
      if (seen.has(o) || o.status === 'queued') continue;
      counts.missing++;
      o.status = 'unknown';
      o.statusTimer?.();
      o.statusTimer = null;
      env.requests.scheduleStatus(o, 0);
      env.store.touch(o.symbol);
    }
    return counts;
  }

  #track(v: Order): LocalOrder {
    const cid = v.clientOrderId ?? this.env.cids.next();
    const o = new LocalOrder(cid, v.symbol, v.side, v.priceTicks, v.remainingQty, this.env.clock.nowMs(), true);
    o.orderId = v.orderId as VenueOrderId;
    o.filledQty = v.filledQty;
    o.acked = true;
    o.status = 'open';
    this.env.store.add(o);
    return o;
  }
}
