/** `mmbot sim` as a user runs it: a real process, its credentials file, HTTP + order WS, signals, exit codes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderWs } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-sim-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly err: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function mmbot(args: string[]): Run {
  const child = spawn(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return { child, out: () => out, err: () => err, exit };
}

/** Polls until `path` holds complete JSON (the process writes it once it listens). */
async function readJsonWhenReady(path: string, run: Run, timeoutMs: number): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(path)) {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
      } catch {
        // Caught mid-write: try again.
      }
    }
    if (run.child.exitCode !== null) throw new Error(`mmbot sim exited early (${run.child.exitCode}): ${run.err()}`);
    if (Date.now() > deadline) throw new Error(`no credentials file after ${timeoutMs} ms; stdout: ${run.out()} stderr: ${run.err()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('mmbot sim', () => {
  it('writes its credentials, serves HTTP and the order WS with them, and exits 0 promptly on SIGTERM', async () => {
    const credsPath = join(dir, 'c.json');
    const run = mmbot(['sim', '--port', '0', '--credentials-out', credsPath]);
    const creds = await readJsonWhenReady(credsPath, run, 25_000);
    expect(Object.keys(creds).sort()).toEqual(['account_id', 'api_key', 'api_secret', 'base_url', 'ws_url']);
    expect(creds.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(creds.ws_url).toBe(creds.base_url!.replace('http://', 'ws://'));
    expect(statSync(credsPath).mode & 0o777).toBe(0o600);

    const auth = await fetch(`${creds.base_url}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: creds.api_key, api_secret: creds.api_secret, expiration_seconds: 600 }),
    });
    expect(auth.status).toBe(200);
    const { token } = (await auth.json()) as { token: string };

    const ws = new OrderWs(new WebSocket(`${creds.ws_url}/orders/ws`, { headers: { authorization: `Bearer ${token}` } }));
    await ws.waitFor((f) => f.rid === 0, 10_000);
    // Far from the market so synthetic flow does not fill it; every frame is decoded by OrderWs.
    const reply = await ws.request({ t: 'p', s: 'EURUSD-PERP', d: 'B', q: 100, p: '1.0500', tif: 'GTC', po: false });
    expect(reply.err).toBeUndefined();
    const ack = await ws.event(reply.res.oid as string, 'n');
    expect(ack.o).toMatchObject({ s: 'EURUSD-PERP', o: 'ACCEPTED', q: 100, p: '1.0500' });

    const closed = ws.closed;
    const t0 = Date.now();
    run.child.kill('SIGTERM');
    const { code, signal } = await run.exit;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(run.out()).toContain('local venue stopped');
    await closed;
  }, 40_000);

  it('--credentials-out over an existing 0644 file leaves it 0600 (issue 24 #5)', async () => {
    const credsPath = join(dir, 'existing.json');
    writeFileSync(credsPath, 'old\n', { mode: 0o644 });
    chmodSync(credsPath, 0o644);
    const run = mmbot(['sim', '--port', '0', '--credentials-out', credsPath]);
    const creds = await readJsonWhenReady(credsPath, run, 25_000);
    expect(Object.keys(creds).sort()).toEqual(['account_id', 'api_key', 'api_secret', 'base_url', 'ws_url']);
    expect(statSync(credsPath).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.includes('existing.json'))).toEqual(['existing.json']);
    const stdoutEnd = new Promise((r) => run.child.stdout!.on('end', r));
    run.child.kill('SIGTERM');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    await stdoutEnd;
    // Issue 35 #10: with --credentials-out stdout names the file, never the secret (nor the key).
    expect(run.out()).toContain(`credentials (api_key, api_secret, account_id) written to ${credsPath} (mode 0600)`);
    expect(run.out()).not.toContain(creds.api_secret!);
    expect(run.out()).not.toContain('api_secret:');
  }, 40_000);

  it('exits 2 naming the flag for a bad --port', async () => {
    const run = mmbot(['sim', '--port', 'abc']);
    expect((await run.exit).code).toBe(2);
    expect(run.err()).toContain('--port must be an integer in [0, 65535], got "abc"');
  }, 20_000);

  it('exits 2 naming the port when --port is taken, not with a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const run = mmbot(['sim', '--port', String(port)]);
      expect((await run.exit).code).toBe(2);
      expect(run.err().split('\n')[0]).toBe(
        `mmbot sim: USAGE: --port ${port}: 127.0.0.1:${port} is already in use (another venue or mmbot?); pick another port, or 0 for any free one`,
      );
      expect(run.err()).not.toContain('unexpected error');
    } finally {
      await new Promise((r) => taken.close(r));
    }
  }, 30_000);

  it('exits 2 naming the file and the path for a bad --config value', async () => {
    const cfg = join(dir, 'venue.yaml');
    writeFileSync(cfg, 'rate_limit:\n  burst: lots\n');
    const run = mmbot(['sim', '--config', cfg]);
    expect((await run.exit).code).toBe(2);
    expect(run.err()).toContain(`${cfg}: rate_limit.burst:`);
    expect(run.err()).toContain('(got "lots")');
    const flow = join(dir, 'flow.yaml');
    writeFileSync(flow, 'flow:\n  takers: {}\n');
    const run2 = mmbot(['sim', '--config', flow]);
    expect((await run2.exit).code).toBe(2);
    expect(run2.err()).toContain(`${flow}: flow: unknown key`);
  }, 20_000);
});
