import { merge } from 'rxjs';
import { asyncScheduler } from 'rxjs';
import { LiveClock, type Clock } from '../../src/core/clock.ts';
import type { Symbol } from '../../src/core/ids.ts';
import { connectVenue, type VenueConnection } from '../../src/client/index.ts';
import { DEFAULT_REWARD_SCORE_PARAMS, type RewardScoreParams } from '../../src/domain/reward-score.ts';
import {
  createEngine,
  DEFAULT_EXECUTION_CONFIG,
  DEFAULT_ORDER_MANAGER_CONFIG,
  DEFAULT_RISK_CONFIG,
  type Engine,
  type EngineInputs,
} from '../../src/engine/index.ts';
import { startVenue, type RunningVenue, type VenueConfigInput } from '../../src/sim/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/index.ts';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts';
import { startMonitoring, type Monitoring, type MonitoringConfig } from '../../src/cli/monitoring.ts';

/** A bot (engine + clients + monitoring) trading against an in-process local venue over real sockets. */
export interface TestBot {
  readonly venue: RunningVenue;
  readonly conn: VenueConnection;
  readonly engine: Engine;
  readonly monitoring: Monitoring;
  readonly symbol: Symbol;
  readonly proxy: FaultProxy | null;
  stop(): Promise<void>;
}

/** Options of the harness. */
export interface TestBotOptions {
  readonly symbol: string;
  readonly venueConfig?: VenueConfigInput;
  readonly strategyParams?: Record<string, unknown>;
  /** Reward polling interval (ms, engine clock); rewards off when undefined. */
  readonly rewardPollMs?: number;
  /** The venue's reward model, when rewards are on. */
  readonly rewardParams?: RewardScoreParams;
  readonly rewardEpochMs?: number;
  /** Market-data staleness threshold of the client (ms). */
  readonly staleAfterMs?: number;
  /** Put a fault proxy between the bot and the venue (to cut sockets). */
  readonly viaProxy?: boolean;
}

/**
 * Starts the local venue on a free port, connects the clients, builds a fixed-spread engine and
 * starts monitoring on a free port. Until `mmbot run` wires monitoring, this is the composition
 * the daemon performs (src/cli/live/daemon.ts), trimmed to what the tests need.
 */
export async function startTestBot(o: TestBotOptions): Promise<TestBot> {
  const clock: Clock = new LiveClock();
  const venue = await startVenue({ port: 0, config: o.venueConfig ?? {} });
  const closers: (() => Promise<void>)[] = [() => venue.stop()];
  try {
    const proxy = o.viaProxy ? await startFaultProxy(venue.baseUrl) : null;
    if (proxy) closers.unshift(() => proxy.close());
    const conn = await connectVenue({
      baseUrl: proxy ? proxy.baseUrl : venue.baseUrl,
      clock,
      credentials: { apiKey: venue.credentials.api_key, apiSecret: venue.credentials.api_secret },
      reconnect: { initialMs: 50, maxMs: 250, multiplier: 2, jitter: 0 },
      ...(o.staleAfterMs !== undefined ? { staleAfterMs: o.staleAfterMs } : {}),
    });
    closers.unshift(() => conn.close());
    const def = await loadStrategy('fixed-spread');
    const symbol = o.symbol as Symbol;
    const engine = createEngine({
      clock,
      scheduler: asyncScheduler,
      gateway: conn.gateway,
      accounts: conn.accounts,
      instruments: conn.instruments,
      strategies: [{ id: `fixed-spread:${symbol}`, symbol, strategy: def.create(parseStrategyParams(def, o.strategyParams ?? {})) }],
      risk: DEFAULT_RISK_CONFIG,
      execution: DEFAULT_EXECUTION_CONFIG,
      orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    });
    closers.unshift(async () => void (await engine.stop({ timeoutMs: 2_000 })));
    const config: MonitoringConfig = {
      monitoring: { enabled: true, host: '127.0.0.1', port: 0 },
      rewards: { enabled: o.rewardPollMs !== undefined, poll_interval_ms: o.rewardPollMs ?? 60_000 },
      bot: { strategies: [{ symbol }] },
    };
    const silent = { info() {}, warn() {}, error() {} };
    const monitoring = await startMonitoring({
      config,
      engine,
      clients: { orders: conn.orders, md: conn.marketData, rest: conn.rest },
      log: silent,
      clock,
      instruments: conn.instruments,
      rewardModel: {
        params: o.rewardParams ?? DEFAULT_REWARD_SCORE_PARAMS,
        ...(o.rewardEpochMs !== undefined ? { epochMs: o.rewardEpochMs } : {}),
        venueClock: venue.venue.clock,
      },
    });
    closers.unshift(() => monitoring.stop());
    conn.marketData.subscribeBook(symbol, 2, { trades: true, ticker: true });
    const inputs: EngineInputs = {
      market$: conn.marketData.market$,
      orders$: conn.orders.events$,
      resync$: conn.orders.resync$,
      connection$: merge(conn.orders.connection$, conn.marketData.connection$),
      rewards$: monitoring.rewards$,
    };
    engine.start(inputs);
    return {
      venue,
      conn,
      engine,
      monitoring,
      symbol,
      proxy,
      async stop() {
        for (const c of closers) await c().catch(() => undefined);
      },
    };
  } catch (e) {
    for (const c of closers) await c().catch(() => undefined);
    throw e;
  }
}

/** Polls `cond` every 50 ms until true or `timeoutMs` (then throws `what`). */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
