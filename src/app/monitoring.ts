import { EMPTY, type Observable, type Subscription } from 'rxjs';
import { Registry } from 'prom-client';
import { LiveClock, type Clock } from '../core/clock.ts';
import type { Book } from '../domain/book.ts';
import type { BookUpdated, OrderEvent, TickerUpdated } from '../domain/events.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import { DEFAULT_REWARD_SCORE_PARAMS } from '../domain/reward-score.ts';
import type { Engine, RewardUpdate } from '../engine/index.ts';
import { AfterHotPath } from '../obs/after-hot-path.ts';
import { isLoopbackHost } from '../obs/host-check.ts';
import { startHealthServer, type HealthServer, type HttpRoutes } from '../obs/health-server.ts';
import { createBotMetrics, type BotMetrics } from '../obs/metrics.ts';
import { registerProcessMetrics } from '../obs/process-metrics.ts';
import { ReadinessTracker, type Readiness } from '../obs/readiness.ts';
import { createRewardMetrics } from '../obs/reward-metrics.ts';
import { clientRewardSource, type RewardRestPort } from '../rewards/rest-source.ts';
import { RewardScoreEstimator, type ScoreEstimatorOptions } from '../rewards/score-estimator.ts';
import { RewardTracker } from '../rewards/tracker.ts';
import { engineEventToMetrics, frameDeltas, snapshotToMetrics } from './monitoring-engine.ts';
import { startRewardMonitoring, type RewardMonitoring } from './monitoring-rewards.ts';
import { startMarkoutMonitoring, type MarkoutMonitoring } from './monitoring-markouts.ts';
import { bearerReadGuard, readsNeedToken } from './control/auth.ts';
import { NoQuoteWatch } from './no-quote-watch.ts';

/** A stream connection as the clients publish it. */
interface ConnectionLike {
  readonly stream: string;
  readonly connected: boolean;
}

/** The parts of the order-entry client monitoring reads (OrderWsClient fits). */
export interface MonitoredOrderClient {
  readonly connection$: Observable<ConnectionLike>;
  /** Our order events (venue timestamps give the reward estimator exact rest times). */
  readonly events$?: Observable<OrderEvent>;
  readonly stats?: { readonly framesIn: number; readonly malformed: number };
  /** Completed make-before-break session rollovers (OrderWsClient.rollovers). */
  readonly rollovers?: { readonly done: number };
}

/** The parts of the market-data client monitoring reads (MarketDataWsClient fits). */
export interface MonitoredMdClient {
  readonly connection$: Observable<ConnectionLike>;
  readonly books$: Observable<BookUpdated>;
  readonly tickers$?: Observable<TickerUpdated>;
  readonly stale$?: Observable<{ readonly symbol: string; readonly stale: boolean }>;
  readonly stats?: { readonly framesIn: number; readonly decodeErrors: number };
  book?(symbol: string): Book | undefined;
}

/** The parts of the REST client monitoring reads (RestClient fits). */
export interface MonitoredRestClient extends RewardRestPort {
  readonly instruments?: InstrumentCatalog;
}

/** The config sections monitoring reads (BotConfig fits). */
export interface MonitoringConfig {
  readonly monitoring: {
    readonly enabled: boolean;
    readonly host: string;
    readonly port: number;
    readonly allowed_hosts?: readonly string[];
    /** The read rule for /metrics when no console routes are given (absent: open on loopback). */
    readonly control?: { readonly token: string; readonly reads_require_token: boolean };
  };
  readonly rewards: { readonly enabled: boolean; readonly poll_interval_ms: number };
  readonly bot: { readonly strategies: readonly { readonly symbol: string; readonly symbols?: readonly string[] }[] };
}

/** A pino-compatible logger subset. */
export interface MonitoringLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * The venue's reward model, when known (embedded venue config, or the operator's config): the
 * estimator's options (absent params = the defaults; `othersAs` defaults to queue-position here,
 * which equals one-account on L2 books), plus how monitoring samples it.
 */
export interface RewardModel extends Partial<Pick<ScoreEstimatorOptions, 'params' | 'bonusWeight' | 'othersAs'>> {
  /** Epoch length; absent = learnt from the venue's accruals (default one day until then). */
  readonly epochMs?: number;
  /** The venue's clock when it differs from ours (the embedded venue with clock_speed != 1). */
  readonly venueClock?: Clock;
  /** Sample each venue minute this long after it (venue ms, default 2000), scoring the book as of the minute. */
  readonly sampleLagMs?: number;
}

