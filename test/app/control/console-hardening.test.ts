/** The console and /metrics under an anonymous local process (issue 35 #5 and #9), on real sockets. */
import { request, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerReadGuard } from '../../../src/app/control/auth.ts';
import { anonymousStreamCap, consoleRoutes, type ConsoleRoutesDeps } from '../../../src/app/control/http.ts';
import { startHealthServer, type HealthServer, type HealthServerOptions } from '../../../src/obs/health-server.ts';

const TOKEN = 'console-hardening-test-token-7d2c9e41b05a86f3';
const bearer = { authorization: `Bearer ${TOKEN}` };

let server: HealthServer | undefined;
const sockets: { destroy(): void }[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.destroy());
  await server?.close();
  server = undefined;
});

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

function raw(port: number, method: string, path: string, headers: Record<string, string | number> = {}, body?: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function openStream(port: number, headers: Record<string, string> = {}): Promise<{ req: ClientRequest; res: IncomingMessage; status: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/events', headers, agent: false }, (res) => {
      res.resume();
      resolve({ req, res, status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
    sockets.push(req);
  });
}

interface Harness {
  readonly port: number;
  readonly unauthorized: string[];
  readonly rejected: string[];
  readonly logged: string[];
}

async function start(over: Partial<ConsoleRoutesDeps> = {}, server0: Partial<HealthServerOptions> = {}): Promise<Harness> {
  const unauthorized: string[] = [];
  const rejected: string[] = [];
  const logged: string[] = [];
  const registry = new Registry();
  const routes = consoleRoutes({
    controller: {
      act: async () => ({ status: 200, body: { ok: true, message: 'done' } }),
      unauthorized: (action) => void unauthorized.push(action),
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
  server = await startHealthServer({ port: 0, registry, readiness: () => ({ ready: true, reasons: [] }), routes, ...server0 });
  return { port: server.port, unauthorized, rejected, logged };
}

describe('/metrics follows reads_require_token (issue 35 #5)', () => {
  it('reads require the token: /metrics without it is 401 (counted as a read), with it 200; probes stay open', async () => {
    const h = await start({ readsRequireToken: true });
    const anon = await raw(h.port, 'GET', '/metrics');
    expect(anon.status).toBe(401);
    expect(anon.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(anon.body)).toEqual({ ok: false, message: 'this needs the control token: send "Authorization: Bearer <token>" (mmbot ctl reads MMBOT_CONTROL_TOKEN)' });
    expect((await raw(h.port, 'GET', '/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect(h.unauthorized).toEqual(['read', 'read']);
    expect((await raw(h.port, 'GET', '/metrics', bearer)).status).toBe(200);
    expect((await raw(h.port, 'GET', '/healthz')).status).toBe(200);
    expect((await raw(h.port, 'GET', '/readyz')).status).toBe(200);
  });

  it('reads open (the default on loopback): /metrics answers without a token', async () => {
    const h = await start();
    expect((await raw(h.port, 'GET', '/metrics')).status).toBe(200);
  });

  it('without the console (control disabled) the bare guard refuses /metrics too', async () => {
    server = await startHealthServer({
      port: 0,
      registry: new Registry(),
      readiness: () => ({ ready: true, reasons: [] }),
      routes: { handle: () => Promise.resolve(false), authorizeRead: bearerReadGuard(TOKEN) },
    });
    expect((await raw(server.port, 'GET', '/metrics')).status).toBe(401);
    expect((await raw(server.port, 'GET', '/metrics', bearer)).status).toBe(200);
  });
});

describe('event stream slots (issue 35 #9)', () => {
  it('32 anonymous streams get 8 slots; the operator with the token still gets one, up to the 32 total', async () => {
    const h = await start();
    expect(anonymousStreamCap(32)).toBe(8);
    const anon = await Promise.all(Array.from({ length: 32 }, () => openStream(h.port)));
    expect(anon.filter((s) => s.status === 200)).toHaveLength(8);
    expect(anon.filter((s) => s.status === 503)).toHaveLength(24);
    expect(h.logged).toHaveLength(24);
    expect(h.logged[0]).toBe(
      'console: event stream without the token refused (503): 8 open, the most for streams without the token (a quarter of monitoring.control.max_stream_clients; the rest is kept for the token)',
    );
    const operator = await Promise.all(Array.from({ length: 24 }, () => openStream(h.port, bearer)));
    expect(operator.map((s) => s.status)).toEqual(Array(24).fill(200));
    expect((await openStream(h.port, bearer)).status).toBe(503);
  });

  it('without a configured token there is no one to reserve for: every slot is open to every stream', async () => {
    const h = await start({ token: '', stream: { maxClients: 4 } });
    const open = await Promise.all(Array.from({ length: 5 }, () => openStream(h.port)));
    expect(open.map((s) => s.status).sort()).toEqual([200, 200, 200, 200, 503]);
  });

  it('HEAD /api/v1/events answers at once and holds no slot', async () => {
    const h = await start({ stream: { maxClients: 1 } });
    for (let i = 0; i < 5; i++) {
      const r = await raw(h.port, 'HEAD', '/api/v1/events');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/event-stream');
      expect(r.body).toBe('');
    }
    expect((await openStream(h.port)).status).toBe(200);
  });
});

describe('the page cannot be framed (issue 35 #9)', () => {
  it("the page and the API answer frame-ancestors 'none' and X-Frame-Options DENY", async () => {
    const h = await start();
    const page = await raw(h.port, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const state = await raw(h.port, 'GET', '/api/v1/state');
    expect(state.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(state.headers['x-frame-options']).toBe('DENY');
  });
});

describe('request bodies over 64 KiB (issue 35 #9)', () => {
  it('a 65,537-byte body gets 413 naming the limit (declared length or chunked), not a reset', async () => {
    const h = await start();
    const big = Buffer.alloc(64 * 1024 + 1, 0x20);
    const declared = await raw(h.port, 'POST', '/api/v1/cancel-all', { ...bearer, 'content-type': 'application/json', 'content-length': big.length }, big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ ok: false, message: 'body of 65537 bytes is over the 65536-byte limit' });
    const chunked = await raw(h.port, 'POST', '/api/v1/cancel-all', { ...bearer, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, big);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toEqual({ ok: false, message: 'body over the 65536-byte limit' });
    expect(h.rejected).toEqual(['413 body of 65537 bytes is over the 65536-byte limit', '413 body over the 65536-byte limit']);
  });
});

/** Resolves when the socket is closed by the server. */
const closed = (s: Socket): Promise<void> => new Promise((r) => (s.destroyed ? r() : s.once('close', () => r())));

describe('monitoring server connections (issue 35 #9)', () => {
  it('beyond the cap a connection is closed on accept; an idle socket (no byte sent) is closed after the idle timeout; a live stream is not', async () => {
    const h = await start({ stream: { maxClients: 4, intervalMs: 50 } }, { maxConnections: 5, idleTimeoutMs: 300 });
    const stream = await openStream(h.port, bearer);
    expect(stream.status).toBe(200);
    const idle = Array.from({ length: 8 }, () => {
      const s = connect(h.port, '127.0.0.1');
      s.on('error', () => undefined);
      sockets.push(s);
      return s;
    });
    // 1 stream + 4 idle = the cap of 5: the other 4 are closed at once, the 4 idle ones after 300 ms.
    await Promise.all(idle.map(closed));
    let events = 0;
    stream.res.on('data', () => events++);
    const before = events;
    await new Promise((r) => setTimeout(r, 600));
    expect(stream.res.destroyed).toBe(false);
    expect(events).toBeGreaterThan(before);
    expect((await raw(h.port, 'GET', '/readyz')).status).toBe(200);
  }, 20_000);
});
