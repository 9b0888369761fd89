import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { LiveClock } from '../../src/core/clock.ts';
import { ReconnectingSocket, type DownInfo } from '../../src/client/reconnecting-socket.ts';
import { wsSocketFactory } from '../../src/client/socket.ts';

/*
 * Issue 12 item 4 over real sockets: WebSocket pings and pongs count as liveness in the idle
 * watchdog. A server that sends no data frames but pings us, or that answers our probe pings, keeps
 * the session; a server that answers nothing loses it.
 */

const servers: WebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function server(opts: { pingEveryMs?: number; autoPong: boolean }): Promise<string> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong: opts.autoPong });
  servers.push(wss);
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (ws) => {
    if (opts.pingEveryMs) {
      const t = setInterval(() => ws.ping(), opts.pingEveryMs);
      ws.on('close', () => clearInterval(t));
    }
  });
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/orders/ws`;
}

async function watch(url: string, idleTimeoutMs: number, forMs: number): Promise<{ downs: DownInfo[]; rs: ReconnectingSocket }> {
  const downs: DownInfo[] = [];
  const rs = new ReconnectingSocket({
    name: 't',
    clock: new LiveClock(),
    factory: wsSocketFactory,
    prepare: async () => ({ url, headers: {} }),
    backoff: { initialMs: 50, maxMs: 100, multiplier: 2, jitter: 0 },
    random: () => 0.5,
    connectTimeoutMs: 2_000,
    idleTimeoutMs,
    onOpen: () => undefined,
    onFrame: () => undefined,
    onDown: (d) => downs.push(d),
  });
  rs.start();
  await new Promise((r) => setTimeout(r, forMs));
  await rs.stop();
  return { downs: downs.filter((d) => d.reason !== 'stopped'), rs };
}

describe('idle watchdog over real sockets', () => {
  it('a server that only pings keeps the session', async () => {
    const { downs, rs } = await watch(await server({ pingEveryMs: 100, autoPong: true }), 400, 1_500);
    expect(downs).toEqual([]);
    expect(rs.pings).toBeGreaterThan(3);
  });

  it('a silent server that answers our probe pings keeps the session', async () => {
    const { downs, rs } = await watch(await server({ autoPong: true }), 400, 1_500);
    expect(downs).toEqual([]);
    expect(rs.probes).toBeGreaterThan(0);
    expect(rs.pongs).toBeGreaterThan(0);
  });

  it('a server that answers nothing is replaced', async () => {
    const { downs } = await watch(await server({ autoPong: false }), 400, 1_500);
    expect(downs.length).toBeGreaterThan(0);
    expect(downs[0]!.reason).toContain('no frame, ping or pong');
  });
});