/** What `mmbot run` passes to `startMonitoring`. */
export interface MonitoringDeps {
  readonly config: MonitoringConfig;
  readonly engine: Pick<Engine, 'events$' | 'snapshot'>;
  readonly clients: { readonly orders?: MonitoredOrderClient; readonly md?: MonitoredMdClient; readonly rest?: MonitoredRestClient };
  /** A running tracker to reuse; undefined = build one over `clients.rest` when `rewards.enabled`; null = none. */
  readonly rewardTracker?: RewardTracker | null;
  readonly log: MonitoringLog;
  /** The engine's clock (default the wall clock). */
  readonly clock?: Clock;
  /** Instruments (default `clients.rest.instruments`). */
  readonly instruments?: InstrumentCatalog;
  readonly rewardModel?: RewardModel;
  /** Extra routes on the same server (the operator console), built once the registry exists. */
  readonly routes?: (ctx: { readonly registry: Registry; readonly markouts: MarkoutMonitoring | null; readonly noQuotes: NoQuoteWatch }) => HttpRoutes;
}

/** Running monitoring: metrics registry, health server, reward tracker and estimator. */
export interface Monitoring {
  /** `http://host:port` of /metrics, /healthz, /readyz; null when `monitoring.enabled` is false. */
  readonly url: string | null;
  readonly registry: Registry;
  readonly metrics: BotMetrics;
  readonly tracker: RewardTracker | null;
  readonly estimator: RewardScoreEstimator;
  /** Feed this to `EngineInputs.rewards$`: the strategies' RewardView and accrued rewards for PnL. */
  readonly rewards$: Observable<RewardUpdate>;
  /** What /readyz answers now. */
  readiness(): Readiness;
  /** Copies the engine snapshot and client counters into the gauges (done before every scrape). */
  sync(): void;
  /** Stops timers and subscriptions, closes the server. Idempotent. */
  stop(): Promise<void>;
  /** Alias of stop (closer-friendly). */
  close(): Promise<void>;
}

/**
 * Wires metrics, readiness, the health server and reward tracking to a running engine and its
 * clients. One call from the daemon:
 * `const mon = await startMonitoring({ config, engine, clients: { orders, md, rest }, log })`,
 * then `inputs.rewards$ = mon.rewards$` and `await mon.stop()` on shutdown.
 * @throws the listen error (e.g. EADDRINUSE on monitoring.port).
 */
