/**
 * Shared pieces of the long scenarios (npm run scenario:*): a `mmbot sim` child process with a venue
 * config, a `mmbot run` daemon child against it, its Prometheus metrics, and the venue's own view
 * over REST. Scenario scripts print their figures and exit non-zero when a criterion fails.
 * Test-only: real processes, real sockets, real timers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnBot, type BotProcess, type LogLine } from '../e2e/bot-process.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Where the sim listens and how to log in. */
export interface SimCredentials {
  readonly base_url: string;
  readonly ws_url: string;
  readonly api_key: string;
  readonly api_secret: string;
  readonly account_id: string;
}

/** A running `mmbot sim` child. */
export interface SimProcess {
  readonly proc: ChildProcess;
  readonly creds: SimCredentials;
  stop(): Promise<void>;
}

/** A scratch directory for configs. */
export const scratch = (): string => mkdtempSync(join(tmpdir(), 'mmbot-scenario-'));

/** Sleeps `ms` of wall time. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts `mmbot sim --config <yaml>` and waits for its credentials file. */
export async function startSim(dir: string, venueYaml: string): Promise<SimProcess> {
  const cfg = join(dir, 'venue.yaml');
  const credsPath = join(dir, 'creds.json');
  writeFileSync(cfg, venueYaml);
  const proc = spawn(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'sim', '--config', cfg, '--credentials-out', credsPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  proc.stdout!.resume();
  const deadline = Date.now() + 20_000;
  while (!existsSync(credsPath) || readFileSync(credsPath, 'utf8').trim() === '') {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`mmbot sim did not start: ${err}`);
    await sleep(100);
  }
  await sleep(50);
  const creds = JSON.parse(readFileSync(credsPath, 'utf8')) as SimCredentials;
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  return {
    proc,
    creds,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
    },
  };
}

/** Writes a daemon config trading EURUSD-PERP against `baseUrl`/`wsUrl` and starts `mmbot run`. */
export function startBot(dir: string, creds: SimCredentials, endpoint: { baseUrl: string; wsUrl: string }, extraVenue = '', maxPosition = 2000): BotProcess {
  const path = join(dir, 'bot.yaml');
  writeFileSync(
    path,
    `venue:
  mode: remote
  base_url: ${endpoint.baseUrl}
  ws_url: ${endpoint.wsUrl}
  api_key: \${SCENARIO_API_KEY}
  api_secret: \${SCENARIO_API_SECRET}
  account_id: ${creds.account_id}
${extraVenue}bot:
  status_interval_ms: 5000
  strategies:
    - symbol: EURUSD-PERP
      strategy: fixed-spread
      params: { levels: 2, halfSpreadTicks: 2, size: 100, maxPosition: ${maxPosition} }
risk: { max_position: ${maxPosition + 1000}, max_order_qty: 500 }
monitoring: { port: 0 }
rewards: { enabled: false }
logging: { level: info, pretty: false }
`,
  );
  return spawnBot(['run', '--config', path, '--json'], { SCENARIO_API_KEY: creds.api_key, SCENARIO_API_SECRET: creds.api_secret });
}

/** Parsed Prometheus exposition: series text (`name{labels}`) → value. */
export type Scrape = Map<string, number>;

/** Scrapes `url/metrics`. */
export async function scrape(metricsUrl: string): Promise<Scrape> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const out: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** Sum of every series of metric `name` whose labels contain all of `labels`. */
export function sum(s: Scrape, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [k, v] of s) {
    if (k !== name && !k.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([l, x]) => k.includes(`${l}="${x}"`))) total += v;
  }
  return total;
}

/** The metrics URL the daemon logs at start. */
export async function metricsUrl(bot: BotProcess): Promise<string> {
  const l = await bot.waitFor((x) => x.msg === 'metrics and health endpoints up', 30_000, 'the metrics endpoint');
  return String(l['url']);
}

/** The venue's own view of the account (straight to the sim, not through any proxy). */
export interface VenueView {
  openOrders(): Promise<{ buy: number; sell: number }>;
  position(symbol: string): Promise<number>;
  fillCount(sinceMs: number): Promise<number>;
}

/** Logs in to the sim and returns the readers. */
export async function venueView(creds: SimCredentials): Promise<VenueView> {
  const auth = await fetch(`${creds.base_url}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: creds.api_key, api_secret: creds.api_secret, expiration_seconds: 86_400 }),
  });
  const { token } = (await auth.json()) as { token: string };
  const get = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${creds.base_url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!r.ok) throw new Error(`GET ${path}: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  return {
    async openOrders() {
      const b = await get<{ orders: { d: string }[] }>(`/orders/open-orders?limit=100&account_id=${creds.account_id}`);
      return { buy: b.orders.filter((o) => o.d === 'B').length, sell: b.orders.filter((o) => o.d === 'S').length };
    },
    async position(symbol) {
      const b = await get<{ positions: { symbol: string; signed_quantity: number }[] }>(`/api/positions?account_id=${creds.account_id}`);
      return b.positions.find((p) => p.symbol === symbol)?.signed_quantity ?? 0;
    },
    async fillCount(sinceMs) {
      const start = BigInt(sinceMs) * 1_000_000n;
      const end = BigInt(Date.now() + 60_000) * 1_000_000n;
      const b = await get<{ total_count: number }>(`/api/fills?account_id=${creds.account_id}&start_timestamp_ns=${start}&end_timestamp_ns=${end}&limit=1`);
      return b.total_count;
    },
  };
}

/** The daemon's "final positions" line. */
export function finalLine(bot: BotProcess): (LogLine & { positions: Record<string, number>; fills: number }) | undefined {
  return bot.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('final positions')) as (LogLine & { positions: Record<string, number>; fills: number }) | undefined;
}

/** One criterion: its figure, target and verdict. */
export interface Criterion {
  readonly name: string;
  readonly value: string;
  readonly target: string;
  readonly ok: boolean;
}

/**
 * Prints the criteria table and sets the exit code: 0 when all pass, 1 otherwise. It does not exit:
 * it runs inside the scenario's try, and exiting there skipped the finally that stops `mmbot sim`
 * (both scenarios left their venue process running). The scenario exits after its cleanup.
 */
export function report(title: string, criteria: readonly Criterion[], extra: Record<string, string | number> = {}): void {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of Object.entries(extra)) process.stdout.write(`  ${k.padEnd(44)} ${v}\n`);
  for (const c of criteria) process.stdout.write(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name.padEnd(40)} ${c.value.padStart(12)}   (target ${c.target})\n`);
  const failed = criteria.filter((c) => !c.ok).length;
  process.stdout.write(failed === 0 ? 'all criteria met\n' : `${failed} criterion(s) failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}
