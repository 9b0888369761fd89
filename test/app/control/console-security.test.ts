/** The console's routes on a real socket, with a stub controller: floods, hostile paths, stream clients (issue 24). */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthFailureLog } from '../../../src/app/control/auth-failures.ts';
import type { ActionName } from '../../../src/app/control/controller.ts';
import { consoleRoutes, type ConsoleRoutesDeps } from '../../../src/app/control/http.ts';
import { startHealthServer, type HealthServer } from '../../../src/obs/health-server.ts';

const TOKEN = 'console-security-test-token-4b8e1f0a9c27d563';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw HTTP request (fetch normalises paths and forbids some headers). */
export function raw(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Harness {
  readonly port: number;
  /** What the routes logged themselves (stream refusals and drops). */
  readonly logged: string[];
  readonly warnings: string[];
  readonly acted: { action: ActionName; target: string | null }[];
  readonly unauthorized: string[];
  /** Audit lines of authenticated requests that named no action. */
  readonly rejected: string[];
  advance(ms: number): void;
  refusals: AuthFailureLog;
}

async function start(over: Partial<ConsoleRoutesDeps> = {}): Promise<Harness> {
  const logged: string[] = [];
  let now = 0;
  const warnings: string[] = [];
  const acted: Harness['acted'] = [];
  const unauthorized: string[] = [];
  const rejected: string[] = [];
  const refusals = new AuthFailureLog({ warn: (_o, m) => void warnings.push(m ?? '') }, () => now, 60_000);
  const routes = consoleRoutes({
    controller: {
      act: async (action, target) => {
        acted.push({ action, target });
        return { status: 200, body: { ok: true, message: 'done' } };
      },
      unauthorized: (action, actor, reason) => {
        unauthorized.push(action);
        refusals.note(action, actor, reason);
      },
      rejected: (_actor, status, message) => void rejected.push(`${status} ${message}`),
    },
    token: TOKEN,
    readsRequireToken: false,
    state: () => ({ position: 42 }),
    history: () => ({ series: [] }),
    onChange: () => () => undefined,
    log: { warn: (_o, m) => void logged.push(m ?? '') },
    ...over,
  });
  server = await startHealthServer({ port: 0, registry: new Registry(), readiness: () => ({ ready: true, reasons: [] }), routes });
  return { port: server.port, logged, warnings, acted, unauthorized, rejected, refusals, advance: (ms) => void (now += ms) };
}

describe('console: unauthenticated floods (issue 24 #6)', () => {
  it('300 actions without a token: 300 × 401, every one counted, one line logged, then one summary line with the count', async () => {
    const h = await start();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 30 }, () => raw(h.port, 'POST', '/api/v1/strategies/a/pause')));
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(401));
    }
    expect(h.unauthorized).toHaveLength(300);
    expect(h.acted).toEqual([]);
    expect(h.warnings).toEqual([expect.stringMatching(/^control: pause by 127\.0\.0\.1:\d+ refused: missing-token$/)]);
    h.advance(60_000);
    h.refusals.flush();
    expect(h.warnings).toHaveLength(2);
    expect(h.warnings[1]).toMatch(/^control: 299 more unauthorized request\(s\) within 60 s \(last: pause by 127\.0\.0\.1:\d+: missing-token\)$/);
    h.refusals.flush();
    expect(h.warnings).toHaveLength(2);
  });

  it('a refusal after the interval is logged as it comes, after the summary of the previous one', async () => {
    const h = await start({ readsRequireToken: true });
    await raw(h.port, 'GET', '/api/v1/state');
    await raw(h.port, 'GET', '/api/v1/state', { authorization: 'Bearer wrong' });
    h.advance(61_000);
    await raw(h.port, 'GET', '/api/v1/state');
    expect(h.unauthorized).toEqual(['read', 'read', 'read']);
    expect(h.warnings.map((w) => w.replace(/:\d+/g, ':P'))).toEqual([
      'control: read by 127.0.0.1:P refused: missing-token',
      'control: 1 more unauthorized request(s) within 60 s (last: read by 127.0.0.1:P: wrong-token)',
      'control: read by 127.0.0.1:P refused: missing-token',
    ]);
  });
});

