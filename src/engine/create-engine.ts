import { interval, Subscription } from 'rxjs';
import { MmError } from '../core/errors.ts';
import type { Symbol } from '../core/ids.ts';
import type { ReadEndpoint } from '../execution/config.ts';
import type { Order } from '../domain/order.ts';
import { isCancelable } from '../domain/order-state.ts';
import type { TradingState } from '../risk/trading-state.ts';
import type { RiskConfig } from '../risk/config.ts';
import type { Strategy } from '../strategy/contract.ts';
import { EngineCore } from './engine-core.ts';
import { cancelEverything, flattenSymbol, pauseStrategy, replaceRisk, replaceStrategy, resumeStrategy } from './operator.ts';
import type { EngineInputs } from './ports.ts';
import { sumBreakdowns } from './position-ledger.ts';
import type { EngineDeps, OperableEngine, EngineSnapshot, StopOptions, StopReport, SymbolSnapshot } from './types.ts';

const DEFAULT_STOP_TIMEOUT_MS = 5_000;
const STOP_POLL_MS = 100;
/** After the order stream reconnects, wait this long for `resync$` before querying open orders ourselves. */
const RESYNC_FALLBACK_MS = 5_000;
/** At stop, how long to wait for the venue's fees of fills still carrying an estimate. */
const FINAL_FEE_SETTLE_MS = 2_000;

/**
 * Builds an engine. Inputs (market, orders, resync, connection, funding, rewards) are subscribed in
 * `start`; clock ticks come from `interval(tickIntervalMs, deps.scheduler)`, so a VirtualClock +
 * clockScheduler drives everything deterministically in tests and backtests.
 * @throws MmError CONFIG_INVALID when a strategy's symbol is unknown or quoted twice, or a config
 * value is unusable (the message names the field).
 */
