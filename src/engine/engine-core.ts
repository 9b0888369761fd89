import { Subject } from 'rxjs';
import { MmError } from '../core/errors.ts';
import { Stage, stamp } from '../core/stage-stamps.ts';
import type { ClientOrderId, Symbol } from '../core/ids.ts';
import { sameTopLevels } from '../domain/book.ts';
import type { MarketEvent, OrderEvent } from '../domain/events.ts';
import type { QuoteLevel } from '../domain/intents.ts';
import { Executor } from '../execution/executor.ts';
import { KillSwitch, type KillSwitchTransition } from '../risk/kill-switch.ts';
import { limitsFor } from '../risk/config.ts';
import { gateQuotes, type MutableGatedQuotes, type RiskView } from '../risk/quote-gate.ts';
import type { KillSwitchReason, TradingState } from '../risk/trading-state.ts';
import { strictestState, type StateVerdict } from './effective-state.ts';
import { isDesiredQuotes, isStrategyPlan, type StrategyOutput } from '../strategy/contract.ts';
import { Accounting } from './accounting.ts';
import { UnknownFills } from './unknown-fills.ts';
import { KillSwitchInputsReader } from './kill-switch-inputs.ts';
import { CidFactory } from './cid.ts';
import { DEFAULT_FEE_RATES } from './config.ts';
import { Counters } from './counters.ts';
import type { EngineEvent, HedgeEvent, IntentKind } from './events.ts';
import { continueFlatten } from './flatten.ts';
import { watchMarketData } from './md-watch.ts';
import { OrderManager, type Lingering } from './order-manager.ts';
import { OrderRequests, type RequestEnv } from './order-requests.ts';
import { OrderStore } from './order-store.ts';
import { PositionCheck } from './position-check.ts';
import type { Failure } from './outcome.ts';
import type { ConnectionState } from './ports.ts';
import { applyPlan, checkPlan } from './plan.ts';
import { handleRawIntents } from './raw-intents.ts';
import { declaredSymbols, StrategyGroup } from './strategy-group.ts';
import { clampPostOnly, SymbolSlot, type SlotGroup } from './symbol-slot.ts';
import type { EngineDeps } from './types.ts';
import { validateEngineDeps } from './validate.ts';

const CLOSE_ONLY_BACKOFF_MS = 60_000;
const EMPTY: readonly QuoteLevel[] = Object.freeze([]);
const EMPTY_REASONS: readonly string[] = Object.freeze([]);

/**
 * The engine's synchronous core: per-symbol market state and portfolio, strategy evaluation with
 * isolation, the risk gate, the order manager and the kill switch. The RxJS wiring (create-engine.ts)
 * feeds it; every decision happens here, synchronously, so the hot path is one call deep.
 */
