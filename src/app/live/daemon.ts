import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { asyncScheduler, merge, Subject, tap as rxTap, type Observable, type Subscription } from 'rxjs';
import type { StreamConnection } from '../../client/index.ts';
import type { BotConfig, StrategyLookup } from '../../config/index.ts';
import type { Clock } from '../../core/clock.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import { MarketDataWsClient, OrderWsClient, RestClient, venueAccountReader, venueGateway } from '../../client/index.ts';
import { createEngine, type EngineInputs, type OperableEngine, type RewardUpdate, type StopReport } from '../../engine/index.ts';
import type { Logger } from '../../obs/logger.ts';
import { createRecordingWriter, startRecorder } from '../../record/index.ts';
import { pollFundingPayments, pollFundingSettlements } from '../funding-poller.ts';
import { resolveFeeRates, statedFeeRates } from '../../domain/fee-rates.ts';
import { logBadFrames, type BadFrameTally } from './bad-frames.ts';
import { engineConfigs } from './engine-config.ts';
import { RoundTripTap } from './round-trips.ts';
import { logEngineEvents } from './engine-log.ts';
import { resyncSuspectBooks } from './md-resync.ts';
import { budgetedRest } from './budgeted-rest.ts';
import { startOutsidePrices } from './outside-prices.ts';
import { wasDroppedRead } from './dropped-read.ts';
import { startDaemonMonitoring, type DaemonMonitoring } from './monitoring.ts';
import { buildStrategies, builtinLookup } from './strategies.ts';
import { startConsole } from '../control/index.ts';
import { openVenue, type VenueEndpoint } from './venue-endpoint.ts';
import { AfterHotPath } from '../../obs/after-hot-path.ts';

/** What startDaemon needs. */
export interface DaemonOptions {
  readonly config: BotConfig;
  readonly log: Logger;
  readonly clock: Clock;
  /** The built-in strategy lookup loadConfig used (default the registry's). */
  readonly strategies?: StrategyLookup;
}

/** A running daemon. */
export interface Daemon {
  readonly engine: OperableEngine;
  readonly instruments: InstrumentCatalog;
  readonly venue: VenueEndpoint;
  /** `http://host:port` of /metrics and /healthz, null when monitoring is off. */
  readonly metricsUrl: string | null;
  /** Re-reads the config file (SIGHUP): strategy params and risk limits apply live; anything else is refused. */
  reload(actor: string): Promise<{ readonly ok: boolean; readonly message: string }>;
  /** Resolves when something fatal happens (a stream that cannot recover); never rejects. */
  readonly fatal: Promise<Error>;
  /** Frames the order and market-data clients skipped, by kind (each kind logged once). */
  badFrames(): { readonly orders: BadFrameTally; readonly md: BadFrameTally };
  /** Graceful stop: the engine cancels everything and waits (bounded); then clients and the venue close. Idempotent. */
  stop(reason: string): Promise<StopReport>;
}

/** Longest a single close step may take before shutdown moves on (a stuck close must not hang the exit). */
const CLOSE_STEP_TIMEOUT_MS = 3000;

/** Closes whatever was opened, in reverse order, logging (not throwing) failures and stuck steps. */
class Closer {
  readonly #steps: { name: string; fn: () => Promise<void> | void }[] = [];
  readonly #log: Logger;
  constructor(log: Logger) {
    this.#log = log;
  }
  add(name: string, fn: () => Promise<void> | void): void {
    this.#steps.push({ name, fn });
  }
  async closeAll(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((r) => {
        timer = setTimeout(() => r('timeout'), CLOSE_STEP_TIMEOUT_MS);
      });
      try {
        const r = await Promise.race([Promise.resolve().then(step.fn), timeout]);
        if (r === 'timeout') this.#log.warn(`closing ${step.name} took over ${CLOSE_STEP_TIMEOUT_MS} ms; moving on`);
      } catch (e) {
        this.#log.warn({ err: e }, `closing ${step.name} failed`);
      } finally {
        clearTimeout(timer);
      }
    }
  }
}