export function createEngine(deps: EngineDeps): OperableEngine {
  const core = new EngineCore(deps);
  const subs = new Subscription();
  let started = false;
  let stopPromise: Promise<StopReport> | null = null;
  const { clock } = deps;

  const reconcile = (venue: readonly Order[], trigger: 'start' | 'resync'): Promise<void> => {
    const counts = core.om.reconcile(venue, deps.orderManager.unknownOrders);
    const recovering = trigger === 'resync' ? core.recoverFills() : Promise.resolve(0);
    return recovering.then((recoveredFills) => {
      core.emit({ type: 'reconciled', trigger, ...counts, recoveredFills, tsMs: clock.nowMs() });
      const alreadyInPosition = core.accounting.fillsInSeededPosition;
      deps.log?.info({ trigger, ...counts, recoveredFills, alreadyInPosition }, 'reconciled with the venue');
    });
  };

  /** One venue read through the executor: its budget, read priority, coalesced by `key`. */
  const read = <T>(endpoint: ReadEndpoint, key: string | null, run: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      core.executor.submit({
        endpoint,
        key: key === null ? null : `read:${key}`,
        run,
        settled: (ok, v, e) => (ok ? resolve(v as T) : reject(e)),
        dropped: (why) => reject(new MmError('RATE_LIMITED', `${endpoint} read ${why === 'coalesced' ? 'superseded by a newer one' : `dropped (${why})`}`, { endpoint, dropped: why })),
      });
    });

  const openOrders = (): Promise<readonly Order[]> =>
    new Promise((resolve, reject) => {
      core.executor.submit({
        endpoint: 'open-orders',
        key: 'open-orders',
        run: () => deps.gateway.openOrders(),
        settled: (ok, v, e) => (ok ? resolve(v as readonly Order[]) : reject(e)),
        dropped: () => reject(new Error('open-orders request dropped')),
      });
    });

  const startup = (): void => {
    // No quoting on an assumed position: every risk limit and the PnL start from it, and fills of an
    // earlier session could not be told from new ones. A failed read retries the whole start-up.
    const accounts = deps.accounts;
    const positions = accounts
      ? read('positions', 'start-positions', () => accounts.positions()).catch((err: unknown) => {
          throw new Error(`start-up positions unavailable: ${err instanceof Error ? err.message : String(err)}`);
        })
      : Promise.resolve(null);
    Promise.all([openOrders(), positions])
      .then(async ([venue, pos]) => {
        if (core.stopping) return;
        // The venue's positions are the truth: fills up to their last fill are in them (never
        // booked again, whichever session placed the order); fills held until now are booked or skipped.
        core.accounting.seedFromVenue(pos);
        if (pos) {
          const seeded = Object.fromEntries([...core.slots.values()].map((s) => [s.symbol, { qty: s.ledger.qty, avgPrice: s.ledger.avgPrice?.toFixed() ?? null, lastFillMs: pos.get(s.symbol)?.lastFillMs ?? null }]));
          deps.log?.info({ positions: seeded }, 'start-up: positions taken from the venue (fills up to their last fill are in them)');
        }
        await reconcile(venue, 'start');
        core.ready = true;
        core.evaluateAll();
        core.flush();
      })
      .catch((err: unknown) => {
        deps.log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'start-up reconciliation failed; retrying');
        if (!core.stopping) clock.setTimer(deps.orderManager.statusQueryDelayMs, startup);
      });
  };

  /** Reconciles from our own open-orders query when a reconnect brings no resync in time. */
  let resyncFallback: (() => void) | null = null;
  const armResyncFallback = (): void => {
    resyncFallback?.();
    resyncFallback = clock.setTimer(RESYNC_FALLBACK_MS, () => {
      resyncFallback = null;
      if (!core.awaitingResync || core.stopping || core.downSince.has('orders')) return;
      openOrders()
        .then((venue) => runResync(venue))
        .catch(() => armResyncFallback());
    });
  };
  const runResync = (venue: readonly Order[]): void => {
    core.awaitingResync = true;
    core.ordersDown = false;
    let done: Promise<void>;
    try {
      done = reconcile(venue, 'resync');
    } catch (err) {
      done = Promise.reject(err);
    }
    // A failed reconciliation must not become an unhandled rejection (the daemon would stop): keep
    // quoting paused (awaitingResync) and reconcile again from our own open-orders query.
    done
      .then(() => {
        core.awaitingResync = false;
        core.evaluateAll();
        core.flush();
      })
      .catch((err: unknown) => {
        deps.log?.error({ err: err instanceof Error ? err.message : String(err) }, 'resync reconciliation failed; querying open orders again');
        if (!core.stopping) armResyncFallback();
      });
  };

  const start = (inputs: EngineInputs): void => {
    if (started) throw new RangeError('engine already started');
    started = true;
    // An input stream that errors is a broken feed: pull everything and say which one (latched).
    const failed = (name: string) => (err: unknown): void => {
      const msg = err instanceof Error ? err.message : String(err);
      deps.log?.error({ input: name, err: msg }, 'engine input failed');
      core.trip('manual', `input ${name} failed: ${msg}`);
    };
    subs.add(inputs.market$.subscribe({ next: (ev) => core.onMarket(ev), error: failed('market$') }));
    subs.add(inputs.orders$.subscribe({ next: (ev) => core.onOrder(ev), error: failed('orders$') }));
    subs.add(
      inputs.connection$.subscribe({
        next: (c) => {
          core.onConnection(c);
          if (c.stream === 'orders' && c.connected && core.awaitingResync) armResyncFallback();
        },
        error: failed('connection$'),
      }),
    );
    subs.add(inputs.resync$.subscribe({ next: (venue) => runResync(venue), error: failed('resync$') }));
    if (inputs.funding$) subs.add(inputs.funding$.subscribe({ next: (f) => core.accounting.applyFunding(f), error: failed('funding$') }));
    if (inputs.fundingPayments$) subs.add(inputs.fundingPayments$.subscribe({ next: (p) => core.accounting.applyFundingPayment(p), error: failed('fundingPayments$') }));
    if (inputs.rewards$)
      subs.add(
        inputs.rewards$.subscribe({
          next: (r) => {
            const slot = core.slots.get(r.symbol);
            if (!slot) return;
            if (r.view) slot.rewardView = r.view;
            if (r.accruedUsd) slot.ledger.rewards = r.accruedUsd;
          },
          error: failed('rewards$'),
        }),
      );
    subs.add(interval(deps.orderManager.tickIntervalMs, deps.scheduler).subscribe(() => core.onTick()));
    startup();
  };

  const sleep = (ms: number): Promise<void> => new Promise((r) => clock.setTimer(ms, r));

  const stop = (opts: StopOptions = {}): Promise<StopReport> => {
    stopPromise ??= (async () => {
      const t0 = clock.nowMs();
      const deadline = t0 + (opts.timeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
      deps.log?.info({ reason: opts.reason ?? 'stop' }, 'engine stopping: cancelling all orders');
      core.stopping = true;
      core.cancelWakeTimers();
      core.executor.removeWhere((j) => j.endpoint === 'place' || j.endpoint === 'replace' || j.endpoint === 'fills');
      let cancelRequested = core.store.all().filter((o) => o.status !== 'queued').length;
      for (const s of core.slots.values()) core.om.pullAll(s.symbol);
      let venueLeft: readonly Order[] = [];
      let confirmed = false;
      const ours = (o: Order): boolean => core.slots.has(o.symbol) && isCancelable(o.state);
      while (started && clock.nowMs() < deadline) {
        if (core.store.size === 0) {
          try {
            venueLeft = (await openOrders()).filter(ours);
          } catch {
            venueLeft = [];
            await sleep(STOP_POLL_MS);
            continue;
          }
          if (venueLeft.length === 0) {
            confirmed = true;
            break;
          }
          cancelRequested += core.om.reconcile(venueLeft, 'cancel').cancelled;
          for (const o of core.store.all()) core.requests.cancel(o);
        }
        await sleep(STOP_POLL_MS);
      }
      if (!started) confirmed = true;
      // The final PnL must be the venue's: settle fees still estimated (REST fills) before reporting.
      if (core.accounting.fills.estimatedCount > 0) {
        const from = (core.accounting.fills.oldestEstimatedMs() ?? clock.nowMs()) - 1_000;
        await Promise.race([core.accounting.fetchFills(from, clock.nowMs() + 1), sleep(FINAL_FEE_SETTLE_MS)]);
      }
      const remaining = [
        ...core.store.all().map((o) => ({ symbol: o.symbol, clientOrderId: o.clientOrderId, orderId: o.orderId })),
        ...(confirmed ? [] : venueLeft.filter((v) => !core.store.find(v.clientOrderId, v.orderId)).map((v) => ({ symbol: v.symbol, clientOrderId: v.clientOrderId, orderId: v.orderId }))),
      ];
      subs.unsubscribe();
      resyncFallback?.();
      core.executor.close();
      core.events$.complete();
      core.hedges$.complete();
      return { cancelRequested, confirmed: confirmed && core.store.size === 0, remaining, durationMs: clock.nowMs() - t0 };
    })();
    return stopPromise;
  };

  const snapshot = (): EngineSnapshot => {
    const symbols: SymbolSnapshot[] = [];
    for (const s of core.slots.values()) {
      const mark = s.market.mark();
      symbols.push({
        symbol: s.symbol,
        strategyId: s.id,
        desired: s.gated,
        working: core.store.view(s.symbol).map((o) => ({
          clientOrderId: o.clientOrderId,
          orderId: o.orderId,
          symbol: o.symbol,
          side: o.side,
          priceTicks: o.priceTicks,
          qty: o.qty,
          filledQty: o.filledQty,
          status: o.status,
          adopted: o.adopted,
          createdMs: o.createdMs,
        })),
        position: { qty: s.ledger.qty, avgPrice: s.ledger.avgPrice, costBasis: s.ledger.costBasis(), markTicks: mark },
        maxPosition: s.limits.maxPosition,
        pnl: s.ledger.breakdown(mark),
        tradingState: s.effective,
        tradingReason: s.effectiveReason,
        marketDataSuspect: s.sanity.kind,
        instrumentState: s.market.ticker?.state ?? null,
        strategyError: s.failed,
        lastMarketDataMs: s.market.lastEventMs,
        bestBidTicks: s.market.bestBid(),
        bestAskTicks: s.market.bestAsk(),
      });
    }
    const ks = core.killSwitch.state();
    return {
      nowMs: clock.nowMs(),
      running: started && !core.stopping,
      tradingState: ks.tripped ? 'HALTED' : core.globalState,
      killSwitch: ks,
      orderBudget: core.killSwitch.orderCounts(clock.nowMs()),
      symbols,
      pnl: sumBreakdowns(symbols.map((x) => x.pnl)),
      counters: core.counters.snapshot(),
      execution: { queued: core.executor.queued, inFlight: core.executor.inFlight, slowedDown: core.executor.slowedDown, budgets: core.executor.budgets() },
    };
  };

  return {
    start,
    stop,
    snapshot,
    events$: core.events$.asObservable(),
    hedges$: core.hedges$.asObservable(),
    setTradingState: (symbol: Symbol | null, state: TradingState, reason: string) => core.setTradingState(symbol, state, reason),
    tripKillSwitch: (detail: string) => core.trip('manual', detail),
    resetKillSwitch: () => core.resetKillSwitch(),
    pauseStrategy: (id: string) => pauseStrategy(core, id),
    resumeStrategy: (id: string) => resumeStrategy(core, id),
    replaceStrategy: (id: string, strategy: Strategy) => replaceStrategy(core, id, strategy),
    replaceRisk: (risk: RiskConfig) => replaceRisk(core, risk),
    flatten: (symbol: Symbol) => flattenSymbol(core, symbol),
    cancelAll: () => cancelEverything(core),
    read,
    operatorStates: () =>
      core.groups.map((g) => ({ id: g.id, symbols: g.symbols, operatorState: g.primary.operatorState, operatorReason: g.primary.operatorReason, failed: g.failed })),
  };
}
