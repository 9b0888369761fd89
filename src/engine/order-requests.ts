import type { Clock } from '../core/clock.ts';
import type { ClientOrderId, Symbol } from '../core/ids.ts';
import type { CancelOrder, PlaceOrder, QuoteLevel, ReplaceOrder } from '../domain/intents.ts';
import type { OrderStatus } from '../domain/order.ts';
import { isOpenState, isTerminal } from '../domain/order-state.ts';
import type { ExecJob, Executor } from '../execution/executor.ts';
import type { Endpoint } from '../execution/config.ts';
import type { OrderManagerConfig } from './config.ts';
import type { EngineEvent, IntentKind } from './events.ts';
import type { OrderStore, LocalOrder } from './order-store.ts';
import { BENIGN_REJECTS, classifyFailure, type Failure } from './outcome.ts';
import type { OrderGateway } from './ports.ts';

/** Longest pause between cancel attempts on an order whose cancels keep being refused (ms). */
const MAX_CANCEL_BACKOFF_MS = 30_000;

/** What the request layer tells the engine about. */
export interface RequestEnv {
  readonly clock: Clock;
  readonly gateway: OrderGateway;
  readonly executor: Executor;
  readonly store: OrderStore;
  readonly config: OrderManagerConfig;
  emit(ev: EngineEvent): void;
  /** A venue (or gateway) reject worth counting; `benign` races are excluded from the reject storm. */
  onReject(symbol: Symbol | null, kind: IntentKind, cid: ClientOrderId | null, f: Failure, benign: boolean): void;
  /** An order finished with more filled than we saw: recover fills from REST. */
  onMissedFills(): void;
  /** An order's state changed (the engine re-evaluates the symbol). */
  onOrderChanged(symbol: Symbol): void;
  /**
   * True while the order stream is down and not yet reconciled: retries and status queries wait
   * (they would fail without reaching the venue); the resync reconciliation re-sends what is needed.
   */
  paused(): boolean;
}

/**
 * Sends place / replace / cancel / status requests for tracked orders through the executor and
 * applies their outcomes. Unknown outcomes leave the order in flight until a status answer; a 409
 * cancel is retried at the ack (or after `cancelRetryMs`).
 */
export class OrderRequests {
  constructor(private readonly env: RequestEnv) {}

  /** Queues the place of a new order (already in the store, status `queued`). */
  place(o: LocalOrder, tif: PlaceOrder['tif'] | null = null): void {
    const { env } = this;
    // The job's callbacks are object methods, not arrows: tsx (esbuild keepNames) wraps every arrow
    // held in a property in a name-setting defineProperty call, three per request on the hot path.
    const self = this;
    const c = env.config;
    const job: ExecJob = {
      endpoint: 'place',
      key: o.clientOrderId,
      clientOrderId: o.clientOrderId,
      run() {
        o.status = 'pending-new';
        o.sentMs = env.clock.nowMs();
        env.store.touch(o.symbol);
        const intent: PlaceOrder = {
          kind: 'place',
          symbol: o.symbol,
          side: o.side,
          priceTicks: o.priceTicks,
          qty: o.qty,
          tif: tif ?? c.tif,
          postOnly: o.hedge ? false : c.postOnly,
          reprice: c.reprice,
          selfTrade: c.selfTrade,
          clientOrderId: o.clientOrderId,
          tag: c.tag,
        };
        self.#sent('place', o);
        return env.gateway.place(intent);
      },
      settled(ok, value, error, latencyMs) {
        self.#result('place', o, ok, error, latencyMs);
        if (!env.store.has(o)) return;
        if (ok) {
          // Request accepted; the venue's ack (`accepted` event) makes it open. Ask if that never comes.
          env.store.setPlacedId(o, (value as { orderId: NonNullable<LocalOrder['orderId']> }).orderId);
          env.store.touch(o.symbol);
          if (o.status === 'pending-new') self.scheduleStatus(o, env.config.statusQueryDelayMs);
          return;
        }
        const f = classifyFailure(error);
        if (f.kind === 'unknown') return self.#unknown(o);
        // A place that replaces an order which filled meanwhile: the same race as a late replace.
        env.onReject(o.symbol, 'place', o.clientOrderId, f, f.reason === 'ORIGINAL_ORDER_TERMINATED');
        self.terminate(o);
      },
      dropped() {
        if (env.store.has(o) && o.status === 'queued') self.terminate(o);
      },
    };
    env.executor.submit(job);
  }