/**
 * The composition root of `mmbot run`: opens the venue (starting the local venue in embedded
 * mode), the REST and WebSocket clients, builds the strategies and the engine, wires the engine's
 * inputs from the clients, starts monitoring, then connects. On failure everything opened so far
 * is closed before the error propagates.
 * @throws MmError on bad config found at start-up (unknown symbol...), venue or auth failures.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, log, clock } = options;
  const closer = new Closer(log);
  try {
    const venue = await openVenue(config, log.child({ component: 'venue' }));
    closer.add('venue', () => venue.close());

    const rest = new RestClient({
      baseUrl: venue.baseUrl,
      clock,
      credentials: venue.credentials,
      tokenLifetimeS: venue.tokenLifetimeS,
      ...(venue.accountId !== undefined ? { accountId: venue.accountId } : {}),
      ...(venue.requestTimeoutMs !== undefined ? { requestTimeoutMs: venue.requestTimeoutMs } : {}),
      ...(venue.maxResponseBytes !== undefined ? { maxResponseBytes: venue.maxResponseBytes } : {}),
    });
    closer.add('rest client', () => rest.close());
    const instruments = await rest.loadInstruments();
    const strategies = await buildStrategies(config, instruments, options.strategies);
    const tokens = rest.tokens!;
    // Log in now so bad credentials fail start-up with a clear error rather than a reconnect loop.
    await tokens.token();

    const orders = new OrderWsClient({
      wsUrl: venue.wsUrl,
      clock,
      tokens,
      instruments,
      ...(venue.accountId !== undefined ? { accountId: venue.accountId } : {}),
      ...(venue.requestTimeoutMs !== undefined ? { requestTimeoutMs: venue.requestTimeoutMs } : {}),
    });
    const md = new MarketDataWsClient({ wsUrl: venue.wsUrl, clock, tokens, instruments });
    closer.add('order stream', () => orders.stop());
    closer.add('market-data stream', () => md.stop());

    const engineLog = log.child({ component: 'engine' });
    const cfg = engineConfigs(config);
    // Fee rates from one place (domain/fee-rates.ts): bot.fee_rates, else the account's (whoami), else the venue default.
    const trading = await tradingAccount(rest, venue.accountId, log);
    const account = trading.fees;
    const fees = resolveFeeRates(cfg.explicitFees, statedFeeRates(account));
    log.info({ fees }, `fee rates: maker ${fees.maker}, taker ${fees.taker} (${fees.source})`);
    const tap = new RoundTripTap(clock);
    const engine = createEngine({
      clock,
      scheduler: asyncScheduler,
      gateway: tap.wrap(venueGateway(orders, rest)),
      accounts: venueAccountReader(rest),
      instruments,
      strategies,
      risk: cfg.risk,
      execution: cfg.execution,
      orderManager: cfg.orderManager,
      fees,
      log: engineLog,
      // A fill naming another account is dropped, not booked (issue 35).
      ...(trading.id !== undefined ? { accountId: trading.id } : {}),
    });
    const subs: Subscription[] = [logEngineEvents(engine.events$, engineLog, instruments), tap.watch(engine.events$), resyncSuspectBooks(engine.events$, md)];
    closer.add('subscriptions', () => subs.forEach((s) => s.unsubscribe()));

    // The operator console (control API + page) rides on the monitoring server.
    const lookup = options.strategies ?? (await builtinLookup());
    const rewardsTap = new Subject<RewardUpdate>();
    const operatorConsole = config.monitoring.enabled && config.monitoring.control.enabled
      ? await startConsole({
          config,
          engine,
          instruments,
          lookup,
          log: log.child({ component: 'control' }),
          feeds: { connections: [orders.connection$, md.connection$], tickers$: md.tickers$, rewards$: rewardsTap },
          nowMs: () => clock.nowMs(),
        })
      : null;
    if (operatorConsole) closer.add('console', () => operatorConsole.close());
    // Every periodic REST read shares the venue budget with order entry (the engine's executor).
    const budgeted = budgetedRest(rest, engine);
    const monitoring: DaemonMonitoring = await startDaemonMonitoring({
      ...(operatorConsole ? { routes: (ctx) => operatorConsole.routes(ctx) } : {}),
      config,
      engine,
      orders,
      md,
      rest: budgeted.rewards,
      instruments,
      clock,
      ...(venue.embedded ? { venueClock: venue.embedded.venue.clock } : {}),
      log: log.child({ component: 'monitoring' }),
    });
    closer.add('monitoring', () => monitoring.close());

    // Index and reference prices join the market stream: the engine and the recorder see the same one.
    const outside = startOutsidePrices(config, budgeted.pollers, instruments, clock, log.child({ component: 'prices' }));
    closer.add('outside prices', () => outside.stop());
    const market$ = merge(md.market$, outside.prices$);

    if (config.recording) {
      const recordingPath = config.recording.path;
      const recorded = [...new Set(config.bot.strategies.flatMap((s) => s.symbols))].map((s) => instruments.get(s)!);
      mkdirSync(dirname(recordingPath), { recursive: true });
      const sink = createRecordingWriter(recordingPath, {
        instruments: recorded,
        startedAtMs: clock.nowMs(),
        source: venue.embedded ? 'local-venue' : venue.baseUrl,
        // Written as it grows (a crash keeps what was recorded, without the gzip trailer).
        inPlace: true,
        // The account's rates per recorded symbol, so a backtest of this recording charges the same.
        ...(account ? { fees: Object.fromEntries(recorded.map((i) => [i.symbol, account])) } : {}),
      });
      // The bot's own order events too: replays take its working orders out of the recorded queue.
      // Settlements come from REST (the market-data stream has no settlement event), as in `mmbot record`.
      const poller = pollFundingSettlements(budgeted.pollers, recorded.map((i) => i.symbol), {
        clock,
        sinceMs: clock.nowMs(),
        pollMs: config.recording.funding_poll_ms,
        onError: (symbol, e) => log.warn({ symbol, err: e instanceof Error ? e.message : String(e) }, `recording: funding poll for ${symbol} failed`),
      });
      // The recorder writes after the engine has answered each frame (it subscribes first), its
      // inputs in the order they came (obs/after-hot-path.ts).
      const later = new AfterHotPath();
      const recorder = startRecorder(
        sink,
        { market$: later.defer(market$), connection$: later.defer(md.connection$), funding$: later.defer(poller.funding$), orders$: later.defer(orders.events$), resync$: later.defer(orders.resync$), roundTrips$: later.defer(tap.roundTrips$) },
        clock,
      );
      closer.add('recorder', async () => {
        poller.stop();
        later.flushNow(); // what came before the stop is written
        const stats = await recorder.stop();
        log.info({ path: recordingPath, ...stats }, `recording written to ${recordingPath} (${stats.events} events)`);
      });
      log.info({ path: recordingPath }, 'recording market data');
    }
    for (const s of config.bot.strategies) for (const sym of s.symbols) md.subscribeBook(sym, 2, { trades: true, ticker: true });
    // Funding enters PnL (and so the kill switch) from the venue's own funding transactions on the
    // account: the exact cash for the position held at each settlement, from this run's start on.
    const venueNowMs = (): number => (venue.embedded ? venue.embedded.venue.clock.nowMs() : clock.nowMs());
    const fundingPoller = pollFundingPayments(budgeted.pollers, [...new Set(config.bot.strategies.flatMap((s) => s.symbols))], {
      clock,
      sinceMs: venueNowMs(),
      pollMs: config.bot.funding_poll_ms,
      onError: (e) => (wasDroppedRead(e) ? log.debug : log.warn).call(log, { err: e instanceof Error ? e.message : String(e) }, 'funding transactions poll failed (retrying at the next interval)'),
    });
    closer.add('funding poller', () => fundingPoller.stop());
    const inputs: EngineInputs = {
      market$,
      orders$: orders.events$,
      resync$: orders.resync$,
      connection$: merge(orders.connection$, md.connection$),
      rewards$: monitoring.rewards$.pipe(rxTap((r) => rewardsTap.next(r))),
      fundingPayments$: fundingPoller.payments$,
    };
    subs.push(logConnections(orders.connection$, 'order stream', log), logConnections(md.connection$, 'market-data stream', log));
    const badOrders = logBadFrames(orders.errors$, 'order stream', log);
    const badMd = logBadFrames(md.errors$, 'market-data stream', log);
    subs.push(badOrders, badMd);
    // The client streams are hot: the engine subscribes before the sockets connect.
    engine.start(inputs);
    orders.start();
    md.start();
    log.info(
      {
        venue: venue.mode,
        baseUrl: venue.baseUrl,
        strategies: config.bot.strategies.map((s) => s.id),
        metrics: monitoring.url,
      },
      `mmbot running: ${config.bot.strategies.map((s) => `${s.id}`).join(', ')} against ${venue.mode === 'embedded-sim' ? 'the embedded local venue' : venue.baseUrl}${monitoring.url ? `; metrics ${monitoring.url}/metrics` : ''}`,
    );
    if (monitoring.url && operatorConsole) log.info({ console: `${monitoring.url}/`, actions: config.monitoring.control.token !== '' }, consoleLine(monitoring.url, config.monitoring.control.token !== ''));

    // The engine's event stream erroring means the engine itself broke (an invariant): stop cleanly
    // (cancel everything) and exit non-zero so a supervisor restarts us into reconciliation.
    const fatal = new Promise<Error>((resolve) => {
      subs.push(engine.events$.subscribe({ error: (e: unknown) => resolve(e instanceof Error ? e : new Error(String(e))) }));
    });
    let stopping: Promise<StopReport> | undefined;
    return {
      engine,
      instruments,
      venue,
      metricsUrl: monitoring.url,
      fatal,
      badFrames: () => ({ orders: badOrders.tally(), md: badMd.tally() }),
      reload: (actor) => (operatorConsole ? operatorConsole.reload(actor).then((r) => r.body) : Promise.resolve({ ok: false, message: 'the console is disabled (monitoring.control.enabled: false)' })),
      stop(reason) {
        stopping ??= (async () => {
          const report = await engine.stop({ timeoutMs: cfg.stopTimeoutMs, reason });
          logFinal(log, engine);
          for (const [stream, t] of [['order stream', badOrders.tally()], ['market-data stream', badMd.tally()]] as const) {
            if (t.total > 0) log.warn({ stream, total: t.total, byKind: Object.fromEntries(t.byKind) }, `${stream}: ${t.total} bad frame(s) skipped in this run`);
          }
          await closer.closeAll();
          return report;
        })();
        return stopping;
      },
    };
  } catch (e) {
    await closer.closeAll();
    throw e;
  }
}

/**
 * The trading account from whoami: its fee rates (decimal strings; null, with a warning, when
 * unavailable) and its id: the configured one, else the account whoami lists when it lists only
 * one (with several, which one the venue trades on is its choice: undefined, fills are not checked).
 */
