import type { Observable, Subscription } from 'rxjs';
import type { Registry } from 'prom-client';
import type { BotConfig, StrategyLookup } from '../../config/index.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { OperableEngine, RewardUpdate } from '../../engine/index.ts';
import type { HttpRoutes } from '../../obs/health-server.ts';
import type { Logger } from '../../obs/logger.ts';
import type { MarkoutMonitoring } from '../monitoring-markouts.ts';
import type { NoQuoteWatch } from '../no-quote-watch.ts';
import { LIVE_MARKOUT_HORIZONS } from '../monitoring-markouts.ts';
import { AUTH_FAILURE_LOG_INTERVAL_MS } from './auth-failures.ts';
import { readsNeedToken } from './auth.ts';
import { ConsoleController, type ActionResult } from './controller.ts';
import { ConsoleHistory } from './history.ts';
import { consoleRoutes } from './http.ts';
import { buildState, type LiveFeeds } from './state.ts';

/** The streams the console follows besides the engine. */
export interface ConsoleFeeds {
  readonly connections: readonly Observable<{ readonly stream: string; readonly connected: boolean }>[];
  readonly tickers$?: Observable<{ readonly symbol: string; readonly funding?: { readonly rate?: { toNumber(): number } | null } | null }>;
  readonly rewards$?: Observable<RewardUpdate>;
}

/** What startConsole needs. */
export interface ConsoleDeps {
  readonly config: BotConfig;
  readonly engine: OperableEngine;
  readonly instruments: InstrumentCatalog;
  readonly lookup: StrategyLookup;
  readonly log: Logger;
  readonly feeds: ConsoleFeeds;
  readonly nowMs: () => number;
}

/** A running console: its routes for the metrics server, the reload entry (SIGHUP) and close. */
export interface OperatorConsole {
  /** The route factory monitoring calls once its registry exists. */
  routes(ctx: { readonly registry: Registry; readonly markouts: MarkoutMonitoring | null; readonly noQuotes?: NoQuoteWatch }): HttpRoutes;
  /** Re-reads the config file (SIGHUP, `mmbot ctl reload`), logged and counted like any action. */
  reload(actor: string): Promise<ActionResult>;
  close(): void;
}

/** How often the chart gets a point (besides one per fill). */
const SAMPLE_MS = 5_000;

/**
 * The operator console (src/app/control/README.md): the control API and live page served beside
 * /metrics, over the running engine.
 */
export async function startConsole(deps: ConsoleDeps): Promise<OperatorConsole> {
  const { engine, config } = deps;
  const ctl = config.monitoring.control;
  const history = new ConsoleHistory(ctl.history_ms, deps.instruments);
  const controller = await ConsoleController.create(config, engine, deps.lookup, deps.log, history, deps.nowMs);
  const listeners = new Set<() => void>();
  const changed = (): void => listeners.forEach((l) => l());
  const subs: Subscription[] = [];
  const connections = new Map<string, boolean>();
  const fundingRate = new Map<string, number>();
  const rewardShare = new Map<string, number>();
  for (const c$ of deps.feeds.connections) subs.push(c$.subscribe((c) => connections.set(c.stream, c.connected)));
  if (deps.feeds.tickers$) subs.push(deps.feeds.tickers$.subscribe((t) => t.funding?.rate && fundingRate.set(t.symbol, t.funding.rate.toNumber())));
  if (deps.feeds.rewards$) subs.push(deps.feeds.rewards$.subscribe((r) => r.view && rewardShare.set(r.symbol, r.view.estimatedShare)));
  let markouts: MarkoutMonitoring | null = null;
  // The monitoring server's watch (routes ctx), fed here too: the page's "no quotes for" and
  // mmbot_no_quotes_seconds are one figure.
  let noQuotes: NoQuoteWatch | null = null;
  const feeds: LiveFeeds = {
    connections,
    fundingRate,
    rewardShare,
    markouts: (symbol) => {
      const t = markouts?.tracker(symbol);
      if (!t) return null;
      return Object.fromEntries(LIVE_MARKOUT_HORIZONS.map((h, i) => [h.label, Number.isFinite(t.recentMeanBps(i)) ? Number(t.recentMeanBps(i).toFixed(3)) : null]));
    },
    observeNoQuotes: (snap) => {
      const w = noQuotes;
      if (!w) return () => null;
      w.observe(snap);
      return (symbol) => w.forMs(symbol, snap.nowMs);
    },
  };
  const sample = (): void => {
    const snap = engine.snapshot();
    history.sample(snap);
    noQuotes?.observe(snap);
  };
  history.watch(engine.events$, () => {
    sample();
    changed();
  });
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  const refusalTimer = setInterval(() => controller.flushRefusals(), AUTH_FAILURE_LOG_INTERVAL_MS);
  refusalTimer.unref();
  // Beyond loopback, reads need the token whatever the config says: state holds positions and order ids.
  const readsRequireToken = readsNeedToken(ctl.reads_require_token, config.monitoring.host);
  const state = (): unknown => buildState(engine, deps.instruments, controller.strategies, feeds, history, { acting: ctl.token !== '', readsRequireToken });
  return {
    routes(ctx) {
      controller.register(ctx.registry);
      markouts = ctx.markouts;
      noQuotes = ctx.noQuotes ?? null;
      return consoleRoutes({
        controller: {
          act: async (...args: Parameters<ConsoleController['act']>) => {
            const r = await controller.act(...args);
            changed();
            return r;
          },
          unauthorized: (...args: Parameters<ConsoleController['unauthorized']>) => controller.unauthorized(...args),
          rejected: (...args: Parameters<ConsoleController['rejected']>) => controller.rejected(...args),
        },
        token: ctl.token,
        readsRequireToken,
        stream: { maxClients: ctl.max_stream_clients },
        log: deps.log,
        state,
        history: () => ({ nowMs: deps.nowMs(), historyMs: ctl.history_ms, series: history.series() }),
        onChange: (l) => {
          listeners.add(l);
          return () => listeners.delete(l);
        },
      });
    },
    async reload(actor) {
      const r = await controller.act('reload', null, {}, actor);
      changed();
      return r;
    },
    close() {
      clearInterval(timer);
      clearInterval(refusalTimer);
      controller.flushRefusals();
      history.stop();
      subs.forEach((s) => s.unsubscribe());
      listeners.clear();
    },
  };
}
