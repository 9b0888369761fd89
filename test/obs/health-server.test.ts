import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from '../../src/obs/health-server.ts';
import { createBotMetrics } from '../../src/obs/metrics.ts';
import type { Readiness } from '../../src/obs/readiness.ts';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('health server', () => {
  it('serves /metrics, /healthz and /readyz (200 when ready, 503 with reasons otherwise)', async () => {
    const registry = new Registry();
    createBotMetrics(registry).position('X', 4, 400);
    let readiness: Readiness = { ready: false, reasons: ['market-data stream disconnected'] };
    server = await startHealthServer({ port: 0, registry, readiness: () => readiness });
    expect(server.port).toBeGreaterThan(0);

    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('mmbot_position_contracts{symbol="X"} 4');

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ ready: false, reasons: ['market-data stream disconnected'] });

    readiness = { ready: true, reasons: [] };
    const ready = await fetch(`${server.url}/readyz?verbose=1`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, reasons: [] });
  });

  it('answers 404 on unknown paths and 405 on other methods', async () => {
    server = await startHealthServer({ port: 0, registry: new Registry(), readiness: () => ({ ready: true, reasons: [] }) });
    const nf = await fetch(`${server.url}/nope`);
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as { endpoints: string[] }).endpoints).toContain('/readyz');
    const post = await fetch(`${server.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.arrayBuffer();
  });

  it('rejects when the port is taken, naming the error', async () => {
    server = await startHealthServer({ port: 0, registry: new Registry(), readiness: () => ({ ready: true, reasons: [] }) });
    await expect(startHealthServer({ port: server.port, registry: new Registry(), readiness: () => ({ ready: true, reasons: [] }) })).rejects.toThrow(/EADDRINUSE/);
  });

  it('a failing collector answers 500 instead of crashing', async () => {
    const registry = new Registry();
    const { Gauge } = await import('prom-client');
    new Gauge({ name: 'mmbot_broken_ratio', help: 'x', registers: [registry], collect() { throw new Error('collector broke'); } });
    server = await startHealthServer({ port: 0, registry, readiness: () => ({ ready: true, reasons: [] }) });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'collector broke' });
  });
});
