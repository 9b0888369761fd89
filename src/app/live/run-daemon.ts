import { LiveClock } from '../../core/clock.ts';
import { writeFileSync } from 'node:fs';
import { MmError } from '../../core/errors.ts';
import { enableStageStamps, STAGE_POINTS, stageStampsTaken } from '../../core/stage-stamps.ts';
import type { BotConfig, StrategyLookup } from '../../config/index.ts';
import type { Logger } from '../../obs/logger.ts';
import { startDaemon, type Daemon } from './daemon.ts';
import { shutdownController, type SignalSource } from './shutdown.ts';
import { processParent, watchForOrphaning, type ParentProbe } from './orphan-watch.ts';
import { formatStatusLine } from './status-line.ts';

/** Exit code of a run the kill switch stopped (a trigger with `action: stop`). */
export const KILL_SWITCH_EXIT_CODE = 3;
const KILL_STOP_PREFIX = 'kill switch ';

/** Options of runDaemon (tests inject signals and the exit hook). */
export interface RunDaemonOptions {
  /** Overrides bot.status_interval_ms. */
  readonly statusIntervalMs?: number;
  readonly signals?: SignalSource;
  /** Called on a second stop signal; default: `process.exit(130)`. */
  readonly forceExit?: (code: number) => void;
  /** The built-in strategy lookup loadConfig used (default the registry's). */
  readonly strategies?: StrategyLookup;
  /** Where SIGHUP (reload the config) comes from (default `process`). */
  readonly hangup?: { on(event: 'SIGHUP', fn: () => void): unknown; off(event: 'SIGHUP', fn: () => void): unknown };
  /** Where uncaught errors are caught (default `process`). */
  readonly processEvents?: Pick<NodeJS.Process, 'on' | 'off'>;
  /** The parent process, watched when npm started the daemon (default the real one). */
  readonly parent?: ParentProbe;
}

/**
 * Runs the daemon until SIGINT/SIGTERM (or a fatal error): start, print status lines, then a
 * graceful stop (engine cancels everything and waits for confirmation; clients and the embedded
 * venue close). Resolves to the exit code: 0 clean, 1 failed or orders unconfirmed, 2 bad config,
 * 3 stopped by a kill-switch trigger whose action is `stop`.
 */
export async function runDaemon(config: BotConfig, log: Logger, options: RunDaemonOptions = {}): Promise<number> {
  const forceExit = options.forceExit ?? ((code: number) => process.exit(code));
  const shutdown = shutdownController(options.signals ?? process, (sig) => {
    log.warn({ signal: sig }, 'second stop signal: exiting now without waiting for cancel confirmations');
    forceExit(130);
  });
  // MMBOT_STAGES=<file>: stamp the hot path per market-data frame and write the stamps there at exit
  // (the per-stage breakdown of `npm run bench -- e2e-process`).
  const stagesFile = process.env['MMBOT_STAGES'];
  if (stagesFile) enableStageStamps();
  let daemon: Daemon;
  let starting = true;
  void shutdown.requested.then((reason) => {
    if (starting) log.info({ reason }, 'stop requested during start-up: stopping as soon as start-up finishes (again to exit now)');
  });
  // Under npx / npm start, a SIGTERM to npm never reaches us: npm exiting is the stop request.
  const unwatchParent = watchForOrphaning(options.parent ?? processParent, ({ parentPid, nowParentPid }) => {
    log.warn({ parentPid, nowParentPid }, 'npm, which started this daemon, is gone (stopped by a signal?): stopping as on SIGTERM');
    shutdown.requestStop('SIGTERM (npm parent exited)');
  });
  try {
    daemon = await startDaemon({ config, log, clock: new LiveClock(), ...(options.strategies ? { strategies: options.strategies } : {}) });
  } catch (e) {
    shutdown.dispose();
    unwatchParent?.();
    const err = e instanceof MmError ? e : null;
    log.error({ code: err?.code, details: err?.details, err: err ? undefined : e }, `start-up failed: ${e instanceof Error ? e.message : String(e)}`);
    return err?.kind === 'config' ? 2 : 1;
  }

  starting = false;
  const intervalMs = options.statusIntervalMs ?? config.bot.status_interval_ms;
  const status = (): void => {
    try {
      log.info(formatStatusLine(daemon.engine.snapshot(), daemon.instruments));
    } catch (e) {
      log.warn({ err: e }, 'status line failed');
    }
  };
  // The status timer must not keep the process alive on its own, hence unref.
  const timer = intervalMs > 0 ? setInterval(status, intervalMs) : undefined;
  timer?.unref();
  const onFatal = (e: unknown): void => {
    const err = e instanceof Error ? e : new Error(String(e));
    log.fatal({ err }, `fatal: ${err.message}; cancelling everything and stopping`);
    shutdown.requestStop(`fatal: ${err.message}`);
  };
  void daemon.fatal.then(onFatal);
  // A kill-switch trigger whose action is `stop` ends the run (a `pause` keeps it running).
  const killStop = daemon.engine.events$.subscribe((e) => {
    if (e.type !== 'kill-switch-tripped' || e.action !== 'stop') return;
    log.error({ reason: e.reason, detail: e.detail }, `kill switch (${e.reason}) action stop: stopping the daemon`);
    shutdown.requestStop(`${KILL_STOP_PREFIX}${e.reason}: ${e.detail}`);
  });
  // A bug anywhere must still end in a clean stop (orders cancelled), then a non-zero exit.
  const processEvents = options.processEvents ?? process;
  processEvents.on('uncaughtException', onFatal);
  processEvents.on('unhandledRejection', onFatal);

  // SIGHUP re-reads the config: strategy params and risk limits apply live, the rest is refused.
  const hangup = options.hangup ?? process;
  const onHangup = (): void => {
    daemon.reload('SIGHUP').then(
      (r) => (r.ok ? log.info(`SIGHUP: ${r.message}`) : log.warn(`SIGHUP: ${r.message}`)),
      (e: unknown) => log.error({ err: e }, 'SIGHUP: reload failed'),
    );
  };
  hangup.on('SIGHUP', onHangup);

  const reason = await shutdown.requested;
  unwatchParent?.();
  killStop.unsubscribe();
  hangup.off('SIGHUP', onHangup);
  if (timer) clearInterval(timer);
  log.info({ reason }, 'stopping: cancelling all orders and waiting for the venue to confirm');
  const report = await daemon.stop(reason);
  if (stagesFile) writeFileSync(stagesFile, JSON.stringify({ points: STAGE_POINTS, cycles: stageStampsTaken() }));
  shutdown.dispose();
  processEvents.off('uncaughtException', onFatal);
  processEvents.off('unhandledRejection', onFatal);
  status();
  const failed = reason.startsWith('fatal');
  if (!report.confirmed) {
    log.error({ remaining: report.remaining }, `stopped with ${report.remaining.length} order(s) not confirmed cancelled`);
    return 1;
  }
  log.info({ cancelRequested: report.cancelRequested, durationMs: report.durationMs }, 'stopped: no open orders left');
  return failed ? 1 : reason.startsWith(KILL_STOP_PREFIX) ? KILL_SWITCH_EXIT_CODE : 0;
}
