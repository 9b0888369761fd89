
import { listenError } from '../port-in-use.ts';
import type { Observable } from 'rxjs';
import type { BotConfig } from '../../config/index.ts';
import type { Clock } from '../../core/clock.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { MarketDataWsClient, OrderWsClient, RestClient } from '../../client/index.ts';
import type { Engine, RewardUpdate } from '../../engine/index.ts';
import type { Logger } from '../../obs/logger.ts';
import { startMonitoring, type MonitoredRestClient, type MonitoringDeps } from '../monitoring.ts';

/** What the daemon hands to monitoring. */
export interface DaemonMonitoringDeps {
  readonly config: BotConfig;
  readonly engine: Engine;
  readonly orders: OrderWsClient;
  readonly md: MarketDataWsClient;
  /** The reward reads (the daemon passes them budgeted through the engine's executor). */
  readonly rest: MonitoredRestClient;
  readonly instruments: InstrumentCatalog;
  readonly clock: Clock;
  /** The embedded venue's clock (it may run faster than ours), for the reward-score estimator. */
  readonly venueClock?: Clock;
  readonly log: Logger;
  /** Extra routes on the same server (the operator console). */
  readonly routes?: MonitoringDeps['routes'];
}

/** Running metrics + health endpoints + reward tracking. */
export interface DaemonMonitoring {
  /** `http://host:port`, null when monitoring.enabled is false. */
  readonly url: string | null;
  /** Reward updates for the engine (EngineInputs.rewards$). */
  readonly rewards$: Observable<RewardUpdate>;
  close(): Promise<void>;
}

/**
 * The daemon's single call site into monitoring (src/app/monitoring.ts): metrics registry,
 * engine-event metrics, /metrics, /healthz, /readyz, the reward tracker and score estimator.
 * @throws MmError CONFIG_INVALID when monitoring.port is taken; other listen errors as they are.
 */
export async function startDaemonMonitoring(deps: DaemonMonitoringDeps): Promise<DaemonMonitoring> {
  const mon = await startMonitoring({
    config: deps.config,
    engine: deps.engine,
    clients: { orders: deps.orders, md: deps.md, rest: deps.rest },
    log: deps.log,
    clock: deps.clock,
    instruments: deps.instruments,
    ...(deps.venueClock ? { rewardModel: { venueClock: deps.venueClock } } : {}),
    ...(deps.routes ? { routes: deps.routes } : {}),
  }).catch((e: unknown) => {
    const { host, port } = deps.config.monitoring;
    const file = deps.config.source.file;
    throw listenError(e, { code: 'CONFIG_INVALID', where: `${file}: monitoring.port`, host, port, likelyHolder: 'another mmbot?', details: { file, path: 'monitoring.port', value: port } });
  });
  return { url: mon.url, rewards$: mon.rewards$, close: () => mon.stop() };
}
