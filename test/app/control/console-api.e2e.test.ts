import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command as ctl } from '../../../src/cli/commands/ctl.ts';
import { startDaemon, type Daemon } from '../../../src/app/live/daemon.ts';
import { builtinLookup } from '../../../src/app/live/strategies.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { LiveClock } from '../../../src/core/clock.ts';
import { createLogger } from '../../../src/obs/logger.ts';
import { venueRest, type VenueRest } from '../../e2e/venue-rest.ts';
import { controlledDaemonConfig } from './daemon-config.ts';

/*
 * The control API over real sockets: an in-process daemon (embedded local venue, fixed-spread on
 * EURUSD-PERP) with the console on; `mmbot ctl` and raw HTTP act on it, and the venue's own open
 * orders say whether the quotes really went away and came back.
 */

const TOKEN = 'test-token-5f1c9a-e83b27d0c4a91f6b';
const config = (halfSpreadTicks: number, seed = 7): string => controlledDaemonConfig({ tokenEnv: 'TEST_CONTROL_TOKEN', halfSpreadTicks, seed });

let dir: string;
let file: string;
let daemon: Daemon;
let url: string;
let venue: VenueRest;
const logLines: string[] = [];

const until = async (what: string, pred: () => Promise<boolean> | boolean, timeoutMs = 8_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const ours = async (): Promise<number> => (await venue.openOrders()).filter((o) => o.s === 'EURUSD-PERP').length;
const post = (path: string, body: unknown, token: string | null = TOKEN): Promise<Response> =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
const state = async (): Promise<{ strategies: { id: string; params: Record<string, unknown>; paused: boolean }[]; symbols: { quotes: { bids: { price: string }[] } }[] }> =>
  (await (await fetch(`${url}/api/v1/state`)).json()) as never;
const runCtl = async (...args: string[]): Promise<number> => {
  process.env.MMBOT_CONTROL_TOKEN = TOKEN;
  try {
    return await ctl.run([...args, '--url', url]);
  } finally {
    delete process.env.MMBOT_CONTROL_TOKEN;
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mmbot-console-'));
  file = join(dir, 'bot.yaml');
  writeFileSync(file, config(1));
  process.env.TEST_CONTROL_TOKEN = TOKEN;
  const strategies = await builtinLookup();
  const out = new Writable({
    write(chunk: Buffer, _e, cb) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  daemon = await startDaemon({ config: loadConfig(file, { env: process.env, strategies }), log: createLogger({ destination: out, pretty: false, level: 'info' }), clock: new LiveClock(), strategies });
  url = daemon.metricsUrl!;
  venue = await venueRest(daemon.venue.baseUrl, { api_key: daemon.venue.credentials.apiKey, api_secret: daemon.venue.credentials.apiSecret });
  await until('the strategy to quote at the venue', async () => (await ours()) === 4);
}, 30_000);

afterAll(async () => {
  await daemon?.stop('test over');
  delete process.env.TEST_CONTROL_TOKEN;
  rmSync(dir, { recursive: true, force: true });
});

describe('operator console API (real sockets)', () => {
  it('acting without the token (or with a wrong one) gets 401 and changes nothing', async () => {
    const none = await post('/api/v1/strategies/eurusd/pause', {}, null);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { message: string }).message).toMatch(/Authorization: Bearer/);
    const wrong = await post('/api/v1/cancel-all', {}, 'nope');
    expect(wrong.status).toBe(401);
    // 4 quotes stand (a cancel-all would have paused every strategy: 0 for good); a fill from the
    // synthetic flow may take one for a moment, so wait for the re-quote rather than read once.
    await until('the 4 quotes standing', async () => (await ours()) === 4, 3_000);
    expect((await state()).strategies[0]!.paused).toBe(false);
    // `mmbot ctl` without the env token is refused too (exit 1).
    expect(await ctl.run(['pause', 'eurusd', '--url', url])).toBe(1);
    await until('the 4 quotes standing', async () => (await ours()) === 4, 3_000);
    expect((await state()).strategies[0]!.paused).toBe(false);
  });

  it('ctl pause pulls every order of the strategy at the venue; resume brings them back', async () => {
    expect(await runCtl('pause', 'eurusd')).toBe(0);
    await until('0 open orders at the venue', async () => (await ours()) === 0);
    expect((await state()).strategies[0]!.paused).toBe(true);
    // It stays paused while the market moves.
    await new Promise((r) => setTimeout(r, 500));
    expect(await ours()).toBe(0);
    expect(await runCtl('resume', 'eurusd')).toBe(0);
    await until('4 open orders again', async () => (await ours()) === 4);
  });

  it('set with a bad value is refused with the path and reason and changes nothing; a good one applies live', async () => {
    const before = (await state()).strategies[0]!.params;
    const bad = await post('/api/v1/strategies/eurusd/params', { params: { halfSpreadTicks: -3 } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { message: string; problems: { path: string }[] };
    expect(body.message).toMatch(/refused \(nothing changed\): params\.halfSpreadTicks: /);
    expect(body.problems[0]!.path).toBe('params.halfSpreadTicks');
    expect((await state()).strategies[0]!.params).toEqual(before);
    expect(await runCtl('set', 'eurusd', 'halfSpreadTicks=oops')).toBe(1);
    expect(await runCtl('set', 'eurusd', 'levels=1')).toBe(0);
    expect((await state()).strategies[0]!.params.levels).toBe(1);
    await until('one level a side at the venue', async () => (await ours()) === 2);
    expect(await runCtl('set', 'eurusd', 'levels=2')).toBe(0);
    await until('two levels a side again', async () => (await ours()) === 4);
  });

  it('unknown strategy ids answer 404; reads are open, the token never appears in the logs', async () => {
    expect((await post('/api/v1/strategies/nope/pause', {})).status).toBe(404);
    expect((await fetch(`${url}/api/v1/state`)).status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/mmbot_control_actions_total\{action="pause",result="ok"\} [1-9]/);
    expect(metrics).toMatch(/mmbot_control_actions_total\{action="pause",result="unauthorized"\} [1-9]/);
    const actions = logLines.filter((l) => l.includes('"control: '));
    expect(actions.some((l) => l.includes('control: pause eurusd by') && l.includes(': ok: '))).toBe(true);
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });

  it('reload applies changed params, refuses a venue change or an invalid file, changing nothing', async () => {
    writeFileSync(file, config(1, 8));
    let r = await daemon.reload('test');
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/need a restart: venue\.sim\.seed/);
    writeFileSync(file, `${config(2)}\nbogus_key: 1\n`);
    r = await daemon.reload('test');
    expect(r.ok).toBe(false);
    expect((await state()).strategies[0]!.params.halfSpreadTicks).toBe(1);
    writeFileSync(file, config(2));
    expect(await runCtl('reload')).toBe(0);
    expect((await state()).strategies[0]!.params.halfSpreadTicks).toBe(2);
    expect(readFileSync(file, 'utf8')).toContain('halfSpreadTicks: 2');
  });

  it('cancel-all pulls everything and pauses; reset-kill on an armed switch is a no-op', async () => {
    expect(await runCtl('cancel-all')).toBe(0);
    await until('0 open orders', async () => (await ours()) === 0);
    expect(await runCtl('reset-kill')).toBe(0);
    expect(await runCtl('resume', 'eurusd')).toBe(0);
    await until('quotes back', async () => (await ours()) === 4);
  });
});
