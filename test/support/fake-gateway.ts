import { Subject } from 'rxjs';
import type { Clock } from '../../src/core/clock.ts';
import { Decimal } from '../../src/core/decimal.ts';
import { MmError } from '../../src/core/errors.ts';
import { asAccountId, asExecutionId, asVenueOrderId, type ClientOrderId, type Symbol, type VenueOrderId } from '../../src/core/ids.ts';
import type { OrderEvent } from '../../src/domain/events.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../../src/domain/intents.ts';
import type { Fill, Order, OrderStatus } from '../../src/domain/order.ts';
import type { VenuePosition } from '../../src/domain/position.ts';
import { isCancelable, isOpenState, isReplaceable } from '../../src/domain/order-state.ts';
import type { AccountReader, OrderGateway } from '../../src/engine/ports.ts';

/** Which gateway call a scripted failure applies to. */
export type FakeCall = 'place' | 'replace' | 'cancel' | 'cancelAll' | 'status' | 'openOrders';

/** One request the fake received, for assertions (time on the injected clock). */
export interface FakeRequest {
  readonly call: FakeCall;
  readonly atMs: number;
  readonly clientOrderId: ClientOrderId | null;
  readonly priceTicks: number | null;
  readonly qty: number | null;
}

/**
 * An in-memory venue behind the OrderGateway port, for engine tests (and as a model for replay
 * exchanges). Orders ack immediately unless `autoAck` is off (then `ack(cid)` does it); a cancel
 * before the ack answers 409 NOT_YET_ACKNOWLEDGED; a replace of a terminal order is rejected with
 * ORIGINAL_ORDER_TERMINATED; failures can be scripted per call. Order events go to `events$`.
 * Replies and events arrive on the microtask queue (no clock time passes).
 */
export class FakeGateway implements OrderGateway {
  readonly events$ = new Subject<OrderEvent>();
  readonly requests: FakeRequest[] = [];
  /** Every place intent received, as sent (tif, post-only, ...). */
  readonly placed: PlaceOrder[] = [];
  readonly orders = new Map<string, Order>();
  autoAck = true;
  /** Events are lost (a dropped stream); REST (`accountReader`) still sees every fill. */
  dropEvents = false;
  /** Every fill, as REST `/fills` would list it (fee 0 in this fake). */
  readonly fillLog: (Fill & { readonly fee: Decimal })[] = [];
  /** Positions the account held before any fill of `fillLog` (e.g. opened days ago); fills add to them. */
  readonly priorPositions = new Map<string, VenuePosition>();
  /** Hold replies and events until `release()` (venue state changes at once). */
  hold = false;
  readonly #held: (() => void)[] = [];
  readonly #heldReplies = new Map<() => void, () => void>();
  #seq = 0;
  readonly #failures = new Map<FakeCall, MmError[]>();
  readonly #lostReplies = new Map<FakeCall, MmError>();
  readonly #cidIndex = new Map<string, VenueOrderId>();

  constructor(private readonly clock: Clock, readonly accountId = 'ACC-1') {}

  /** Makes the next `n` calls of `call` fail with `err`. */
  failNext(call: FakeCall, err: MmError, n = 1): void {
    const q = this.#failures.get(call) ?? [];
    for (let i = 0; i < n; i++) q.push(err);
    this.#failures.set(call, q);
  }

  /** The account side of this fake venue: REST fills in [from, to) and net positions. */
  accountReader(): AccountReader {
    return {
      fills: (fromMs, toMs) => Promise.resolve(this.fillLog.filter((f) => f.tsEvent >= fromMs && f.tsEvent < toMs)),
      positions: () => {
        const m = new Map<string, VenuePosition>(this.priorPositions);
        for (const f of this.fillLog) {
          const p = m.get(f.symbol);
          // This fake knows no prices in money: after a fill, cost basis and realized PnL are unknown.
          m.set(f.symbol, { qty: (p?.qty ?? 0) + (f.side === 'buy' ? f.qty : -f.qty), costBasis: null, realizedPnl: null, lastFillMs: f.tsEvent });
        }
        return Promise.resolve(m);
      },
    };
  }