  /** Moves an open order to `level` (coalesces with a queued replace of the same order). */
  replace(o: LocalOrder, priceTicks: number, qty: number): void {
    const { env } = this;
    const self = this; // for the job's methods (see place)
    if (o.status === 'queued') {
      // Never sent: amend the queued place in place; the job reads the order when it goes out.
      o.priceTicks = priceTicks;
      o.qty = qty;
      this.#coalesced('place', o);
      return;
    }
    o.target = { priceTicks, qty };
    env.store.touch(o.symbol);
    if (o.replaceQueued) {
      this.#coalesced('replace', o);
      return;
    }
    o.replaceQueued = true;
    // The target this request carries: only its own answer may apply it (a newer replace, or the
    // venue's `replaced` event, may have moved the order on by the time the answer arrives).
    let sent: QuoteLevel | null = null;
    env.executor.submit({
      endpoint: 'replace',
      key: o.clientOrderId,
      clientOrderId: o.clientOrderId,
      run() {
        o.replaceQueued = false;
        o.status = 'pending-replace';
        o.sentMs = env.clock.nowMs();
        sent = o.target ?? { priceTicks: o.priceTicks, qty: o.qty };
        o.target = sent;
        const intent: ReplaceOrder = { kind: 'replace', symbol: o.symbol, orderId: o.orderId!, clientOrderId: o.clientOrderId, priceTicks: sent.priceTicks, qty: sent.qty };
        self.#sent('replace', o);
        return env.gateway.replace(intent);
      },
      settled(ok, value, error, latencyMs) {
        self.#result('replace', o, ok, error, latencyMs);
        const f = ok ? null : classifyFailure(error);
        if (f && f.kind === 'rejected') env.onReject(o.symbol, 'replace', o.clientOrderId, f, BENIGN_REJECTS.has(f.reason));
        if (!env.store.has(o)) return;
        const mine = sent !== null && o.target === sent;
        if (!f) {
          if (mine) {
            // Even when a cancel raced us: the order now lives under the new id, which is what a
            // cancel or status query must name.
            env.store.setOrderId(o, (value as { orderId: NonNullable<LocalOrder['orderId']> }).orderId);
            env.store.moveTo(o, sent!.priceTicks, sent!.qty);
            o.filledQty = 0;
            o.target = null;
            if (o.status === 'pending-replace') o.status = o.cancelWanted ? 'pending-cancel' : 'open';
          }
          return;
        }
        if (mine) o.target = null;
        if (f.kind === 'unknown') {
          // Which price rests is unknown: never guess, cancel it once the venue says it is alive.
          o.cancelWanted = true;
          return self.#unknown(o);
        }
        if (f.kind === 'not-sent') env.onReject(o.symbol, 'replace', o.clientOrderId, f, true);
        if (o.status === 'pending-replace') o.status = o.cancelWanted ? 'pending-cancel' : 'open';
        if (f.reason === 'ORIGINAL_ORDER_TERMINATED') {
          // The original ended while we replaced it (a fill raced us). Its terminal event is normally
          // on the way; hold the level meanwhile and ask only if the event does not come.
          if (o.status === 'open') o.status = 'unknown';
          self.scheduleStatus(o, env.config.statusQueryDelayMs);
        }
        env.store.touch(o.symbol);
        env.onOrderChanged(o.symbol);
      },
      dropped() {
        o.replaceQueued = false;
        if (o.status !== 'pending-replace') {
          o.target = null;
          env.store.touch(o.symbol);
        }
      },
    });
  }

  /** Cancels an order (removes it at once when its place never left the queue). */
  cancel(o: LocalOrder): void {
    const { env } = this;
    if (o.status === 'queued') {
      o.cancelWanted = true;
      env.executor.removeQueued(o.clientOrderId);
      this.terminate(o);
      return;
    }
    o.cancelWanted = true;
    env.store.touch(o.symbol);
    if (o.status === 'unknown') return; // resolved by the status answer, which then cancels
    this.#submitCancel(o);
  }

