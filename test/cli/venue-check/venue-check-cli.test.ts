/**
 * `mmbot venue check` end to end: the CLI as a child process against a local venue over real
 * sockets (REST, /orders/ws, /md/ws), with the config's secrets from the environment as in
 * production.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../../src/core/clock.ts';
import { RestClient } from '../../../src/client/rest-client.ts';
import { collect } from '../../../src/client/paging.ts';
import { startVenue, type RunningVenue } from '../../../src/sim/index.ts';

const ROOT = join(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-venue-check-'));
const CONFIG = join(dir, 'bot.yaml');
const PRODUCTION_CONFIG = join(dir, 'production.yaml');
const EMBEDDED_CONFIG = join(dir, 'embedded.yaml');
const CHECKS = ['rest host', 'authentication', 'permissions', 'symbols', 'clock skew', 'order socket', 'market-data socket', 'rate budget'];

function configText(baseUrl: string): string {
  return [
    'venue:',
    '  mode: remote',
    `  base_url: ${baseUrl}`,
    '  api_key: ${VC_API_KEY}',
    '  api_secret: ${VC_API_SECRET}',
    'bot:',
    '  strategies:',
    '    - symbol: EURUSD-PERP',
    '      strategy: fixed-spread',
    '      params: { levels: 1, halfSpreadBps: 3, size: 100, maxPosition: 500 }',
    '',
  ].join('\n');
}

let venue: RunningVenue;
beforeAll(async () => {
  venue = await startVenue({ port: 0, config: { instruments: { only: ['EURUSD-PERP'] } } });
  writeFileSync(CONFIG, configText('${VC_BASE_URL}'));
  writeFileSync(PRODUCTION_CONFIG, configText('https://gateway.architect.exchange'));
  // An embedded venue limiting each user to 5 order requests/s, under the default budget's 8/s.
  writeFileSync(
    EMBEDDED_CONFIG,
    configText('x').replace(/venue:[\s\S]*?bot:/, 'venue:\n  mode: embedded-sim\n  sim:\n    knobs: { rate_limit: { burst: 10, per_second: 5 } }\nbot:'),
  );
}, 20_000);
afterAll(async () => {
  await venue?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `mmbot venue check` in a child process; resolves with its exit code and output. */
function check(args: readonly string[], secret = venue.credentials.api_secret, over: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, VC_BASE_URL: venue.baseUrl, VC_API_KEY: venue.credentials.api_key, VC_API_SECRET: secret, ...over };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'venue', 'check', ...args], { cwd: ROOT, env, timeout: 60_000 }, (e, out, err) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, out, err });
    });
  });
}

/** The report lines by check name: `{ 'rest host': '✓', ... }`. */
function marks(out: string): Record<string, string> {
  const m: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const hit = /^([✓✗-]) ([a-z -]+): /.exec(line);
    if (hit) m[hit[2]!] = hit[1]!;
  }
  return m;
}

