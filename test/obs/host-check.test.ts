import { request } from 'node:http';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { readsNeedToken } from '../../src/app/control/auth.ts';
import { startMonitoring } from '../../src/app/monitoring.ts';
import type { EngineSnapshot } from '../../src/engine/index.ts';
import { startHealthServer, type HealthServer } from '../../src/obs/health-server.ts';
import { hostAllowList, isLoopbackHost } from '../../src/obs/host-check.ts';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** GET with a forged Host header (fetch does not let a caller choose it). */
function getWithHost(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const secretRoutes = {
  async handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
    if (req.url !== '/api/v1/state') return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"position":42}');
    return true;
  },
};

describe('DNS-rebinding guard on the metrics/console server (issue 24 #2)', () => {
  it('a foreign Host gets 421 on state and metrics; loopback names, IP literals and allowed names are served; probes always', async () => {
    server = await startHealthServer({ port: 0, registry: new Registry(), readiness: () => ({ ready: true, reasons: [] }), routes: secretRoutes, allowedHosts: ['mmbot.internal'] });
    const p = server.port;
    const rebound = await getWithHost(p, '/api/v1/state', `rebind.attacker.test:${p}`);
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('42');
    expect((await getWithHost(p, '/metrics', 'rebind.attacker.test')).status).toBe(421);
    expect((await getWithHost(p, '/api/v1/state', `localhost:${p}`))).toEqual({ status: 200, body: '{"position":42}' });
    expect((await getWithHost(p, '/api/v1/state', `127.0.0.1:${p}`)).status).toBe(200);
    expect((await getWithHost(p, '/api/v1/state', `[::1]:${p}`)).status).toBe(200);
    expect((await getWithHost(p, '/api/v1/state', '10.1.2.3:9464')).status).toBe(200);
    expect((await getWithHost(p, '/metrics', 'MMBOT.internal:9464')).status).toBe(200);
    expect((await getWithHost(p, '/readyz', 'rebind.attacker.test')).status).toBe(200);
    expect((await getWithHost(p, '/healthz', 'rebind.attacker.test')).status).toBe(200);
  });

  it('names: loopback recognised; a name that merely starts like one is not', () => {
    expect(['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', 'app.localhost'].map(isLoopbackHost)).toEqual([true, true, true, true, true, true]);
    expect(['0.0.0.0', '::', '10.0.0.5', 'example.com', '127.0.0.1.evil.test'].map(isLoopbackHost)).toEqual([false, false, false, false, false]);
    const allowed = hostAllowList('0.0.0.0');
    expect(['localhost:1', '127.0.0.1.evil.test', 'localhost.evil.test:9464', '[::1]:80', undefined].map(allowed)).toEqual([true, false, false, true, true]);
  });

  it('reads need the token whenever the server is bound beyond loopback', () => {
    expect(readsNeedToken(false, '127.0.0.1')).toBe(false);
    expect(readsNeedToken(true, '127.0.0.1')).toBe(true);
    expect(readsNeedToken(false, '0.0.0.0')).toBe(true);
    expect(readsNeedToken(false, '192.168.1.20')).toBe(true);
  });

  it('startMonitoring warns once when monitoring.host is not loopback, and not when it is', async () => {
    const snapshot = { killSwitch: { tripped: false, reason: null }, tradingState: 'ACTIVE', execution: { queued: 0, inFlight: 0, slowedDown: false, budgets: [] }, symbols: [] } as unknown as EngineSnapshot;
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_o: object, m?: string) => void warnings.push(m ?? ''), error: () => {} };
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const mon = await startMonitoring({
        config: { monitoring: { enabled: true, host, port: 0 }, rewards: { enabled: false, poll_interval_ms: 1000 }, bot: { strategies: [] } },
        engine: { events$: new Subject(), snapshot: () => snapshot },
        clients: {},
        log,
      });
      await mon.stop();
    }
    expect(warnings).toEqual([
      'monitoring.host 0.0.0.0 is not a loopback address: /metrics and the console are reachable from the network (console reads and /metrics need the control token; put a TLS proxy or firewall in front, see docs/security.md)',
    ]);
  });
});
