import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { Side } from '../domain/enums.ts';
import type { QuoteLevel } from '../domain/intents.ts';
import type { OwnRestingOrder } from '../domain/others-book.ts';
import type { Exposure } from '../risk/intent-check.ts';
import type { WorkingOrder, WorkingOrderStatus } from '../strategy/contract.ts';

/**
 * One order the engine tracks from intent to terminal state. Mutable inside the engine; strategies
 * and snapshots see it through the read-only WorkingOrder interface.
 */
export class LocalOrder implements WorkingOrder {
  orderId: VenueOrderId | null = null;
  status: WorkingOrderStatus = 'queued';
  filledQty = 0;
  /** The venue has acknowledged the order (a cancel will not get 409). */
  acked = false;
  /** Engine time the current price/size was sent (min-lifetime clock); −∞ for adopted orders. */
  sentMs = -Infinity;
  /** Target of a queued or in-flight replace. */
  target: QuoteLevel | null = null;
  replaceQueued = false;
  /** A strategy's marketable hedge (IOC, not post-only): never part of the quote diff. */
  hedge = false;
  /** We want this order gone; it never comes back into the quote diff. */
  cancelWanted = false;
  /** A cancel got 409: send it again when the ack arrives. */
  cancelAfterAck = false;
  /** Cancels a pending status-check timer. */
  statusTimer: (() => void) | null = null;
  retryTimer: (() => void) | null = null;
  /** Cancels the venue refused so far (backs off the retries). */
  cancelRejects = 0;
  /** The last status answer said REPLACED: ask by cid (the replacement inherits it) next time. */
  byCidOnly = false;
  /** Venue ids this order had before its latest replace (most recent last, bounded). */
  readonly oldIds: VenueOrderId[] = [];

  constructor(
    readonly clientOrderId: ClientOrderId,
    readonly symbol: Symbol,
    readonly side: Side,
    public priceTicks: number,
    public qty: number,
    readonly createdMs: number,
    readonly adopted: boolean,
  ) {}

  /** Price the quote diff compares against (a replace's target when one is pending). */
  get effPrice(): number {
    return this.target ? this.target.priceTicks : this.priceTicks;
  }

  /** Size the quote diff compares against. */
  get effQty(): number {
    return this.target ? this.target.qty : this.qty;
  }

  /** Clears timers (on terminal state). */
  dispose(): void {
    this.statusTimer?.();
    this.statusTimer = null;
    this.retryTimer?.();
    this.retryTimer = null;
  }
}

/** The ghosts of a symbol that has none (shared, frozen). */
export const NO_GHOSTS: readonly OwnRestingOrder[] = Object.freeze([]);

/** How many superseded venue ids per order stay resolvable. */
const MAX_OLD_IDS = 8;

/** The engine's orders: by client id, by every venue id an order has had (replaces change it), by symbol. */
export class OrderStore {
  readonly #byCid = new Map<string, LocalOrder>();
  readonly #byOid = new Map<string, LocalOrder>();
  readonly #bySymbol = new Map<string, LocalOrder[]>();
  readonly #views = new Map<string, readonly WorkingOrder[]>();
  /** Bumped on every change, so callers can cache derived views. */
  version = 0;
  /**
   * Keep ghosts (a live engine: the venue's book shows our orders). A ghost is where and how much
   * of one of our orders the venue's book may still show after the order stream told us it left
   * (filled, cancelled, replaced elsewhere), until the symbol's next book update: the market-data
   * and order streams are separate sockets. The strategy's view of others' book subtracts them.
   */
  keepGhosts = false;
  readonly #ghosts = new Map<string, readonly OwnRestingOrder[]>();

  /** Number of tracked orders. */
  get size(): number {
    return this.#byCid.size;
  }

  add(o: LocalOrder): void {
    this.#byCid.set(o.clientOrderId, o);
    if (o.orderId) this.#byOid.set(o.orderId, o);
    let list = this.#bySymbol.get(o.symbol);
    if (!list) this.#bySymbol.set(o.symbol, (list = []));
    list.push(o);
    this.touch(o.symbol);
  }

  /**
   * Records a (new) venue id for an order. The last few older ids keep pointing at it, for late
   * events of an order that has since been replaced; older ones are forgotten, so an order replaced
   * all day does not grow the index.
   */
  setOrderId(o: LocalOrder, id: VenueOrderId): void {
    // A venue id never comes back once replaced: late news naming an old id must not regress it.
    if (o.orderId === id || o.oldIds.includes(id)) return;
    if (o.orderId !== null) this.#rememberOld(o, o.orderId);
    o.orderId = id;
    this.#byOid.set(id, o);
    this.touch(o.symbol);
  }