  #submitCancel(o: LocalOrder): void {
    const { env } = this;
    const self = this; // for the job's methods (see place)
    env.executor.submit({
      endpoint: 'cancel',
      key: o.clientOrderId,
      clientOrderId: o.clientOrderId,
      run() {
        o.status = 'pending-cancel';
        env.store.touch(o.symbol);
        const intent: CancelOrder = { kind: 'cancel', symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId };
        self.#sent('cancel', o);
        return env.gateway.cancel(intent);
      },
      settled(ok, value, error, latencyMs) {
        self.#result('cancel', o, ok, error, latencyMs);
        if (!env.store.has(o)) return;
        if (ok) {
          // Confirmation comes as a `canceled` event; ask if it does not.
          self.scheduleStatus(o, (value as { accepted: boolean }).accepted ? env.config.statusQueryDelayMs : 0);
          return;
        }
        const f = classifyFailure(error);
        if (f.kind === 'not-acked') {
          o.cancelAfterAck = true;
          if (o.acked) self.#submitCancel(o);
          else self.#retryLater(o);
          return;
        }
        if (f.kind === 'not-sent') return self.#retryLater(o);
        if (f.kind === 'unknown') return self.#unknown(o);
        env.onReject(o.symbol, 'cancel', o.clientOrderId, f, true);
        // Usually the order just ended (filled) and the status answer says so at once. If it is
        // still open (e.g. a frozen instrument refuses cancels), back off before trying again.
        const delay = o.cancelRejects === 0 ? 0 : Math.min(MAX_CANCEL_BACKOFF_MS, env.config.statusQueryDelayMs * 2 ** (o.cancelRejects - 1));
        o.cancelRejects++;
        self.scheduleStatus(o, delay);
      },
      dropped(reason) {
        if (reason === 'queue-full' && env.store.has(o)) self.#retryLater(o);
      },
    });
  }

  /** Cancels every order of a symbol with one request (kill switch, halt, stop). */
  cancelAll(symbol: Symbol, orders: readonly LocalOrder[]): void {
    const { env } = this;
    for (const o of orders) {
      if (o.status === 'queued') {
        this.cancel(o); // never sent: dropped from the queue and forgotten, nothing to cancel at the venue
        continue;
      }
      o.cancelWanted = true;
      env.executor.removeQueued(o.clientOrderId);
      o.replaceQueued = false;
      if (o.status !== 'unknown') o.status = 'pending-cancel';
    }
    env.store.touch(symbol);
    env.executor.submit({
      endpoint: 'cancel-all',
      key: `cancel-all:${symbol}`,
      run: () => {
        env.emit({ type: 'intent-sent', kind: 'cancel-all', symbol, clientOrderId: null, tsMs: env.clock.nowMs() });
        return env.gateway.cancelAll(symbol);
      },
      settled: (ok, _v, error, latencyMs) => {
        const f = ok ? null : classifyFailure(error);
        env.emit({ type: 'intent-result', kind: 'cancel-all', symbol, clientOrderId: null, ok, code: f?.code ?? null, unknown: f?.kind === 'unknown', latencyMs, tsMs: env.clock.nowMs() });
        // Whatever the answer, make sure each order is confirmed gone.
        for (const o of env.store.forSymbol(symbol)) if (o.cancelWanted && o.status !== 'queued') this.scheduleStatus(o, ok ? env.config.statusQueryDelayMs : 0);
      },
      dropped: () => {
        for (const o of env.store.forSymbol(symbol)) if (o.cancelWanted) this.#submitCancel(o);
      },
    });
  }

  /** Asks the venue for the order's status after `delayMs` (once; re-arming is a no-op). */
  scheduleStatus(o: LocalOrder, delayMs: number): void {
    const { env } = this;
    if (o.statusTimer || env.executor.closed) return;
    o.statusTimer = env.clock.setTimer(delayMs, () => {
      o.statusTimer = null;
      if (!env.store.has(o) || (o.status === 'open' && !o.cancelWanted)) return;
      if (env.paused()) return this.scheduleStatus(o, env.config.statusQueryDelayMs); // ask once we are back
      env.executor.submit({
        endpoint: 'status',
        key: `status:${o.clientOrderId}`,
        run: () => env.gateway.status(o.orderId && !o.byCidOnly ? { orderId: o.orderId, clientOrderId: o.clientOrderId } : { clientOrderId: o.clientOrderId }),
        settled: (ok, value, error) => {
          if (!env.store.has(o)) return;
          if (ok) return this.resolve(o, value as OrderStatus | null);
          const f = classifyFailure(error);
          if (f.kind === 'rejected' && f.code === 'NOT_FOUND') return this.resolve(o, null);
          this.scheduleStatus(o, env.config.statusQueryDelayMs);
        },
        dropped: () => this.scheduleStatus(o, env.config.statusQueryDelayMs),
      });
    });
  }

  /** Applies the venue's status answer (null = the venue does not know the order). */
  resolve(o: LocalOrder, st: OrderStatus | null): void {
    const { env } = this;
    const emitResolved = (state: string): void =>
      env.emit({ type: 'order-resolved', symbol: o.symbol, clientOrderId: o.clientOrderId, state, tsMs: env.clock.nowMs() });
    if (st === null) {
      emitResolved('NOT_FOUND');
      this.terminate(o);
      return;
    }
    if (st.state === 'REPLACED' && !o.byCidOnly) {
      // That id was replaced: the order lives on under a new id with the same cid. Ask by cid.
      o.byCidOnly = true;
      this.scheduleStatus(o, 0);
      return;
    }
    o.byCidOnly = false;
    if (isTerminal(st.state)) {
      if (st.filledQty > o.filledQty) env.onMissedFills();
      emitResolved(st.state);
      this.terminate(o);
      return;
    }
    env.store.setOrderId(o, st.orderId);
    o.qty = st.remainingQty;
    o.filledQty = st.filledQty;
    if (isOpenState(st.state)) {
      o.acked = true;
      if (o.status === 'unknown' || o.status === 'pending-new') o.status = 'open';
      if (o.cancelWanted) this.#submitCancel(o);
    } else {
      this.scheduleStatus(o, env.config.statusQueryDelayMs);
    }
    emitResolved(st.state);
    env.store.touch(o.symbol);
  }

  /** The ack arrived: a cancel that got 409 goes out now. */
  afterAck(o: LocalOrder): void {
    if (!o.cancelAfterAck) return;
    o.cancelAfterAck = false;
    o.retryTimer?.();
    o.retryTimer = null;
    this.#submitCancel(o);
  }

  /** Forgets an order that reached a terminal state. */
  terminate(o: LocalOrder): void {
    const { env } = this;
    if (!env.store.has(o)) return;
    env.executor.removeQueued(o.clientOrderId);
    env.store.remove(o);
    env.onOrderChanged(o.symbol);
  }

  #retryLater(o: LocalOrder): void {
    const { env } = this;
    if (o.retryTimer || env.executor.closed) return;
    o.retryTimer = env.clock.setTimer(env.config.cancelRetryMs, () => {
      o.retryTimer = null;
      if (!env.store.has(o)) return;
      if (env.paused()) return this.#retryLater(o);
      o.cancelAfterAck = false;
      this.#submitCancel(o);
    });
  }

  #unknown(o: LocalOrder): void {
    this.env.store.touch(o.symbol);
    o.status = 'unknown';
    this.scheduleStatus(o, this.env.config.statusQueryDelayMs);
  }

  #sent(kind: IntentKind, o: LocalOrder): void {
    this.env.emit({ type: 'intent-sent', kind, symbol: o.symbol, clientOrderId: o.clientOrderId, tsMs: this.env.clock.nowMs() });
  }

  #result(kind: IntentKind, o: LocalOrder, ok: boolean, error: unknown, latencyMs: number): void {
    const f = ok ? null : classifyFailure(error);
    this.env.emit({
      type: 'intent-result',
      kind,
      symbol: o.symbol,
      clientOrderId: o.clientOrderId,
      ok,
      code: f?.code ?? null,
      unknown: f?.kind === 'unknown',
      latencyMs,
      tsMs: this.env.clock.nowMs(),
    });
  }

  #coalesced(endpoint: Endpoint, o: LocalOrder): void {
    this.env.emit({ type: 'coalesced', endpoint, clientOrderId: o.clientOrderId, tsMs: this.env.clock.nowMs() });
  }
}