/** Opens an event stream; resolves once the status line and first bytes arrived. */
function openStream(port: number, readBody = true): Promise<{ req: ClientRequest; res: IncomingMessage; status: number }> {
  return new Promise((resolve, reject) => {
    // With the token: streams without it share only a quarter of the slots (issue 35 #9).
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/events', headers: { authorization: `Bearer ${TOKEN}` }, agent: false }, (res) => {
      if (readBody) res.resume();
      else res.pause();
      resolve({ req, res, status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
  });
}

const until = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
};

describe('console: event-stream clients are bounded (issue 24 #7)', () => {
  it('beyond max clients a stream gets 503 (logged); /readyz stays reachable; a closed stream frees its place', async () => {
    const h = await start({ stream: { maxClients: 3 } });
    const open = await Promise.all([openStream(h.port), openStream(h.port), openStream(h.port)]);
    expect(open.map((o) => o.status)).toEqual([200, 200, 200]);
    const refused = await raw(h.port, 'GET', '/api/v1/events', { authorization: `Bearer ${TOKEN}` });
    expect(refused).toEqual({ status: 503, body: '{"ok":false,"message":"too many event streams open (3); try again later"}' });
    expect(h.logged).toEqual(['console: event stream refused (503): 3 open, the most monitoring.control.max_stream_clients allows']);
    expect((await raw(h.port, 'GET', '/readyz')).status).toBe(200);
    open[0]!.req.destroy();
    await new Promise((r) => setTimeout(r, 50));
    let again = await openStream(h.port);
    for (let i = 0; again.status !== 200 && i < 50; i++) {
      again.req.destroy();
      await new Promise((r) => setTimeout(r, 20));
      again = await openStream(h.port);
    }
    expect(again.status).toBe(200);
    for (const o of [...open, again]) o.req.destroy();
  });

  it('a stream that stops reading is dropped once its unsent data passes the bound, and logged once', async () => {
    const big = { blob: 'x'.repeat(64 * 1024) };
    const h = await start({ stream: { maxClients: 1, maxBufferBytes: 256 * 1024, intervalMs: 5 }, state: () => big });
    const stalled = await openStream(h.port, false);
    expect(stalled.status).toBe(200);
    await until(() => h.logged.length > 0);
    expect(h.logged).toHaveLength(1);
    expect(h.logged[0]).toMatch(/^console: dropped an event stream that stopped reading \(\d+ bytes unsent, bound 262144\)$/);
    // Its place is free again: the one allowed stream can be opened.
    const next = await openStream(h.port);
    expect(next.status).toBe(200);
    next.req.destroy();
    stalled.req.destroy();
  }, 30_000);
});

const bearer = { authorization: `Bearer ${TOKEN}` };

describe('console: action routing (issue 24 #8)', () => {
  it('prototype names are not actions: 404 with an audit line (token) or 401 counted as "unknown" (no token); never 500', async () => {
    const h = await start();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await raw(h.port, 'POST', `/api/v1/strategies/a/${name}`, bearer);
      expect(r.status).toBe(404);
      expect(JSON.parse(r.body)).toEqual({ ok: false, message: `no such action: "${name}" (actions: pause, resume, params, flatten)` });
      expect((await raw(h.port, 'POST', `/api/v1/strategies/a/${name}`)).status).toBe(401);
    }
    expect(h.acted).toEqual([]);
    expect(h.rejected).toHaveLength(5);
    expect(h.rejected[0]).toBe('404 no such action: "constructor" (actions: pause, resume, params, flatten)');
    expect(h.unauthorized).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'unknown']);
  });

  it('a malformed % escape is 401 without the token and 400 with it, never 500', async () => {
    const h = await start();
    expect((await raw(h.port, 'POST', '/api/v1/strategies/%E0%A4%A/pause')).status).toBe(401);
    expect(h.unauthorized).toEqual(['unknown']);
    const r = await raw(h.port, 'POST', '/api/v1/strategies/%E0%A4%A/pause', bearer);
    expect(r).toEqual({ status: 400, body: '{"ok":false,"message":"malformed percent-encoding in the strategy id: \\"%E0%A4%A\\""}' });
    expect(h.acted).toEqual([]);
    const ok = await raw(h.port, 'POST', '/api/v1/strategies/eur%2Fusd/pause', bearer);
    expect(ok.status).toBe(200);
    expect(h.acted).toEqual([{ action: 'pause', target: 'eur/usd' }]);
  });

  it('property: any method and path, with or without the token, is answered 2xx/400/401/404/405 — never 500 — and acts only on a real action', async () => {
    const fc = await import('fast-check');
    const h = await start();
    const segment = fc.oneof(
      fc.constantFrom('pause', 'resume', 'params', 'flatten', 'constructor', '__proto__', 'prototype', '%', '%zz', '%E0%A4%A', '..', '%2e%2e', 'api', 'v1', 'strategies'),
      fc.string({ maxLength: 12 }).map((x) => encodeURIComponent(x)),
      fc.stringMatching(/^[A-Za-z0-9%._~-]{0,10}$/),
    );
    const path = fc.oneof(
      fc.array(segment, { maxLength: 6 }).map((p) => `/${p.join('/')}`),
      fc.tuple(segment, segment).map(([id, a]) => `/api/v1/strategies/${id}/${a}`),
      fc.constantFrom('/api/v1/cancel-all', '/api/v1/reload', '/api/v1/kill-switch/reset', '/api/v1/state', '/'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD'), path, fc.boolean(), async (method, p, withToken) => {
        const before = h.acted.length;
        const r = await raw(h.port, method, p, withToken ? bearer : {});
        expect([200, 400, 401, 404, 405]).toContain(r.status);
        const acted = h.acted.length - before;
        if (acted > 0) {
          expect(method).toBe('POST');
          expect(withToken).toBe(true);
          expect(r.status).toBe(200);
        }
        if (method === 'POST' && !withToken) expect(r.status).toBe(401);
      }),
      { numRuns: 300, seed: 24 },
    );
    for (const l of h.unauthorized) expect(['pause', 'resume', 'set', 'flatten', 'cancel-all', 'reset-kill', 'reload', 'read', 'unknown']).toContain(l);
  }, 60_000);
});
