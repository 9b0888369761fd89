import { deepFreeze } from '../config/freeze.ts';
import type { BotConfig } from '../config/index.ts';
import { MmError } from '../core/errors.ts';

/** The environment variable that overrides monitoring.port (below --monitoring-port). */
export const MONITORING_PORT_ENV = 'MMBOT_MONITORING_PORT';

/**
 * The monitoring port asked for on the command line (`--monitoring-port`) or, failing that, in
 * MMBOT_MONITORING_PORT, so a second bot on the same host needs no copied config; null = the config's.
 * @throws MmError USAGE naming the flag or variable when the value is not a port (0–65535).
 */
export function monitoringPortOverride(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): number | null {
  const [where, raw] = flag !== undefined ? ['--monitoring-port', flag] : [MONITORING_PORT_ENV, env[MONITORING_PORT_ENV]];
  if (raw === undefined || raw === '') return null;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port > 65535) throw new MmError('USAGE', `${where} must be a port number 0–65535 (0 = any free port), got "${raw}"`);
  return port;
}

/** The config with monitoring.port replaced (frozen, like every loaded config). */
export function withMonitoringPort(config: BotConfig, port: number | null): BotConfig {
  if (port === null || port === config.monitoring.port) return config;
  return deepFreeze({ ...config, monitoring: { ...config.monitoring, port } }) as BotConfig;
}