  /** Forgets scripted failures. */
  clearFailures(): void {
    this.#failures.clear();
    this.#lostReplies.clear();
  }

  /** Open orders now. */
  open(): Order[] {
    return [...this.orders.values()].filter((o) => isCancelable(o.state));
  }

  /** Requests of one kind. */
  calls(call: FakeCall): FakeRequest[] {
    return this.requests.filter((r) => r.call === call);
  }

  place(i: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    return this.#deliver(this.#place(i));
  }

  #place(i: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    this.#log('place', i.clientOrderId, i.priceTicks, i.qty);
    this.placed.push(i);
    const f = this.#fail('place');
    if (f) return Promise.reject(f);
    const o = this.#newOrder(i.symbol, i.side, i.priceTicks, i.qty, i.clientOrderId, 'PENDING');
    if (this.autoAck) this.ack(i.clientOrderId);
    return this.#lost('place', Promise.resolve({ orderId: o.orderId }));
  }

  replace(i: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    return this.#deliver(this.#replace(i));
  }

  #replace(i: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    this.#log('replace', i.clientOrderId, i.priceTicks, i.qty);
    const f = this.#fail('replace');
    if (f) return Promise.reject(f);
    const orig = this.orders.get(i.orderId);
    if (!orig) return Promise.reject(new MmError('NOT_FOUND', `unknown order ${i.orderId}`));
    if (!isReplaceable(orig.state)) return Promise.reject(new MmError('ORDER_REJECTED', 'original order terminated', { reason: 'ORIGINAL_ORDER_TERMINATED' }));
    const replaced: Order = { ...orig, state: 'REPLACED', remainingQty: 0 };
    this.orders.set(orig.orderId, replaced);
    const rep = this.#newOrder(orig.symbol, orig.side, i.priceTicks, i.qty, orig.clientOrderId, 'ACCEPTED');
    this.#emit({ type: 'replaced', original: replaced, replacement: rep, newOrderId: rep.orderId, ...this.#ids() });
    return this.#lost('replace', Promise.resolve({ orderId: rep.orderId }));
  }

  cancel(i: CancelOrder): Promise<{ readonly accepted: boolean }> {
    return this.#deliver(this.#cancel(i));
  }

  #cancel(i: CancelOrder): Promise<{ readonly accepted: boolean }> {
    this.#log('cancel', i.clientOrderId, null, null);
    const f = this.#fail('cancel');
    if (f) return Promise.reject(f);
    const o = (i.orderId ? this.orders.get(i.orderId) : undefined) ?? this.#byCid(i.clientOrderId);
    if (!o || !isCancelable(o.state)) return Promise.reject(new MmError('CANCEL_REJECTED', 'order not open', { reason: 'ORDER_NOT_FOUND' }));
    if (o.state === 'PENDING') return Promise.reject(new MmError('NOT_YET_ACKNOWLEDGED', 'order not yet acknowledged (409)'));
    this.#terminate(o, 'CANCELED');
    return this.#lost('cancel', Promise.resolve({ accepted: true }));
  }

  cancelAll(symbol: Symbol | null): Promise<void> {
    this.#log('cancelAll', null, null, null);
    const f = this.#fail('cancelAll');
    if (f) return Promise.reject(f);
    for (const o of this.open()) if ((symbol === null || o.symbol === symbol) && o.state !== 'PENDING') this.#terminate(o, 'CANCELED');
    return Promise.resolve();
  }

  status(ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }): Promise<OrderStatus | null> {
    this.#log('status', ref.clientOrderId ?? null, null, null);
    const f = this.#fail('status');
    if (f) return Promise.reject(f);
    const o = (ref.orderId ? this.orders.get(ref.orderId) : undefined) ?? this.#byCid(ref.clientOrderId ?? null);
    if (!o) return Promise.resolve(null);
    return Promise.resolve({ symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, state: o.state, filledQty: o.filledQty, remainingQty: o.remainingQty, rejectReason: null, rejectMessage: null });
  }

  openOrders(): Promise<readonly Order[]> {
    this.#log('openOrders', null, null, null);
    const f = this.#fail('openOrders');
    if (f) return Promise.reject(f);
    return Promise.resolve(this.open().filter((o) => o.state !== 'PENDING'));
  }

  /** Acknowledges a pending order (emits `accepted`). */
  ack(cid: ClientOrderId): void {
    const o = this.#byCid(cid);
    if (!o || o.state !== 'PENDING') return;
    const acked: Order = { ...o, state: 'ACCEPTED' };
    this.orders.set(o.orderId, acked);
    this.#emit({ type: 'accepted', order: acked, ...this.#ids() });
  }

  /** Fills `qty` of an open order (at its price unless given); emits `filled`. */
  fill(ref: { orderId?: VenueOrderId; clientOrderId?: ClientOrderId }, qty: number, priceTicks?: number, aggressor = false): Order {
    const o = (ref.orderId ? this.orders.get(ref.orderId) : undefined) ?? this.#byCid(ref.clientOrderId ?? null);
    if (!o || !isOpenState(o.state)) throw new Error(`fake: cannot fill ${ref.orderId ?? ref.clientOrderId}`);
    const n = Math.min(qty, o.remainingQty);
    const remaining = o.remainingQty - n;
    const after: Order = { ...o, filledQty: o.filledQty + n, remainingQty: remaining, state: remaining === 0 ? 'FILLED' : 'PARTIALLY_FILLED' };
    this.orders.set(o.orderId, after);
    const tradeId = `T-${++this.#seq}`;
    this.fillLog.push({ tradeId, orderId: o.orderId, accountId: o.accountId, symbol: o.symbol, side: o.side, priceTicks: priceTicks ?? o.priceTicks, qty: n, aggressor, tsEvent: this.clock.nowMs(), fee: new Decimal(0) });
    this.#emit({
      type: 'filled',
      order: after,
      partial: remaining > 0,
      tradeId,
      fillPriceTicks: priceTicks ?? o.priceTicks,
      fillQty: n,
      fillSide: o.side,
      aggressor,
      ...this.#ids(),
    });
    return after;
  }

  /** Ends an open order's unfilled rest the way the venue ends an IOC's (emits `expired`). */
  expire(ref: { orderId?: VenueOrderId; clientOrderId?: ClientOrderId }): Order {
    const o = (ref.orderId ? this.orders.get(ref.orderId) : undefined) ?? this.#byCid(ref.clientOrderId ?? null);
    if (!o || !isOpenState(o.state)) throw new Error(`fake: cannot expire ${ref.orderId ?? ref.clientOrderId}`);
    const after: Order = { ...o, state: 'EXPIRED', remainingQty: 0 };
    this.orders.set(o.orderId, after);
    this.#emit({ type: 'expired', order: after, ...this.#ids() });
    return after;
  }

  /** Puts an order on the account that the engine did not place (for reconciliation tests). */
  addForeign(symbol: Symbol, side: 'buy' | 'sell', priceTicks: number, qty: number, cid: ClientOrderId | null): Order {
    return this.#newOrder(symbol, side, priceTicks, qty, cid, 'ACCEPTED');
  }

  /** Cancels an order venue-side (e.g. cancel-on-disconnect) without emitting an event. */
  silentlyCancel(orderId: VenueOrderId): void {
    const o = this.orders.get(orderId);
    if (o) this.orders.set(orderId, { ...o, state: 'CANCELED', remainingQty: 0 });
  }

  #newOrder(symbol: Symbol, side: 'buy' | 'sell', priceTicks: number, qty: number, cid: ClientOrderId | null, state: Order['state']): Order {
    const o: Order = {
      orderId: asVenueOrderId(`O-${String(++this.#seq).padStart(6, '0')}`),
      clientOrderId: cid,
      accountId: asAccountId(this.accountId),
      userId: null,
      symbol,
      side,
      priceTicks,
      qty,
      filledQty: 0,
      remainingQty: qty,
      state,
      tif: 'GTC',
      postOnly: true,
      reprice: 'bo',
      tag: null,
      rejectReason: null,
      text: null,
      createdMs: this.clock.nowMs(),
    };
    this.orders.set(o.orderId, o);
    // A replacement inherits the cid: the index points at the newest order carrying it.
    if (cid !== null) this.#cidIndex.set(cid, o.orderId);
    return o;
  }

  #terminate(o: Order, state: 'CANCELED'): void {
    const after: Order = { ...o, state, remainingQty: 0 };
    this.orders.set(o.orderId, after);
    this.#emit({ type: 'canceled', order: after, reason: '', text: '', ...this.#ids() });
  }

  #byCid(cid: ClientOrderId | null): Order | undefined {
    if (cid === null) return undefined;
    const id = this.#cidIndex.get(cid);
    return id === undefined ? undefined : this.orders.get(id);
  }

  #ids(): { executionId: ReturnType<typeof asExecutionId>; tsEvent: number; tsRecv: number } {
    const t = this.clock.nowMs();
    return { executionId: asExecutionId(`E-${++this.#seq}`), tsEvent: t, tsRecv: t };
  }

  #emit(ev: OrderEvent): void {
    if (this.dropEvents) return;
    // Like a socket: events arrive after the call returns, never inside it.
    if (this.hold) this.#held.push(() => this.events$.next(ev));
    else queueMicrotask(() => this.events$.next(ev));
  }

  /** While `hold` is set, replies and events wait (the venue has acted; the network is slow). */
  #deliver<T>(p: Promise<T>): Promise<T> {
    if (!this.hold) return p;
    return new Promise<T>((resolve, reject) => {
      // Settle-observe now (no unhandled rejection while held), deliver on release.
      let deliver: (() => void) | null = null;
      let released = false;
      p.then(
        (v) => (deliver = () => resolve(v)),
        (e: unknown) => (deliver = () => reject(e)),
      ).then(() => {
        if (released) deliver!();
      });
      const item = (): void => {
        released = true;
        if (deliver) deliver();
      };
      // On a connection drop the reply is lost: the caller sees an unknown outcome.
      this.#heldReplies.set(item, () => reject(new MmError('NETWORK_ERROR', 'connection dropped before the reply')));
      this.#held.push(item);
    });
  }

  /** Delivers held replies and events in the order the venue produced them, and stops holding. */
  release(): void {
    this.hold = false;
    const xs = this.#held.splice(0);
    this.#heldReplies.clear();
    for (const f of xs) f();
  }

  /**
   * The connection drops: held events are lost, held replies fail as unknown outcomes
   * (NETWORK_ERROR), and events are dropped until `reconnect()`. Venue state is untouched.
   */
  disconnect(): void {
    this.hold = false;
    const xs = this.#held.splice(0);
    for (const f of xs) this.#heldReplies.get(f)?.();
    this.#heldReplies.clear();
    this.dropEvents = true;
  }

  /** The connection is back: events flow again (the caller emits the resync). */
  reconnect(): void {
    this.dropEvents = false;
  }

  #fail(call: FakeCall): MmError | undefined {
    return this.#failures.get(call)?.shift();
  }

  /** Makes the next `call` take effect at the venue but lose its reply (rejects with `err`, e.g. TIMEOUT). */
  loseReplyNext(call: 'place' | 'replace' | 'cancel', err: MmError): void {
    this.#lostReplies.set(call, err);
  }

  #lost<T>(call: 'place' | 'replace' | 'cancel', p: Promise<T>): Promise<T> {
    const err = this.#lostReplies.get(call);
    if (!err) return p;
    this.#lostReplies.delete(call);
    return p.then(() => Promise.reject(err));
  }

  #log(call: FakeCall, cid: ClientOrderId | null, priceTicks: number | null, qty: number | null): void {
    this.requests.push({ call, atMs: this.clock.nowMs(), clientOrderId: cid, priceTicks, qty });
  }
}
