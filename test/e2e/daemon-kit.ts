/**
 * The scaffolding the daemon's end-to-end tests share: a local venue with busy synthetic takers on
 * one symbol, a remote-mode bot config pointed at it (or at a proxy in front of it), `mmbot run`
 * spawned with the venue's credentials from the environment, and the log helpers they read.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startVenue, type RunningVenue } from '../../src/sim/index.ts';
import { spawnBot, type BotProcess, type LogLine } from './bot-process.ts';

/** The symbol the e2e venues list. */
export const E2E_SYMBOL = 'EURUSD-PERP';

/** A local venue listing E2E_SYMBOL only, whose synthetic takers fill quotes at the touch within seconds. */
export function startBusyVenue(seed: number, takersPerMin = 600): Promise<RunningVenue> {
  return startVenue({
    config: {
      seed,
      instruments: { only: [E2E_SYMBOL] },
      market: { symbols: [E2E_SYMBOL], step_ms: 100, defaults: { takers: { rate_per_min: takersPerMin } } },
    },
  });
}

/** What a remote-mode e2e bot config says beyond the venue: the strategy's params and the risk limits. */
export interface E2eBotOptions {
  /** Where the bot connects (default the venue itself; a fault proxy's addresses to put one between). */
  readonly baseUrl?: string;
  readonly wsUrl?: string;
  /** fixed-spread params, YAML flow mapping body (e.g. `levels: 2, size: 100`). */
  readonly params: string;
  /** risk section, YAML flow mapping body. */
  readonly risk: string;
  /** monitoring section (default `{ enabled: false }`). */
  readonly monitoring?: string;
  /** Extra lines under venue: (each starting with a newline and two spaces). */
  readonly venueExtra?: string;
}

/** Writes `dir/bot.yaml`: remote mode, credentials from E2E_API_KEY / E2E_API_SECRET, fixed-spread on E2E_SYMBOL. */
export function writeBotConfig(dir: string, venue: RunningVenue, o: E2eBotOptions): string {
  const path = join(dir, 'bot.yaml');
  writeFileSync(
    path,
    `venue:
  mode: remote
  base_url: ${o.baseUrl ?? venue.baseUrl}
  ws_url: ${o.wsUrl ?? venue.wsUrl}
  api_key: \${E2E_API_KEY}
  api_secret: \${E2E_API_SECRET}
  account_id: ${venue.credentials.account_id}${o.venueExtra ?? ''}
bot:
  status_interval_ms: 1000
  strategies:
    - symbol: ${E2E_SYMBOL}
      strategy: fixed-spread
      params: { ${o.params} }
risk: { ${o.risk} }
monitoring: ${o.monitoring ?? '{ enabled: false }'}
rewards: { enabled: false }
logging: { level: info, pretty: false }
`,
  );
  return path;
}

/** `mmbot run --config <path> --json` with the venue's credentials in the environment the config reads. */
export function spawnE2eBot(configPath: string, venue: RunningVenue): BotProcess {
  return spawnBot(['run', '--config', configPath, '--json'], { E2E_API_KEY: venue.credentials.api_key, E2E_API_SECRET: venue.credentials.api_secret });
}

/** The daemon's fill lines so far. */
export const fillLines = (bot: BotProcess): LogLine[] => bot.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('fill '));

/** Polls until `check` holds (no timing assertion: a generous bound, then a failure naming what). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