export async function startMonitoring(deps: MonitoringDeps): Promise<Monitoring> {
  const { config, engine, clients, log } = deps;
  const clock = deps.clock ?? new LiveClock();
  const registry = new Registry();
  const metrics = createBotMetrics(registry, { clock });
  const proc = registerProcessMetrics(registry);
  const rewardMetrics = createRewardMetrics(registry);
  const symbols = [...new Set(config.bot.strategies.flatMap((s) => s.symbols ?? [s.symbol]))];
  const readiness = new ReadinessTracker({ symbols, streams: [...(clients.orders ? ['orders'] : []), ...(clients.md ? ['market-data'] : [])] });
  const subs: Subscription[] = [];
  let instruments = deps.instruments ?? null;
  const catalog = (): InstrumentCatalog | null => {
    if (instruments) return instruments;
    try {
      instruments = clients.rest?.instruments ?? null;
    } catch {
      instruments = null; // RestClient throws before loadInstruments()
    }
    return instruments;
  };

  // The estimator sees every book update (to age other makers' orders) and samples each venue minute.
  const model = deps.rewardModel ?? {};
  const rewardClock = model.venueClock ?? clock;
  const estimator = new RewardScoreEstimator({
    params: model.params ?? DEFAULT_REWARD_SCORE_PARAMS,
    othersAs: model.othersAs ?? 'queue-position',
    ...(model.epochMs !== undefined ? { epochMs: model.epochMs } : {}),
    ...(model.bonusWeight ? { bonusWeight: model.bonusWeight } : {}),
  });
  const onConnection = (c: ConnectionLike): void => {
    metrics.connection(c.stream, c.connected);
    readiness.connection(c.stream, c.connected);
    if (c.stream === 'market-data' && !c.connected) for (const s of symbols) estimator.resetBook(s);
  };
  // Every watcher of the hot streams runs after the engine has answered the frame (sent its orders),
  // in the order the values came: monitoring subscribes before the engine, so it would run first.
  const later = new AfterHotPath();
  const events$ = later.defer(engine.events$);
  const books$ = clients.md ? later.defer(clients.md.books$) : null;
  if (clients.orders) subs.push(clients.orders.connection$.subscribe(onConnection));
  if (clients.md && books$) {
    const md = clients.md;
    subs.push(md.connection$.subscribe(onConnection));
    subs.push(
      books$.subscribe((b) => {
        metrics.marketData(b.symbol, b.tsRecv);
        readiness.book(b.symbol, b.tsRecv);
        estimator.observeBook(b.symbol, b, b.tsEvent);
      }),
    );
    if (md.stale$) subs.push(md.stale$.subscribe((s) => readiness.bookStale(s.symbol, s.stale)));
    if (md.tickers$) subs.push(later.defer(md.tickers$).subscribe((t) => t.funding?.rate && metrics.fundingRate(t.symbol, t.funding.rate.toNumber())));
  }
  subs.push(events$.subscribe((e) => engineEventToMetrics(e, metrics, readiness)));
  const markouts: MarkoutMonitoring | null = books$ ? startMarkoutMonitoring({ books$, events$, metrics }) : null;

  let tracker = deps.rewardTracker ?? null;
  let ownTracker = false;
  if (deps.rewardTracker === undefined && config.rewards.enabled && clients.rest) {
    tracker = new RewardTracker({
      source: clientRewardSource(clients.rest),
      clock,
      pollIntervalMs: config.rewards.poll_interval_ms,
      onError: (err, nextDelayMs) => log.warn({ code: err.code, err: err.message, nextDelayMs }, 'reward accruals poll failed'),
    });
    ownTracker = true;
  }
  if (tracker) subs.push(tracker.state$.subscribe((s) => s && rewardMetrics.poll(true, s.fetchedMs)));
  let lastFailures = 0;
  const trackPollErrors = (): void => {
    const f = tracker?.failures ?? 0;
    if (f > lastFailures) for (let i = lastFailures; i < f; i++) rewardMetrics.poll(false, clock.nowMs());
    lastFailures = f;
  };
  const rewardMon: RewardMonitoring | null = config.rewards.enabled
    ? startRewardMonitoring({
        engine: { events$, snapshot: () => engine.snapshot() },
        tracker,
        estimator,
        metrics: rewardMetrics,
        instruments: catalog(),
        symbols,
        venueClock: rewardClock,
        engineClock: clock,
        ...(clients.orders?.events$ ? { orderEvents$: clients.orders.events$ } : {}),
        learnEpoch: model.epochMs === undefined,
        sampleLagMs: model.sampleLagMs ?? 2_000,
        onError: (msg, e) => log.warn({ err: e instanceof Error ? e.message : String(e) }, msg),
      })
    : null;
  if (ownTracker) tracker!.start();

  // One watch for the metric and the console (routes ctx): both show the same "no quotes since".
  const noQuotes = new NoQuoteWatch();
  const orderFrames = frameDeltas('orders', metrics);
  const mdFrames = frameDeltas('market-data', metrics);
  let rolloversSeen = 0;
  const ready = (): Readiness => {
    const r = readiness.check(clock.nowMs());
    metrics.ready(r.ready);
    return r;
  };
  const sync = (): Readiness => {
    later.flushNow();
    const snap = engine.snapshot();
    snapshotToMetrics(snap, metrics, readiness, catalog());
    noQuotes.observe(snap);
    for (const s of snap.symbols) metrics.noQuotes(s.symbol, noQuotes.forMs(s.symbol, snap.nowMs) / 1000);
    markouts?.advance(clock.nowMs());
    const o = clients.orders?.stats;
    if (o) orderFrames(o.framesIn, o.malformed);
    const rolled = clients.orders?.rollovers?.done ?? 0;
    for (; rolloversSeen < rolled; rolloversSeen++) metrics.sessionRollover('orders');
    const m = clients.md?.stats;
    if (m) mdFrames(m.framesIn, m.decodeErrors);
    trackPollErrors();
    return ready();
  };

  const check = (): Readiness => {
    try {
      return sync();
    } catch (e) {
      log.warn({ err: e instanceof Error ? e.message : String(e) }, 'monitoring sync failed');
      return ready();
    }
  };

  let server: HealthServer | null = null;
  if (config.monitoring.enabled) {
    // Without the console, /metrics still follows the read rule (reads_require_token, or off loopback).
    const ctl = config.monitoring.control ?? { token: '', reads_require_token: false };
    const routes: HttpRoutes | undefined =
      deps.routes?.({ registry, markouts, noQuotes }) ??
      (readsNeedToken(ctl.reads_require_token, config.monitoring.host) ? { handle: () => Promise.resolve(false), authorizeRead: bearerReadGuard(ctl.token) } : undefined);
    const { host, allowed_hosts: allowedHosts = [] } = config.monitoring;
    if (!isLoopbackHost(host))
      log.warn(
        { host },
        `monitoring.host ${host} is not a loopback address: /metrics and the console are reachable from the network (console reads and /metrics need the control token; put a TLS proxy or firewall in front, see docs/security.md)`,
      );
    server = await startHealthServer({ host, port: config.monitoring.port, registry, readiness: check, beforeMetrics: () => void sync(), allowedHosts, ...(routes ? { routes } : {}) });
    log.info({ url: server.url }, 'metrics and health endpoints up');
  }

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      subs.forEach((s) => s.unsubscribe());
      markouts?.stop();
      rewardMon?.stop();
      if (ownTracker) tracker?.stop();
      proc.stop();
      await server?.close();
    })());

  return {
    url: server?.url ?? null,
    registry,
    metrics,
    tracker,
    estimator,
    rewards$: rewardMon?.rewards$ ?? EMPTY,
    readiness: check,
    sync,
    stop,
    close: stop,
  };
}
