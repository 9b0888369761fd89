import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestClient } from '../../src/client/rest-client.ts';
import { LiveClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';

/*
 * REST response bodies are capped (issue 35, item 4): a 400 MB answer to /api/instruments took the
 * daemon to 1.39 GB before it failed. Over a real loopback server: a body over the cap fails with
 * RESPONSE_TOO_LARGE naming the request and the cap, whether its content-length announces it
 * (nothing read) or it arrives chunked without one (reading stops at the cap); no retry.
 */

const CAP = 64 * 1024;
/** 4 MiB of an endless-looking JSON array: a valid body, only far too large. */
const HUGE = `{"instruments":[${Array.from({ length: 40_000 }, () => '{"symbol":"X-PERP","pad":"' + 'x'.repeat(80) + '"}').join(',')}]}`;

let server: Server;
let baseUrl: string;
const hits = { announced: 0, chunked: 0 };
/** How the next /api/instruments answer is sent: with its content-length, or chunked without one. */
let mode: 'announced' | 'chunked' = 'announced';
/** Bytes the chunked route managed to write before the client dropped the connection. */
let chunkedWritten = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/api/instruments') && mode === 'announced') {
      hits.announced++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(HUGE) });
      res.end(HUGE);
      return;
    }
    if (req.url?.startsWith('/api/instruments')) {
      // No content-length: the size shows only while reading. Written 16 KiB at a time.
      hits.chunked++;
      res.writeHead(200, { 'content-type': 'application/json' });
      let at = 0;
      const more = (): void => {
        while (at < HUGE.length) {
          const piece = HUGE.slice(at, at + 16 * 1024);
          at += piece.length;
          chunkedWritten = at;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (at = HUGE.length));
      more();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failure(p: Promise<unknown>): Promise<MmError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MmError) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

describe('REST response body cap (issue 35, item 4)', () => {
  it('refuses a body whose content-length is over the cap, naming the request and the cap, without retrying', async () => {
    const rest = new RestClient({ baseUrl, clock: new LiveClock(), maxResponseBytes: CAP });
    try {
      const e = await failure(rest.loadInstruments());
      // Old code: the 4 MiB body was read whole (and then decoded).
      expect(e.code).toBe('RESPONSE_TOO_LARGE');
      expect(e.message).toBe(`GET /api/instruments: response body over the 65536-byte cap (venue.max_response_bytes): its content-length is ${Buffer.byteLength(HUGE)} bytes`);
      expect(e.details).toMatchObject({ method: 'GET', path: '/api/instruments', limitBytes: CAP, bytes: Buffer.byteLength(HUGE), announced: true });
      expect(hits.announced).toBe(1);
    } finally {
      await rest.close();
    }
  });

  it('stops reading a chunked body at the cap', async () => {
    const rest = new RestClient({ baseUrl, clock: new LiveClock(), maxResponseBytes: CAP });
    try {
      mode = 'chunked';
      const e = await failure(rest.loadInstruments());
      expect(e.code).toBe('RESPONSE_TOO_LARGE');
      expect(e.message).toMatch(/^GET \/api\/instruments: response body over the 65536-byte cap \(venue\.max_response_bytes\): more than 65536 bytes arrived \(\d+ read, reading stopped\)$/);
      // Read: the cap plus at most the chunk that crossed it.
      expect(e.details['bytes'] as number).toBeGreaterThan(CAP);
      expect(e.details['bytes'] as number).toBeLessThanOrEqual(CAP + 64 * 1024);
      expect(hits.chunked).toBe(1);
    } finally {
      await rest.close();
    }
    // The server did not get to write the whole 4 MiB: the client dropped the connection.
    await new Promise((r) => setTimeout(r, 50));
    expect(chunkedWritten).toBeLessThan(HUGE.length);
  });

  it('reads a body within the cap as before', async () => {
    const rest = new RestClient({ baseUrl, clock: new LiveClock(), maxResponseBytes: Buffer.byteLength(HUGE) });
    try {
      // Under the cap, the body is read and decoded: here it fails decoding (not the venue's shape), not the cap.
      const e = await failure(rest.loadInstruments());
      expect(e.code).toBe('DECODE_FAILED');
    } finally {
      await rest.close();
    }
  });
});
