import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseReferenceLine, startReferenceFeed } from '../../src/client/reference-feed.ts';
import { LiveClock } from '../../src/core/clock.ts';
import type { PriceObserved } from '../../src/domain/events.ts';
import { testInstrument } from '../record/fixtures.ts';
import { until } from '../support/venue-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-ref-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const inst = testInstrument('XAU-PERP', '0.1', 1);

describe('reference line format', () => {
  it('parses {"ts","price"} into fractional ticks and names bad fields', () => {
    expect(parseReferenceLine('{"ts":1000,"price":"4012.55","venue":"x"}', { name: 'lmax', instrument: inst }, 1001)).toEqual({
      type: 'price', symbol: inst.symbol, source: 'lmax', priceTicks: 40125.5, tsEvent: 1000, tsRecv: 1001,
    });
    expect(parseReferenceLine('{"ts":1000,"price":4012.5}', { name: 'lmax', instrument: inst }, 1)).toMatchObject({ priceTicks: 40125 });
    expect(parseReferenceLine('{"price":"1"}', { name: 'lmax', instrument: inst }, 1)).toBe('ts: expected epoch milliseconds, got undefined');
    expect(parseReferenceLine('{"ts":1,"price":"abc"}', { name: 'lmax', instrument: inst }, 1)).toBe('price: expected a decimal string, got "abc"');
    expect(parseReferenceLine('nope', { name: 'lmax', instrument: inst }, 1)).toBe('not JSON: nope');
  });
});

describe('reference feeds (real file and socket I/O)', () => {
  it('follows a file: the newest existing line, then appended lines; bad lines are reported and skipped', async () => {
    const path = join(dir, 'ref.jsonl');
    writeFileSync(path, '{"ts":1,"price":"4000.0"}\n{"ts":2,"price":"4000.1"}\n');
    const errors: string[] = [];
    const feed = startReferenceFeed({ name: 'file-ref', instrument: inst, source: { file: path, pollMs: 5 } }, new LiveClock(), (m) => errors.push(m));
    const got: PriceObserved[] = [];
    feed.prices$.subscribe((p) => got.push(p));
    await until(() => got.length === 1, 3_000, 'the newest existing line');
    expect(got[0]).toMatchObject({ source: 'file-ref', priceTicks: 40001, tsEvent: 2 });
    appendFileSync(path, '{"ts":3,"price":"4000.2"}\n{"ts":4,"pri');
    appendFileSync(path, 'ce":"4000.3"}\ngarbage\n');
    await until(() => got.length === 3 && errors.length === 1, 3_000, 'the appended lines');
    expect(got.slice(1).map((p) => [p.tsEvent, p.priceTicks])).toEqual([[3, 40002], [4, 40003]]);
    expect(errors[0]).toContain('reference feed file-ref: not JSON: garbage');
    await feed.stop();
  });

  it('reads a WebSocket: sends the subscribe text, emits every line, reconnects after a drop', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    const port = (wss.address() as { port: number }).port;
    const subscribes: string[] = [];
    const clients: WebSocket[] = [];
    wss.on('connection', (ws) => {
      clients.push(ws);
      ws.on('message', (m) => {
        subscribes.push(m.toString());
        ws.send('{"ts":10,"price":"4001.0"}\n{"ts":11,"price":"4001.5"}');
      });
    });
    const feed = startReferenceFeed({ name: 'ws-ref', instrument: inst, source: { ws: `ws://127.0.0.1:${port}`, subscribe: '{"op":"sub","symbol":"XAU"}', reconnectMs: 20 } }, new LiveClock(), () => undefined);
    const got: PriceObserved[] = [];
    feed.prices$.subscribe((p) => got.push(p));
    await until(() => got.length === 2, 3_000, 'the first message');
    expect(got.map((p) => [p.source, p.tsEvent, p.priceTicks])).toEqual([['ws-ref', 10, 40010], ['ws-ref', 11, 40015]]);
    clients[0]!.terminate();
    await until(() => got.length === 4, 3_000, 'the message after reconnecting');
    expect(subscribes).toEqual(['{"op":"sub","symbol":"XAU"}', '{"op":"sub","symbol":"XAU"}']);
    await feed.stop();
    await new Promise<void>((r) => wss.close(() => r()));
  });
});