export class EngineCore {
  readonly events$ = new Subject<EngineEvent>();
  readonly hedges$ = new Subject<HedgeEvent>();
  readonly counters = new Counters();
  readonly slots = new Map<string, SymbolSlot>();
  /** One per configured strategy, in config order. */
  readonly groups: SlotGroup[] = [];
  readonly store = new OrderStore();
  readonly executor: Executor;
  readonly requests: OrderRequests;
  readonly om: OrderManager;
  readonly accounting: Accounting;
  readonly killSwitch: KillSwitch;
  readonly positionCheck: PositionCheck;
  readonly unknownFills: UnknownFills;
  globalState: TradingState = 'ACTIVE';
  globalReason = '';
  /** Quoting is allowed (start-up reconciliation done, not stopping). */
  ready = false;
  stopping = false;
  /** The order stream dropped: no new quotes until the resync reconciliation (and fill recovery) is done. */
  awaitingResync = false;
  /** The order stream is down and its resync has not arrived: retries and status queries wait. */
  ordersDown = false;
  readonly downSince = new Map<ConnectionState['stream'], number>();
  readonly startMs: number;
  #t0Ns: bigint | null = null;
  #evaluating: SymbolSlot | null = null;
  readonly #verdict: StateVerdict = { state: 'ACTIVE', reason: '' };
  readonly #killInputs: KillSwitchInputsReader;
  readonly #dirty = new Set<SlotGroup>();
  readonly #lingering: Lingering = { buyQty: 0, sellQty: 0, orders: 0 };
  /** The gate's result, rewritten by each #settle (read there only). */
  readonly #gated: MutableGatedQuotes = { bids: EMPTY, asks: EMPTY, reasons: EMPTY_REASONS };
  readonly #riskView: { -readonly [K in keyof RiskView]: RiskView[K] } = {
    position: 0,
    tradingState: 'ACTIVE',
    bandLowerTicks: null,
    bandUpperTicks: null,
    referenceTicks: null,
    lingeringBuyQty: 0,
    lingeringSellQty: 0,
    lingeringOrders: 0,
    usdPerTickContract: 0,
    minOrderSize: 0,
  };

  constructor(readonly deps: EngineDeps) {
    validateEngineDeps(deps);
    const { clock } = deps;
    // A live feed shows our own orders and prints (a replay's never does): strategies see the market without them.
    const feedShowsOwnOrders = (this.store.keepGhosts = deps.marketDataShowsOwnOrders ?? true);
    this.startMs = clock.nowMs();
    for (const b of deps.strategies) {
      const slots = declaredSymbols(b).map((symbol) => {
        const inst = deps.instruments.get(symbol);
        if (!inst) throw new MmError('CONFIG_INVALID', `strategy ${b.id}: unknown symbol ${symbol} (not in the instrument catalog)`, { strategy: b.id, symbol });
        const owner = this.slots.get(symbol);
        if (owner) throw new MmError('CONFIG_INVALID', `strategy ${b.id}: symbol ${symbol} already belongs to strategy ${owner.id} (one strategy per symbol)`, { strategy: b.id, symbol });
        const fees = deps.feesBySymbol?.[symbol] ?? deps.fees ?? DEFAULT_FEE_RATES;
        const slot = new SymbolSlot(b.id, symbol, b.strategy, inst, limitsFor(deps.risk, symbol), fees, feedShowsOwnOrders, deps.risk.marketData);
        this.slots.set(symbol, slot);
        return slot;
      });
      this.groups.push(new StrategyGroup<SymbolSlot>(b.id, b.strategy, slots));
    }
    this.killSwitch = new KillSwitch(deps.risk.killSwitch);
    this.executor = new Executor(deps.execution, clock, {
      admit: (job) => job.endpoint !== 'place' && job.endpoint !== 'replace' ? true : this.#admitOrder(),
      sent: () => this.#sampleLatency(),
      throttled: (job, queued) => this.emit({ type: 'throttled', endpoint: job.endpoint, queued, tsMs: clock.nowMs() }),
      coalesced: (job) => this.emit({ type: 'coalesced', endpoint: job.endpoint, clientOrderId: job.clientOrderId ?? null, tsMs: clock.nowMs() }),
      dropped: (job) => this.emit({ type: 'dropped', endpoint: job.endpoint, clientOrderId: job.clientOrderId ?? null, tsMs: clock.nowMs() }),
      backoff: (code, pauseMs) => this.emit({ type: 'backoff', code, pauseMs, tsMs: clock.nowMs() }),
    });
    const env: RequestEnv = {
      clock,
      gateway: deps.gateway,
      executor: this.executor,
      store: this.store,
      config: deps.orderManager,
      emit: (ev) => this.emit(ev),
      onReject: (symbol, kind, cid, f, benign) => this.#onReject(symbol, kind, cid, f, benign),
      onMissedFills: () => void this.recoverFills(),
      onOrderChanged: (symbol) => this.#markDirty(symbol),
      paused: () => this.ordersDown,
    };
    this.requests = new OrderRequests(env);
    this.om = new OrderManager({
      ...env,
      cids: new CidFactory(clock.nowMs()),
      requests: this.requests,
      symbols: new Set(this.slots.keys()),
      accountId: deps.accountId ?? null,
      onFill: (ev, cid) => this.accounting.onStreamFill(ev, cid),
      onUnknownFill: (ev, kind) => this.unknownFills.onFill(ev, kind),
      onRejectEvent: (symbol, cid, reason, text) =>
        this.#onReject(symbol, 'place', cid, { kind: 'rejected', code: 'ORDER_REJECTED', reason, text }, false),
    });
    this.accounting = new Accounting(this.slots, clock, deps.fees ?? DEFAULT_FEE_RATES, deps.feesBySymbol, (ev) => this.emit(ev), this.executor, deps.accounts, (slot) => {
      this.#markDirty(slot.symbol);
      this.#checkKillSwitch();
    });
    this.#killInputs = new KillSwitchInputsReader([...this.slots.values()], this.downSince, this.startMs, this.accounting);
    this.positionCheck = new PositionCheck(
      this.slots,
      clock,
      this.executor,
      deps.accounts,
      deps.orderManager.positionCheckMs,
      this.accounting,
      () => this.recoverFills(),
      () => this.ready && !this.stopping && !this.awaitingResync,
      (ev) => {
        this.emit(ev);
        this.#markDirty(ev.symbol);
        this.#checkKillSwitch();
        this.flush();
      },
    );
    this.unknownFills = new UnknownFills(clock, (ev) => this.emit(ev), this.accounting, () => this.recoverFills(), () => this.positionCheck.runNow());
  }

  /** Publishes an event and counts it. */
  emit(ev: EngineEvent): void {
    this.counters.count(ev);
    // Our fills reach the strategy at its next call (ctx.fills); live, their prints leave ctx.trades.
    if (ev.type === 'fill') this.slots.get(ev.symbol)?.noteFill(ev);
    else if (ev.type === 'hedge' && this.hedges$.observed) this.hedges$.next(ev);
    if (this.events$.observed) this.events$.next(ev);
  }

  /** Handles one market event (the hot path). */
  onMarket(ev: MarketEvent): void {
    this.counters.marketEvents++;
    if (ev.type === 'funding') {
      this.accounting.applyFunding(ev.settlement);
      return;
    }
    const slot = this.slots.get(ev.symbol);
    if (!slot) return;
    const before = slot.market.book;
    if (!slot.market.apply(ev, this.deps.clock.nowMs())) return;
    if (ev.type === 'book' && this.store.keepGhosts) this.store.clearGhosts(ev.symbol);
    // Nothing the strategy reads changed (and the touch, all the rest of the engine reads, is within it).
    if (ev.type === 'book' && slot.bookDepth !== Infinity && before !== null && sameTopLevels(before, slot.market.book!, slot.bookDepth)) return;
    if (ev.type === 'ticker') {
      const mark = slot.market.mark();
      if (mark !== null) slot.ledger.observeMark(mark);
    }
    // The latency sample only goes to events$ listeners (counters ignore it): skip the bigint
    // clock read per event when nobody listens (a backtest).
    this.#t0Ns = this.events$.observed ? this.deps.clock.nowNs() : null;
    // A trade changes nothing a strategy that reads no trades sees: called only if something else changed.
    this.evaluate(slot.group, slot, ev.type === 'trade' && slot.strategy.readsTrades === false);
    this.#t0Ns = null;
    this.flush();
  }

  /** Handles one order event. */
  onOrder(ev: OrderEvent): void {
    this.counters.orderEvents++;
    this.om.onOrderEvent(ev);
    this.flush();
  }

  /** Tracks stream connectivity (lost-connection trigger; the order stream gates sending). */
  onConnection(c: ConnectionState): void {
    if (c.connected) this.downSince.delete(c.stream);
    else {
      if (!this.downSince.has(c.stream)) this.downSince.set(c.stream, this.deps.clock.nowMs());
      if (c.stream === 'orders') {
        this.awaitingResync = true;
        this.ordersDown = true;
      }
    }
    this.#checkKillSwitch();
  }

  /** Clock tick: kill-switch conditions, fee polling, re-quoting (min-lifetime expiries, time-based strategies). */
  onTick(): void {
    this.#checkKillSwitch();
    this.accounting.maybePollFees(this.deps.orderManager.fillPollMs);
    if (this.ready && !this.awaitingResync && !this.stopping) this.positionCheck.maybeRun();
    for (const g of this.groups) this.evaluate(g, null, true);
    this.flush();
  }

  /** Evaluates dirty strategies (after fills, cancels, reconciliation, timers). */
  flush(): void {
    if (this.#evaluating !== null) return;
    for (let pass = 0; pass < 2 && this.#dirty.size > 0; pass++) {
      const xs = [...this.#dirty];
      this.#dirty.clear();
      for (const g of xs) this.evaluate(g);
    }
  }

  /** Evaluates every strategy. */
  evaluateAll(): void {
    for (const g of this.groups) this.evaluate(g);
  }

  /**
   * Runs a strategy and pushes its (risk-gated) ladders, hedges and wake-up timer to the order
   * manager; `trigger`: the symbol whose event caused the call. With `skipIfQuiet` (a tick; a trade
   * for a strategy that reads none) a stable strategy (`stableUntilMs`) whose inputs have not changed
   * is not called (it would answer the same); its ladder is still gated and diffed.
   */
  evaluate(g: SlotGroup, trigger: SymbolSlot | null = null, skipIfQuiet = false): void {
    if (!this.ready || this.stopping) return;
    const now = this.deps.clock.nowMs();
    const slots = g.slots;
    for (let i = 0; i < slots.length; i++) this.#updateState(slots[i]!, now);
    this.#evaluating = trigger ?? slots[0]!;
    try {
      if (g.failed !== null) {
        if (!this.awaitingResync) for (let i = 0; i < slots.length; i++) this.om.applyQuotes(slots[i]!.symbol, EMPTY, EMPTY, true);
        return;
      }
      let out: StrategyOutput = null;
      try {
        if (!skipIfQuiet || !g.quietAt(now, this.store)) {
          this.counters.strategyEvaluations++;
          stamp(Stage.engine);
          const s = g.strategy;
          out = s.quote(g.refresh(now, this.store));
          g.stableUntilMs = s.stableUntilMs === undefined ? -Infinity : s.stableUntilMs();
          stamp(Stage.quoted);
        }
        // A malformed plan is a bug of the strategy, isolated like a throw.
        if (out !== null && !isDesiredQuotes(out) && isStrategyPlan(out)) checkPlan(g, out);
      } catch (err) {
        this.#isolate(g, err);
        return;
      }
      if (out !== null) {
        if ('bids' in out) slots[0]!.lastDesired = out;
        else if ('quotes' in out) applyPlan(this, g, out, now);
        else {
          if (!this.awaitingResync) handleRawIntents(this, g, out.intents);
          return;
        }
      }
      for (let i = 0; i < slots.length; i++) this.#settle(slots[i]!, now);
    } finally {
      // An operator flatten follows through whatever the strategy did (even an isolated one).
      if (!this.awaitingResync) for (let i = 0; i < slots.length; i++) if (slots[i]!.flattenOrdersLeft > 0) continueFlatten(this, slots[i]!, now);
      this.#evaluating = null;
    }
  }

  /** Risk-gates a symbol's last ladder and makes its working orders match (skipped when nothing it depends on changed). */
  #settle(slot: SymbolSlot, now: number): void {
    const d = slot.lastDesired;
    if (d === null && slot.effective === 'ACTIVE') return;
    // A crossed book not suspect yet: the working orders stay as they are, no price comes from it.
    if (slot.sanity.crossedPending && slot.effective === 'ACTIVE') return;
    const bestBid = slot.market.bestBid();
    const bestAsk = slot.market.bestAsk();
    const t = slot.market.ticker;
    const bandLower = t === null ? null : t.bandLowerTicks;
    const bandUpper = t === null ? null : t.bandUpperTicks;
    const ref = slot.sanity.referenceTicks(t === null ? null : t.markTicks, slot.market.indexTicks);
    const memo = slot.settled;
    if (
      memo.matches(this.store.version, d, bestBid, bestAsk, slot.ledger.qty, slot.effective, bandLower, bandUpper, ref) &&
      (memo.lockSentMs === Infinity || this.om.deferredHolds(memo.lockSentMs))
    )
      return;
    let bids = d?.bids ?? EMPTY;
    let asks = d?.asks ?? EMPTY;
    if (this.deps.orderManager.postOnly) {
      bids = clampPostOnly(bids, true, bestAsk);
      asks = clampPostOnly(asks, false, bestBid);
    }
    // The gate writes into one reused result: read it out before anything else can run.
    const g = gateQuotes(bids, asks, this.riskView(slot), slot.limits, this.#gated);
    const gBids = g.bids;
    const gAsks = g.asks;
    const reasons = g.reasons;
    stamp(Stage.gated);
    const key = reasons.length === 0 ? '' : reasons.join(',');
    if (key !== slot.lastTrimKey) {
      slot.lastTrimKey = key;
      if (key !== '') this.emit({ type: 'quotes-trimmed', symbol: slot.symbol, reasons, tsMs: now });
    }
    // Same ladders as last time (a strategy returning its unchanged quotes): keep the object.
    const prev = slot.gated;
    if (prev === null || prev.bids !== gBids || prev.asks !== gAsks) slot.gated = { symbol: slot.symbol, bids: gBids, asks: gAsks };
    if (this.awaitingResync) return;
    if (this.om.applyQuotes(slot.symbol, gBids, gAsks, slot.effective !== 'ACTIVE')) memo.lockSentMs = Infinity;
    else if (!Number.isNaN(this.om.deferredLockSentMs)) {
      // Nothing sent only because the orders left over are locked: the same inputs give the same
      // answer until one of them comes of age or an order changes (the store version).
      memo.lockSentMs = this.om.deferredLockSentMs;
    } else {
      memo.forget();
      return;
    }
    // Read after applyQuotes: a gateway that answers synchronously (a replay exchange) may have
    // moved the store, the position or the state meanwhile.
    memo.remember(this.store.version, d, bestBid, bestAsk, slot.ledger.qty, slot.effective, bandLower, bandUpper, ref);
  }

  /** Marks a strategy for re-evaluation at the next flush (its wake-up timer fired). */
  wake(g: SlotGroup): void {
    this.#dirty.add(g);
    this.flush();
  }

  /** Cancels every strategy's wake-up timer (on stop). */
  cancelWakeTimers(): void {
    for (const g of this.groups) g.disarm();
  }

  /** Recovers fills from REST since the last known fill (minus the lookback). */
  recoverFills(): Promise<number> {
    const now = this.deps.clock.nowMs();
    const from = (this.accounting.fills.lastFillMs ?? this.startMs) - this.deps.orderManager.fillRecoveryLookbackMs;
    return this.accounting.fetchFills(from, now + 1);
  }

  /** Sets an operator trading state. */
  setTradingState(symbol: Symbol | null, state: TradingState, reason: string): void {
    const now = this.deps.clock.nowMs();
    if (symbol === null) {
      if (state !== this.globalState) this.emit({ type: 'trading-state-changed', symbol: null, from: this.globalState, to: state, reason, tsMs: now });
      this.globalState = state;
      this.globalReason = reason;
      for (const s of this.slots.values()) this.#markDirty(s.symbol);
    } else {
      const slot = this.slots.get(symbol);
      if (!slot) throw new RangeError(`setTradingState: ${symbol} is not quoted by this engine`);
      slot.operatorState = state;
      slot.operatorReason = reason;
      this.#markDirty(symbol);
    }
    this.flush();
  }

  /** Trips the kill switch. */
  trip(reason: KillSwitchReason, detail: string): void {
    this.#applyKill(this.killSwitch.trip(reason, detail, this.deps.clock.nowMs()));
  }

  /** Clears the kill switch by hand. */
  resetKillSwitch(): void {
    if (!this.killSwitch.reset(this.accounting.totalPnlUsd())) return;
    this.emit({ type: 'kill-switch-cleared', reason: 'manual-reset', tsMs: this.deps.clock.nowMs() });
    for (const s of this.slots.values()) this.#markDirty(s.symbol);
    this.flush();
  }

  /** An order is about to go: within the order-count budgets it is counted and sent; over them it is refused and the switch trips. */
  #admitOrder(): boolean {
    const { ok, transition } = this.killSwitch.admitOrder(this.deps.clock.nowMs());
    this.#applyKill(transition);
    return ok;
  }

  #checkKillSwitch(): void {
    this.#applyKill(this.killSwitch.check(this.#killInputs.read(this.deps.clock.nowMs())));
  }

  #applyKill(t: KillSwitchTransition | null): void {
    if (!t) return;
    const now = this.deps.clock.nowMs();
    if (t.kind === 'tripped') {
      this.emit({ type: 'kill-switch-tripped', reason: t.reason, detail: t.detail, action: t.action, tsMs: now });
      this.deps.log?.warn({ reason: t.reason, detail: t.detail, action: t.action }, `kill switch tripped: pulling all quotes (${t.action})`);
      this.executor.removeWhere((j) => j.endpoint === 'place' || j.endpoint === 'replace');
      for (const s of this.slots.values()) {
        this.#updateState(s, now);
        this.om.pullAll(s.symbol);
      }
    } else {
      this.emit({ type: 'kill-switch-cleared', reason: t.reason, tsMs: now });
      for (const s of this.slots.values()) this.#markDirty(s.symbol);
    }
    this.flush();
  }

  #updateState(slot: SymbolSlot, now: number): void {
    watchMarketData(slot, now, this, this.deps.log);
    const killReason = this.killSwitch.tripped ? String(this.killSwitch.state().reason) : null;
    const { state: st, reason: why } = strictestState(this.#verdict, this.globalState, this.globalReason, killReason, slot, now);
    if (st !== slot.effective) {
      this.emit({ type: 'trading-state-changed', symbol: slot.symbol, from: slot.effective, to: st, reason: why, tsMs: now });
      slot.effective = st;
    }
    slot.effectiveReason = why;
  }

  /**
   * What the risk gate needs to know about a symbol now. The returned view is reused by the next
   * call (this runs on every evaluation): read it, do not keep it.
   */
  riskView(slot: SymbolSlot): RiskView {
    const l = this.om.lingering(slot.symbol, this.#lingering);
    const t = slot.market.ticker;
    const v = this.#riskView;
    v.position = slot.ledger.qty;
    v.tradingState = slot.effective;
    v.bandLowerTicks = t?.bandLowerTicks ?? null;
    v.bandUpperTicks = t?.bandUpperTicks ?? null;
    v.referenceTicks = slot.sanity.referenceTicks(t === null ? null : t.markTicks, slot.market.indexTicks);
    v.lingeringBuyQty = l.buyQty;
    v.lingeringSellQty = l.sellQty;
    v.lingeringOrders = l.orders;
    v.usdPerTickContract = slot.usdPerTickContract;
    v.minOrderSize = slot.instrument.minOrderSize;
    return v;
  }

  #isolate(g: SlotGroup, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    g.failed = message;
    g.disarm();
    const primary = g.primary.symbol;
    this.emit({ type: 'strategy-error', strategyId: g.id, symbol: primary, message, tsMs: this.deps.clock.nowMs() });
    this.deps.log?.error({ strategy: g.id, symbols: g.symbols, err: message }, 'strategy threw: isolated, quotes pulled');
    for (const slot of g.slots) {
      slot.lastDesired = null;
      slot.gated = null;
      if (!this.awaitingResync) this.om.pullAll(slot.symbol);
    }
  }

  #onReject(symbol: Symbol | null, kind: IntentKind, cid: ClientOrderId | null, f: Failure, benign: boolean): void {
    const now = this.deps.clock.nowMs();
    const source = f.kind === 'rejected' || f.code === 'ORDER_REJECTED' ? 'venue' : 'gateway';
    this.emit({ type: 'reject', source, kind, symbol, clientOrderId: cid, reason: f.reason, text: f.text, benign, tsMs: now });
    if (f.reason === 'CLOSE_ONLY' && symbol) {
      const slot = this.slots.get(symbol);
      if (slot) slot.closeOnlyUntilMs = now + CLOSE_ONLY_BACKOFF_MS;
    }
    if (source === 'venue' && !benign) this.#applyKill(this.killSwitch.recordReject(now));
  }

  #markDirty(symbol: Symbol): void {
    // Also while the slot is being evaluated: a gateway that answers synchronously (a replay) may
    // change the position mid-evaluation; the flush afterwards re-quotes (2 passes max).
    const g = this.slots.get(symbol)?.group;
    if (g) this.#dirty.add(g);
  }

  #sampleLatency(): void {
    const t0 = this.#t0Ns;
    if (t0 === null) return;
    this.#t0Ns = null;
    const clock = this.deps.clock;
    this.emit({ type: 'tick-to-intent', symbol: this.#evaluating?.symbol ?? ('' as Symbol), us: Number(clock.nowNs() - t0) / 1000, tsMs: clock.nowMs() });
  }
}