  /**
   * Records the id a place reply names. It is the order's first id, so when the order already has
   * one (its ack, a status answer or a replace arrived first) it is an old id, never the current one.
   */
  setPlacedId(o: LocalOrder, id: VenueOrderId): void {
    if (o.orderId === null) return this.setOrderId(o, id);
    if (o.orderId === id || o.oldIds.includes(id)) return;
    this.#rememberOld(o, id);
    this.#byOid.set(id, o);
  }

  #rememberOld(o: LocalOrder, id: VenueOrderId): void {
    o.oldIds.push(id);
    if (o.oldIds.length > MAX_OLD_IDS) {
      const gone = o.oldIds.shift()!;
      if (this.#byOid.get(gone) === o) this.#byOid.delete(gone);
    }
  }

  /** Forgets a terminal order (its venue ids are forgotten too). */
  remove(o: LocalOrder): void {
    if (this.#byCid.get(o.clientOrderId) !== o) return;
    o.dispose();
    this.#byCid.delete(o.clientOrderId);
    for (const id of o.oldIds) if (this.#byOid.get(id) === o) this.#byOid.delete(id);
    if (o.orderId !== null && this.#byOid.get(o.orderId) === o) this.#byOid.delete(o.orderId);
    const list = this.#bySymbol.get(o.symbol);
    if (list) {
      const i = list.indexOf(o);
      if (i >= 0) list.splice(i, 1);
    }
    if (o.acked) this.#ghost(o, o.priceTicks, o.qty);
    this.touch(o.symbol);
  }

  /** Takes the price and size the venue answered a replace with (the old ones become a ghost). */
  moveTo(o: LocalOrder, priceTicks: number, qty: number): void {
    if (priceTicks !== o.priceTicks) this.#ghost(o, o.priceTicks, o.qty);
    else if (qty < o.qty) this.#ghost(o, o.priceTicks, o.qty - qty);
    o.priceTicks = priceTicks;
    o.qty = qty;
    this.touch(o.symbol);
  }

  /** Takes the remaining size a fill left (the filled part becomes a ghost). */
  filledTo(o: LocalOrder, remainingQty: number): void {
    if (remainingQty < o.qty) this.#ghost(o, o.priceTicks, o.qty - remainingQty);
    o.qty = remainingQty;
    this.touch(o.symbol);
  }

  /** The ghosts of a symbol's orders (see `keepGhosts`). */
  ghosts(symbol: string): readonly OwnRestingOrder[] {
    return this.#ghosts.get(symbol) ?? NO_GHOSTS;
  }

  /** Forgets a symbol's ghosts: a book update has come since they left. */
  clearGhosts(symbol: string): void {
    if (this.#ghosts.delete(symbol)) this.touch(symbol);
  }

  #ghost(o: LocalOrder, priceTicks: number, qty: number): void {
    if (!this.keepGhosts || qty <= 0) return;
    // A new array each time: views derived from the old one see the change by identity.
    this.#ghosts.set(o.symbol, [...this.ghosts(o.symbol), { side: o.side, priceTicks, qty }]);
  }

  has(o: LocalOrder): boolean {
    return this.#byCid.get(o.clientOrderId) === o;
  }

  byCid(cid: string | null): LocalOrder | undefined {
    return cid === null ? undefined : this.#byCid.get(cid);
  }

  byOrderId(id: string | null): LocalOrder | undefined {
    return id === null ? undefined : this.#byOid.get(id);
  }

  /** Finds by client id first, then by any venue id. */
  find(cid: string | null, orderId: string | null): LocalOrder | undefined {
    return this.byCid(cid) ?? this.byOrderId(orderId);
  }

  /** Live list for a symbol (do not mutate). */
  forSymbol(symbol: string): readonly LocalOrder[] {
    return this.#bySymbol.get(symbol) ?? [];
  }

  /** A symbol's working exposure for the risk checks: order count and total size per side (every tracked order, in flight or resting). */
  exposure(symbol: string): Exposure {
    let buyQty = 0;
    let sellQty = 0;
    const orders = this.forSymbol(symbol);
    for (const o of orders) {
      if (o.side === 'buy') buyQty += o.qty;
      else sellQty += o.qty;
    }
    return { buyQty, sellQty, orders: orders.length };
  }

  all(): LocalOrder[] {
    return [...this.#byCid.values()];
  }

  /** A frozen copy of a symbol's orders for strategies, rebuilt only after changes. */
  view(symbol: string): readonly WorkingOrder[] {
    let v = this.#views.get(symbol);
    if (!v) {
      v = Object.freeze([...(this.#bySymbol.get(symbol) ?? [])]);
      this.#views.set(symbol, v);
    }
    return v;
  }

  /** Marks a symbol's view stale (call after mutating an order's fields). */
  touch(symbol: string): void {
    this.version++;
    this.#views.delete(symbol);
  }
}
