import { loadConfig } from '../../config/index.ts';
import { MmError } from '../../core/errors.ts';
import { createLogger, type LogLevel } from '../../obs/logger.ts';
import { flagNumber, flagString, parseArgs } from '../args.ts';
import { runDaemon } from '../../app/live/run-daemon.ts';
import { builtinLookup } from '../../app/live/strategies.ts';
import type { Command } from '../main.ts';
import { plaintextSecretsPolicy } from '../plaintext-secrets.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { MONITORING_PORT_ENV, monitoringPortOverride, withMonitoringPort } from '../monitoring-port.ts';

const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const usage = `usage: mmbot run --config <file> [--log-level <level>] [--json] [--status-interval <s>] [--monitoring-port <n>]

Runs the market-making daemon: connects to the venue (or starts the local venue embedded on
loopback), reconciles, quotes with the configured strategies, serves /metrics and /healthz, and
prints a one-line status every few seconds. SIGINT/SIGTERM cancels every order, waits for the
venue to confirm, and exits 0; another signal (a second or more later) exits at once.

  --config <file>          bot config (YAML); see config/demo.yaml and docs/config.schema.json
  --log-level <level>      override logging.level (${LEVELS.join(', ')})
  --json                   JSON log lines even on a terminal
  --status-interval <s>    override bot.status_interval_ms (seconds; 0 = off)
  --monitoring-port <n>    override monitoring.port (0 = any free port; also ${MONITORING_PORT_ENV}), so a
                           second bot on the host needs no copied config
  --allow-plaintext-secrets  run although api_key/api_secret/control token are written in a config
                           file others can read (default: refused unless the file is mode 0600)

Exit codes: 0 stopped cleanly, 1 failed (or orders left unconfirmed), 2 bad config or usage,
3 stopped by a kill-switch trigger whose action is stop, 130 a second signal (exits at once).`;

/** `mmbot run`: the daemon. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.run,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'log-level', 'status-interval', 'monitoring-port'], boolean: ['json', 'allow-plaintext-secrets'] });
    const file = flagString(p, 'config');
    if (!file) throw new MmError('USAGE', 'run needs --config <file>');
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]!}"`);
    const level = flagString(p, 'log-level');
    if (level !== undefined && !LEVELS.includes(level as LogLevel)) throw new MmError('USAGE', `--log-level must be one of ${LEVELS.join(', ')}, got "${level}"`);
    const statusS = flagNumber(p, 'status-interval');
    const monitoringPort = monitoringPortOverride(flagString(p, 'monitoring-port'), process.env);

    const strategies = await builtinLookup();
    const config = withMonitoringPort(loadConfig(file, { env: process.env, strategies }), monitoringPort);
    const secretsWarning = plaintextSecretsPolicy(config, p.flags.has('allow-plaintext-secrets'));
    if (secretsWarning !== null) process.stderr.write(`${secretsWarning}\n`);
    const log = createLogger({
      level: (level as LogLevel | undefined) ?? config.logging.level,
      pretty: p.flags.has('json') ? false : config.logging.pretty,
      name: 'mmbot',
    });
    const code = await runDaemon(config, log, { strategies, ...(statusS === undefined ? {} : { statusIntervalMs: Math.round(statusS * 1000) }) });
    // Everything is closed by now; should a stray handle keep the event loop alive, exit anyway.
    setTimeout(() => process.exit(code), 3000).unref();
    return code;
  },
};