async function tradingAccount(rest: RestClient, accountId: string | undefined, log: Logger): Promise<{ fees: { maker: string; taker: string } | null; id: string | undefined }> {
  try {
    const who = await rest.whoami();
    const acct = who.accounts.find((a) => a.id === accountId) ?? (accountId === undefined ? who.accounts[0] : undefined);
    const id = accountId ?? (who.accounts.length === 1 ? acct?.id : undefined);
    if (acct) return { fees: { maker: acct.maker_fee, taker: acct.taker_fee }, id };
    if (who.maker_fee !== undefined && who.taker_fee !== undefined) return { fees: { maker: who.maker_fee, taker: who.taker_fee }, id };
    log.warn({ accountId }, 'whoami lists no matching account: fee rates fall back to the venue default');
  } catch (e) {
    log.warn({ err: e instanceof Error ? e.message : String(e) }, 'whoami failed: fee rates fall back to the venue default');
  }
  return { fees: null, id: accountId };
}

/** One structured line with the final positions and PnL (scripts and the e2e test read it). */
function logFinal(log: Logger, engine: OperableEngine): void {
  const snap = engine.snapshot();
  const positions = Object.fromEntries(snap.symbols.map((s) => [s.symbol, s.position.qty]));
  const text = Object.entries(positions)
    .map(([sym, qty]) => `${sym} ${qty > 0 ? '+' : ''}${qty}`)
    .join(', ');
  // Per symbol, the figures the venue's /api/positions books (cost basis = entry price × qty ×
  // multiplier) beside this session's realized PnL, so a restart can be checked against the venue.
  const books = Object.fromEntries(
    snap.symbols.map((s) => [s.symbol, { qty: s.position.qty, avgPrice: s.position.avgPrice?.toFixed() ?? null, costBasis: s.position.costBasis.toFixed(8), realized: s.pnl.realized.toFixed(8) }]),
  );
  log.info(
    { positions, books, fills: snap.counters.fills, pnl: snap.pnl.total.toFixed(2), fees: snap.pnl.fees.toFixed(2) },
    `final positions: ${text}; ${snap.counters.fills} fills, pnl ${snap.pnl.total.toFixed(2)} USD (fees ${snap.pnl.fees.toFixed(2)})`,
  );
}

/** Logs a stream's ups and downs (not the initial "not started" state). */
function logConnections(connection$: Observable<StreamConnection>, name: string, log: Logger): Subscription {
  let wasUp = false;
  return connection$.subscribe((c) => {
    if (c.connected) log.info(`${name} connected`);
    else if (wasUp) log.warn({ reason: c.reason }, `${name} down: ${c.reason ?? 'unknown reason'}`);
    wasUp = c.connected;
  });
}

/** Where the console is and whether it can act; never the token itself. */
export function consoleLine(url: string, actionsEnabled: boolean): string {
  return actionsEnabled
    ? `console ${url}/ (actions enabled: mmbot ctl and the page's buttons need MMBOT_CONTROL_TOKEN)`
    : `console ${url}/ (read-only: actions disabled, set MMBOT_CONTROL_TOKEN to enable them)`;
}
