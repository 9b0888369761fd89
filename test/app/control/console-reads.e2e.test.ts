/**
 * Issue 35 #5 and #8 on a real daemon (embedded venue, fixed-spread on EURUSD-PERP): with
 * `reads_require_token: true` /metrics needs the token like the console's state (with the console
 * on, and with it off); `set halfSpreadTicks=1e300` is refused by its range and nothing changes;
 * the state says how long a symbol has gone without quotes (0 while it quotes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../../src/app/live/daemon.ts';
import { builtinLookup } from '../../../src/app/live/strategies.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { LiveClock } from '../../../src/core/clock.ts';
import { createLogger } from '../../../src/obs/logger.ts';
import { controlledDaemonConfig } from './daemon-config.ts';

const TOKEN = 'test-token-reads-7e21c0b9d4f8a365';
const bearer = { authorization: `Bearer ${TOKEN}` };
const dir = mkdtempSync(join(tmpdir(), 'mmbot-console-reads-'));
const daemons: Daemon[] = [];

async function start(name: string, control: string): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, controlledDaemonConfig({ tokenEnv: 'TEST_READS_TOKEN' }).replace(`control: { token: "\${TEST_READS_TOKEN}" }`, control));
  process.env.TEST_READS_TOKEN = TOKEN;
  const strategies = await builtinLookup();
  const quiet = new Writable({ write: (_c, _e, cb) => cb() });
  const d = await startDaemon({ config: loadConfig(file, { env: process.env, strategies }), log: createLogger({ destination: quiet, pretty: false, level: 'warn' }), clock: new LiveClock(), strategies });
  daemons.push(d);
  return d.metricsUrl!;
}

let url: string;
beforeAll(async () => {
  url = await start('reads', 'control: { token: "${TEST_READS_TOKEN}", reads_require_token: true }');
}, 30_000);
afterAll(async () => {
  for (const d of daemons) await d.stop('test over');
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('a daemon with reads_require_token (issue 35 #5)', () => {
  it('/metrics answers 401 without the token and 200 with it; /healthz stays open', async () => {
    const anon = await fetch(`${url}/metrics`);
    expect(anon.status).toBe(401);
    expect(await anon.text()).not.toContain('mmbot_position_contracts');
    const ok = await fetch(`${url}/metrics`, { headers: bearer });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('mmbot_position_contracts{symbol="EURUSD-PERP"}');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('with the console off, /metrics still follows the rule', async () => {
    const off = await start('console-off', 'control: { enabled: false, token: "${TEST_READS_TOKEN}", reads_require_token: true }');
    expect((await fetch(`${off}/metrics`)).status).toBe(401);
    expect((await fetch(`${off}/metrics`, { headers: bearer })).status).toBe(200);
  }, 30_000);
});

describe('a daemon refuses an absurd parameter and shows quoting gaps (issue 35 #8)', () => {
  it('set halfSpreadTicks=1e300 is 400 naming the bound; the params stay; noQuotesForS is 0 while it quotes', async () => {
    const r = await fetch(`${url}/api/v1/strategies/eurusd/params`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ params: { halfSpreadTicks: 1e300 } }) });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toContain('params.halfSpreadTicks: Too big: expected number to be <=100000');
    type State = { strategies: { params: { halfSpreadTicks: number } }[]; symbols: { noQuotesForS: number | null; working: unknown[] }[] };
    let s: State | undefined;
    const end = Date.now() + 15_000;
    do {
      s = (await (await fetch(`${url}/api/v1/state`, { headers: bearer })).json()) as State;
      if (s.symbols[0]!.working.length > 0) break;
      await new Promise((res) => setTimeout(res, 100));
    } while (Date.now() < end);
    expect(s!.strategies[0]!.params.halfSpreadTicks).toBe(1);
    expect(s!.symbols[0]!.noQuotesForS).toBe(0);
  }, 30_000);
});
