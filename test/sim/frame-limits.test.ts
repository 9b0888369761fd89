import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { wsSocketFactory } from '../../src/client/socket.ts';
import { startVenue } from '../../src/sim/index.ts';
import { MAX_CLIENT_FRAME_BYTES, MAX_VENUE_FRAME_BYTES } from '../../src/wire/index.ts';

/** A text frame header announcing `length` bytes (64-bit length form), masked as a client must. */
function clientFrameHeader(length: number): Buffer {
  const b = Buffer.alloc(14);
  b[0] = 0x81;
  b[1] = 0x80 | 127;
  b.writeBigUInt64BE(BigInt(length), 2);
  b.writeUInt32BE(0x01020304, 10); // mask key
  return b;
}

describe('WebSocket frames are bounded (issue 24 #3)', () => {
  let venue: Awaited<ReturnType<typeof startVenue>>;
  let token: string;
  const warnings: string[] = [];
  beforeAll(async () => {
    venue = await startVenue({ plugins: [], warn: (line) => void warnings.push(line) });
    const r = await fetch(`${venue.baseUrl}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: venue.credentials.api_key, api_secret: venue.credentials.api_secret, expiration_seconds: 3600 }),
    });
    token = ((await r.json()) as { token: string }).token;
  });
  afterAll(() => venue.stop());

  const connect = async (): Promise<WebSocket> => {
    const ws = new WebSocket(`${venue.wsUrl}/orders/ws`, { headers: { authorization: `Bearer ${token}` } });
    await once(ws, 'open');
    return ws;
  };

  it('the venue closes a connection that sends 2 × maxPayload with 1009, logs it once, and stays up', async () => {
    const ws = await connect();
    const rss0 = process.memoryUsage().rss;
    ws.send('x'.repeat(2 * MAX_CLIENT_FRAME_BYTES));
    const [code] = (await once(ws, 'close')) as [number];
    expect(code).toBe(1009);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(20 * 1024 * 1024);
    const health = await fetch(`${venue.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(warnings).toEqual(['venue: /orders/ws connection from 127.0.0.1 closed with 1009: Max payload size exceeded']);
    // A frame of exactly the bound is accepted (answered with an error frame, not closed).
    const ok = await connect();
    ok.send('x'.repeat(MAX_CLIENT_FRAME_BYTES));
    const [reply] = (await once(ok, 'message')) as [Buffer];
    expect(reply.toString().length).toBeGreaterThan(0);
    expect(ok.readyState).toBe(WebSocket.OPEN);
    ok.close();
  });

  it('a header announcing 95 MB is refused before any of it is buffered (the venue logs one line per connection)', async () => {
    const ws = await connect();
    const raw = (ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.write(clientFrameHeader(95 * 1024 * 1024));
    raw.write(Buffer.alloc(64 * 1024));
    const [code] = (await once(ws, 'close')) as [number];
    expect(code).toBe(1009);
    expect(warnings).toHaveLength(2);
  });
});

describe('the daemon\'s client sockets are bounded too', () => {
  it('a venue frame over MAX_VENUE_FRAME_BYTES closes the client socket with 1009 and reports why', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    const port = (wss.address() as AddressInfo).port;
    const serverClose = new Promise<number>((resolve) =>
      wss.on('connection', (s) => {
        s.on('close', (code) => resolve(code));
        // Only the header of a 2 × bound frame (unmasked, server → client) and a little data.
        const h = Buffer.alloc(10);
        h[0] = 0x81;
        h[1] = 127;
        h.writeBigUInt64BE(BigInt(2 * MAX_VENUE_FRAME_BYTES), 2);
        const raw = (s as unknown as { _socket: import('node:net').Socket })._socket;
        raw.write(Buffer.concat([h, Buffer.alloc(1024)]));
      }),
    );
    const errors: string[] = [];
    const closed = new Promise<void>((resolve) =>
      wsSocketFactory(`ws://127.0.0.1:${port}/`, {}, { onOpen: () => {}, onMessage: () => {}, onClose: () => resolve(), onError: (e) => void errors.push(e.message) }),
    );
    await closed;
    expect(await serverClose).toBe(1009);
    expect(errors).toEqual([`the server sent a frame over ${MAX_VENUE_FRAME_BYTES} bytes: closed with 1009 (message too big)`]);
    wss.close();
  });
});