describe('mmbot venue check', () => {
  it('passes every check against a local venue: exit 0, eight ✓', async () => {
    const r = await check(['--config', CONFIG]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(marks(r.out)).toEqual(Object.fromEntries(CHECKS.map((c) => [c, '✓'])));
    expect(r.out).toContain('✓ symbols: EURUSD-PERP (tick 0.0001, min 100, OPEN)');
    expect(r.out).toContain('✓ rate budget: order entry at most 8/s, burst 20 (budgets user-orders); venue per user 10/s, burst 100');
    expect(r.out).toContain('all 8 checks passed');
  }, 60_000);

  it('fails naming authentication with a wrong secret: exit 1, ✗ authentication, the checks behind it skipped', async () => {
    const r = await check(['--config', CONFIG], 'not-the-secret');
    expect(r.code).toBe(1);
    expect(marks(r.out)).toEqual({
      'rest host': '✓',
      authentication: '✗',
      permissions: '-',
      symbols: '-',
      'clock skew': '✓',
      'order socket': '-',
      'market-data socket': '-',
      'rate budget': '✓',
    });
    expect(r.out).toContain('✗ authentication: the venue refused the API key or secret (UNAUTHORIZED: POST /api/authenticate failed with HTTP 401');
    expect(r.err).toMatch(/^mmbot venue check: FAILED: authentication \(1 of 8 checks failed\)/);
    expect(r.out + r.err).not.toContain('not-the-secret');
  }, 60_000);

  it('--place-test places one post-only bid and cancels it: nothing is left open at the venue', async () => {
    const r = await check(['--config', CONFIG, '--place-test']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(marks(r.out)['place test']).toBe('✓');
    expect(r.out).toContain('all 9 checks passed');
    const oid = /post-only bid (\S+) for 100 EURUSD-PERP at (\S+) placed and cancelled; none left open/.exec(r.out);
    expect(oid).not.toBeNull();
    const rest = new RestClient({ baseUrl: venue.baseUrl, clock: new LiveClock(), credentials: { apiKey: venue.credentials.api_key, apiSecret: venue.credentials.api_secret } });
    try {
      await rest.loadInstruments();
      expect(await rest.openOrders()).toEqual([]);
      const history = await collect(rest.allOrderHistory({ order_id: oid![1]! }));
      expect(history.map((o) => [o.state, o.tag, o.side, o.qty, o.filledQty])).toEqual([['CANCELED', 'mmcheck', 'buy', 100, 0]]);
    } finally {
      await rest.close();
    }
  }, 60_000);

  it('a key without can_trade fails naming permissions and the account', async () => {
    const rest = new RestClient({ baseUrl: venue.baseUrl, clock: new LiveClock(), credentials: { apiKey: venue.credentials.api_key, apiSecret: venue.credentials.api_secret } });
    const readOnly = await rest.createApiKey({ permissions: { can_read: true } }).finally(() => rest.close());
    const r = await check(['--config', CONFIG], readOnly.api_secret, { VC_API_KEY: readOnly.api_key });
    expect(r.code).toBe(1);
    expect(marks(r.out)).toMatchObject({ authentication: '✓', permissions: '✗', 'order socket': '✓' });
    expect(r.out).toContain(`✗ permissions: the key lacks can_trade on account ${venue.credentials.account_id} (user `);
    expect(r.err).toContain('FAILED: permissions (1 of 8 checks failed)');
  }, 60_000);

  it('a host that does not answer fails at the rest host; every check that needs it is skipped', async () => {
    const closed = await startVenue({ port: 0, config: { instruments: { only: ['EURUSD-PERP'] } } });
    const url = closed.baseUrl;
    await closed.stop();
    const r = await check(['--config', CONFIG], venue.credentials.api_secret, { VC_BASE_URL: url });
    expect(r.code).toBe(1);
    expect(Object.entries(marks(r.out)).filter(([, m]) => m === '-').map(([n]) => n)).toEqual(['authentication', 'permissions', 'symbols', 'clock skew', 'order socket', 'market-data socket']);
    expect(r.out).toContain(`✗ rest host: ${url}/api/health did not answer: NETWORK_ERROR`);
    expect(r.err).toContain('FAILED: rest host (1 of 8 checks failed)');
  }, 60_000);

  it('an embedded venue is checked against its own rate limit: 8/s of budget over its 5/s fails the rate budget', async () => {
    const r = await check(['--config', EMBEDDED_CONFIG]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^venue check: http:\/\/127\.0\.0\.1:\d+ \(loopback host, embedded-sim; EURUSD-PERP\)/);
    expect(marks(r.out)).toEqual({ ...Object.fromEntries(CHECKS.map((c) => [c, '✓'])), 'rate budget': '✗' });
    expect(r.out).toContain("✗ rate budget: budgets (user-orders) allow 8 order requests/s, over the venue's 5/s per user: lower execution.budgets[].refill_per_sec");
  }, 60_000);

  it('--place-test on a production host is refused without --yes, before anything is sent (exit 2)', async () => {
    const r = await check(['--config', PRODUCTION_CONFIG, '--place-test']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('--place-test on the production host gateway.architect.exchange would place a real order: add --yes to confirm');
  }, 60_000);
});
