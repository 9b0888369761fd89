import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { MmError } from '../../src/core/errors.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { BookUpdated, MarketEvent } from '../../src/domain/events.ts';
import { createRecordingWriter, loadColumnar, openRecording, readRecording, recordingHeader, KIND } from '../../src/record/index.ts';
import { testInstrument } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-rec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const S = asSymbol('EURUSD-PERP');
const book = (t: number, bids: [number, number][], asks: [number, number][]): BookUpdated => ({
  type: 'book',
  symbol: S,
  level: 2,
  isSnapshot: true,
  bids: bids.map(([p, q]) => ({ priceTicks: p, qty: q })),
  asks: asks.map(([p, q]) => ({ priceTicks: p, qty: q })),
  tsEvent: t,
  tsRecv: t + 2,
});

const events: MarketEvent[] = [
  book(1000, [[11380, 500], [11379, 300]], [[11382, 400]]),
  book(1010, [[11380, 400], [11379, 300]], [[11382, 400]]),
  { type: 'trade', symbol: S, priceTicks: 11382, qty: 100, aggressor: 'buy', tsEvent: 1020, tsRecv: 1021.5 },
  book(1030, [[11381, 100], [11380, 400]], [[11382, 300]]),
  {
    type: 'ticker', symbol: S, lastTicks: 11382, lastQty: 100, markTicks: 11382, bestBidTicks: 11381, bestAskTicks: 11382,
    bandLowerTicks: 10240, bandUpperTicks: 12520, lastSettlementTicks: 11380, lastSettlementMs: 0, state: 'OPEN', volume: 100, openInterest: 5000,
    funding: { symbol: S, status: 'ready', rate: new Decimal('0.0001'), amount: new Decimal('0.00011'), benchmarkPrice: new Decimal('1.138'), settlementPrice: new Decimal('1.13811'), reason: null, computedMs: 1030 },
    tsEvent: 1040, tsRecv: 1041,
  },
  { type: 'funding', settlement: { symbol: S, rate: new Decimal('0.0001'), amount: new Decimal('0.00011'), benchmarkPrice: new Decimal('1.138'), settlementPrice: new Decimal('1.13811'), tsEvent: 1050 }, tsEvent: 1050, tsRecv: 1052 },
];

async function writeSample(name: string, evs: readonly MarketEvent[], withGap = false): Promise<string> {
  const path = join(dir, name);
  const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 1000, source: 'test' });
  for (const ev of evs) w.write(ev);
  if (withGap) {
    w.gap(null, 1060, 1500, 'reconnect');
    w.write(book(1500, [[11381, 100]], [[11383, 50]]));
  }
  await w.close();
  return path;
}

describe('recording writer and reader', () => {
  it('round-trips events, storing later books as deltas against the previous book', async () => {
    const path = await writeSample('a.jsonl.gz', events, true);
    const rec = await readRecording(path);
    expect(rec.header.format).toBe('mmbot-recording');
    expect(rec.header.version).toBe(3);
    expect(rec.instruments[0]!.grid.tickSize.toFixed()).toBe('0.0001');
    const kinds = rec.events.map((e) => (e.type === 'book' ? (e.isSnapshot ? 'snap' : 'delta') : e.type));
    expect(kinds).toEqual(['snap', 'delta', 'trade', 'delta', 'ticker', 'funding', 'gap', 'snap']);
    const d1 = rec.events[1] as BookUpdated;
    expect(d1.bids).toEqual([{ priceTicks: 11380, qty: 400 }]);
    expect(d1.asks).toEqual([]);
    const d2 = rec.events[3] as BookUpdated;
    // new best bid, 11379 removed (q 0), ask reduced
    expect(d2.bids).toEqual([{ priceTicks: 11381, qty: 100 }, { priceTicks: 11379, qty: 0 }]);
    expect(d2.asks).toEqual([{ priceTicks: 11382, qty: 300 }]);
    const ticker = rec.events[4]!;
    expect(ticker.type === 'ticker' && ticker.funding?.amount?.toFixed()).toBe('0.00011');
    expect(rec.events[2]!.tsRecv).toBe(1021.5);
  });

  it('writes byte-identical files for identical input', async () => {
    const a = await writeSample('x.jsonl.gz', events);
    const b = await writeSample('y.jsonl.gz', events);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('decodes into columns with level pools and per-symbol price ranges', async () => {
    const path = await writeSample('c.jsonl.gz', events, true);
    const col = await loadColumnar([path]);
    expect(col.length).toBe(8);
    expect(Array.from(col.kind)).toEqual([KIND.bookSnapshot, KIND.bookDelta, KIND.trade, KIND.bookDelta, KIND.ticker, KIND.funding, KIND.gap, KIND.bookSnapshot]);
    expect(col.minTick[0]).toBe(11379);
    expect(col.maxTick[0]).toBe(11383);
    expect([col.a[2], col.b[2], col.c[2]]).toEqual([11382, 100, 1]);
    const start = col.a[0]!;
    expect(Array.from(col.levels.slice(start * 2, start * 2 + 6))).toEqual([11380, 500, 11379, 300, 11382, 400]);
  });
});

describe('recording writer errors', () => {
  it('a recording that cannot be created fails on close naming the path (it used to wait forever)', async () => {
    const path = join(dir, 'no-such-folder', 'x.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 1000, source: 'test' });
    await new Promise((r) => setTimeout(r, 20)); // the open fails and the file closes before close() is called
    await expect(w.close()).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.stringContaining(`cannot write recording ${path}: ENOENT`) });
  }, 5_000);
});

describe('own-order lines (o)', () => {
  it('round-trip, decode into level rows, and extend the price range; version 1 files stay readable', async () => {
    const path = join(dir, 'own.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 1000, source: 'test' });
    w.write(events[0]!);
    w.write({ type: 'own', symbol: S, bids: [{ priceTicks: 11381, qty: 200 }], asks: [{ priceTicks: 11390, qty: 100 }], tsEvent: 1001, tsRecv: 1003 });
    w.write({ type: 'own', symbol: S, bids: [], asks: [], tsEvent: 1005, tsRecv: 1006 });
    await w.close();
    expect(w.stats.ownOrders).toBe(2);
    const rec = await readRecording(path);
    expect(rec.events[1]).toEqual({ type: 'own', symbol: S, bids: [{ priceTicks: 11381, qty: 200 }], asks: [{ priceTicks: 11390, qty: 100 }], tsEvent: 1001, tsRecv: 1003 });
    expect(rec.events[2]).toMatchObject({ type: 'own', bids: [], asks: [] });
    const col = await loadColumnar([path]);
    expect(Array.from(col.kind)).toEqual([KIND.bookSnapshot, KIND.own, KIND.own]);
    const start = col.a[1]!;
    expect([col.b[1], col.c[1]]).toEqual([1, 1]);
    expect(Array.from(col.levels.slice(start * 2, start * 2 + 4))).toEqual([11381, 200, 11390, 100]);
    expect(col.maxTick[0]).toBe(11390);

    const v1 = join(dir, 'v1.jsonl.gz');
    const header = JSON.stringify({ ...recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't' }), version: 1 });
    writeFileSync(v1, gzipSync(`${header}\n{"t":"t","s":"EURUSD-PERP","e":1,"r":1,"p":1,"q":1,"d":"B"}\n`));
    expect((await readRecording(v1)).header.version).toBe(1);
  });
});

describe('session lines (q round trips, x execution reports), version 3', () => {
  it('round-trip through file, columnar and cache, stay out of the replayed rows; the header keeps the fee rates', async () => {
    const path = join(dir, 'session.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 1000, source: 'test', fees: { 'EURUSD-PERP': { maker: '0', taker: '0.0002' } } });
    w.write(events[0]!);
    const rt = { type: 'round-trip', symbol: S, op: 'place', ms: 1.25, ok: true, tsEvent: 1000.75, tsRecv: 1002 } as const;
    const ack = { type: 'execution', symbol: S, kind: 'accepted', orderId: 'O-1', side: 'buy', priceTicks: 11380, qty: 100, fill: null, tsEvent: 1001.5, tsRecv: 1002 } as const;
    const fill = { ...ack, kind: 'filled', fill: { priceTicks: 11380, qty: 40, aggressor: false, tradeId: 'T-9' }, tsEvent: 1004, tsRecv: 1005 } as const;
    w.write(rt);
    w.write({ ...rt, symbol: null, op: 'open_orders', ok: false });
    w.write(ack);
    w.write(fill);
    await w.close();
    expect([w.stats.roundTrips, w.stats.executions]).toEqual([2, 2]);
    const rec = await readRecording(path);
    expect(rec.header.version).toBe(3);
    expect(rec.header.fees).toEqual({ 'EURUSD-PERP': { maker: '0', taker: '0.0002' } });
    expect(rec.events.slice(1)).toEqual([rt, { ...rt, symbol: null, op: 'open_orders', ok: false }, ack, fill]);
    const cacheDir = join(dir, 'cache');
    for (const col of [await loadColumnar([path], { cacheDir }), await loadColumnar([path], { cacheDir })]) {
      expect(col.length).toBe(1); // the session is not replayed as rows
      expect(col.session).toEqual([rt, { ...rt, symbol: null, op: 'open_orders', ok: false }, ack, fill]);
      expect(col.headers[0]!.fees).toEqual({ 'EURUSD-PERP': { maker: '0', taker: '0.0002' } });
    }
  });

  it('bad session fields name the field', async () => {
    const header = JSON.stringify(recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't' }));
    const p = join(dir, 'bad-q.jsonl.gz');
    writeFileSync(p, gzipSync(`${header}\n{"t":"q","s":null,"e":1,"r":2,"op":"dance","ms":1,"ok":1}\n`));
    await expect(readRecording(p)).rejects.toThrow(/:2: .*op: expected one of place/);
    const p2 = join(dir, 'bad-x.jsonl.gz');
    writeFileSync(p2, gzipSync(`${header}\n{"t":"x","s":"EURUSD-PERP","e":1,"r":2,"k":"fil","oid":"O-1","d":"B","p":1,"q":1,"fp":1,"fq":1,"l":"Q","tid":"T"}\n`));
    await expect(readRecording(p2)).rejects.toThrow(/:2: .*l: expected "M" or "T"/);
  });
});

describe('outside-price lines (p)', () => {
  it('round-trip index and reference prices (fractional ticks), decode as columnar side objects; version 2 files stay readable', async () => {
    const path = join(dir, 'prices.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 1000, source: 'test' });
    w.write(events[0]!);
    w.write({ type: 'price', symbol: S, source: 'index', priceTicks: 11381.25, tsEvent: 1001, tsRecv: 1003 });
    w.write({ type: 'price', symbol: S, source: 'lmax', priceTicks: 11380.5, tsEvent: 1004, tsRecv: 1006 });
    await w.close();
    expect(w.stats.prices).toBe(2);
    const rec = await readRecording(path);
    expect(rec.events.slice(1)).toEqual([
      { type: 'price', symbol: S, source: 'index', priceTicks: 11381.25, tsEvent: 1001, tsRecv: 1003 },
      { type: 'price', symbol: S, source: 'lmax', priceTicks: 11380.5, tsEvent: 1004, tsRecv: 1006 },
    ]);
    const col = await loadColumnar([path]);
    expect(Array.from(col.kind)).toEqual([KIND.bookSnapshot, KIND.price, KIND.price]);
    expect(col.objects[col.a[2]!]).toMatchObject({ type: 'price', source: 'lmax', priceTicks: 11380.5 });
    const v2 = join(dir, 'v2.jsonl.gz');
    const header = JSON.stringify({ ...recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't' }), version: 2 });
    writeFileSync(v2, gzipSync(`${header}\n{"t":"t","s":"EURUSD-PERP","e":1,"r":1,"p":1,"q":1,"d":"B"}\n`));
    expect((await readRecording(v2)).header.version).toBe(2);
  });
});

describe('recording errors name the file and line', () => {
  const header = JSON.stringify(recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't' }));
  const write = (name: string, lines: string[]): string => {
    const p = join(dir, name);
    writeFileSync(p, gzipSync(`${lines.join('\n')}\n`));
    return p;
  };
  const failure = async (p: string): Promise<MmError> => {
    try {
      await readRecording(p);
    } catch (e) {
      return e as MmError;
    }
    throw new Error('expected a failure');
  };

  it('rejects a bad field with RECORDING_INVALID at its line', async () => {
    const p = write('bad.jsonl.gz', [header, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,2]],"a":[]}', '{"t":"t","s":"EURUSD-PERP","e":1,"r":2,"p":"x","q":1,"d":"B"}']);
    const e = await failure(p);
    expect(e.code).toBe('RECORDING_INVALID');
    expect(e.message).toContain(`${p}:3:`);
    expect(e.message).toContain('p: expected a number');
  });

  it('rejects non-JSON, unknown symbols, deltas before a snapshot and time going back', async () => {
    expect((await failure(write('nj.jsonl.gz', [header, '{oops']))).message).toMatch(/:2: not JSON/);
    expect((await failure(write('us.jsonl.gz', [header, '{"t":"t","s":"NOPE","e":1,"r":1,"p":1,"q":1,"d":"B"}']))).message).toMatch(/:2: s: symbol "NOPE"/);
    expect((await failure(write('nd.jsonl.gz', [header, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":0,"b":[],"a":[]}']))).message).toMatch(/:2: book delta .* before any snapshot/);
    const t = (r: number): string => `{"t":"t","s":"EURUSD-PERP","e":1,"r":${r},"p":1,"q":1,"d":"B"}`;
    expect((await failure(write('tb.jsonl.gz', [header, t(5), t(4)]))).message).toMatch(/:3: receive time r=4 goes back/);
  });

  it('rejects a wrong header and a corrupt gzip stream', async () => {
    expect((await failure(write('h.jsonl.gz', ['{"format":"other"}']))).message).toMatch(/:1: format: expected "mmbot-recording"/);
    expect((await failure(write('v.jsonl.gz', [header.replace('"version":3', '"version":9')]))).message).toMatch(/:1: version/);
    const good = readFileSync(await writeSample('g.jsonl.gz', events));
    const p = join(dir, 'corrupt.jsonl.gz');
    const broken = Buffer.from(good);
    broken.fill(0x55, 40, 80);
    writeFileSync(p, broken);
    const e = await failure(p);
    expect(e.code).toBe('RECORDING_INVALID');
    expect(e.message).toContain(p);
  });

  it('reports a missing file as FILE_NOT_FOUND', async () => {
    await expect(openRecording(join(dir, 'none.jsonl.gz'))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });
});

describe('delta encoding (property)', () => {
  it('replaying the stored snapshots + deltas reproduces every distinct book the writer saw', async () => {
    const fc = (await import('fast-check')).default;
    const { RecordingEncoder, decodeEvent, TrackedBook } = await import('../../src/record/index.ts');
    const level = fc.tuple(fc.integer({ min: 11300, max: 11400 }), fc.integer({ min: 1, max: 900 }));
    const snap = fc.record({ bids: fc.uniqueArray(level, { selector: (l) => l[0], maxLength: 8 }), asks: fc.uniqueArray(level, { selector: (l) => l[0], maxLength: 8 }) });
    fc.assert(
      fc.property(fc.array(snap, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 7 }), (books, keyframeEvery) => {
        const lines: string[] = [];
        const enc = new RecordingEncoder((l) => lines.push(l), keyframeEvery);
        const sorted = (ls: [number, number][], desc: boolean) => [...ls].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).map(([p, q]) => ({ priceTicks: p, qty: q }));
        books.forEach((b, k) => enc.write(book(1000 + k, b.bids, b.asks)));
        const replay = new TrackedBook();
        const seen: string[] = [];
        for (const l of lines) {
          const ev = decodeEvent(JSON.parse(l), new Set(['EURUSD-PERP']));
          if (ev.type !== 'book') continue;
          if (ev.isSnapshot) replay.replace(ev.bids, ev.asks);
          else replay.apply(ev.bids, ev.asks);
          const now = JSON.stringify(replay.snapshot());
          if (seen.at(-1) !== now) seen.push(now); // a keyframe may repeat an unchanged book
        }
        // Unchanged books are not stored: compare against the distinct consecutive books.
        const expected: string[] = [];
        for (const b of books) {
          const s = JSON.stringify({ bids: sorted(b.bids, true), asks: sorted(b.asks, false) });
          if (expected.at(-1) !== s) expected.push(s);
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});

describe('binary sidecar cache', () => {
  it('reloads the same columns from the sidecar and re-decodes when the file changes', async () => {
    const { loadColumnar, columnarCacheFile } = await import('../../src/record/index.ts');
    const { existsSync, utimesSync } = await import('node:fs');
    const path = await writeSample('cached.jsonl.gz', events, true);
    const cacheDir = join(dir, 'cache');
    const first = await loadColumnar([path], { cacheDir });
    const file = columnarCacheFile(cacheDir, [path]);
    expect(existsSync(file)).toBe(true);
    const second = await loadColumnar([path], { cacheDir });
    expect(second).not.toBe(first);
    for (const k of ['kind', 'sym', 'tsEvent', 'tsRecv', 'a', 'b', 'c', 'levels', 'minTick', 'maxTick'] as const) expect(Array.from(second[k])).toEqual(Array.from(first[k]));
    expect(second.length).toBe(first.length);
    expect(second.headers).toEqual(first.headers);
    expect(second.instruments[0]!.grid.tickSize.toFixed()).toBe('0.0001');
    const ticker = second.objects.find((o) => o.type === 'ticker');
    expect(ticker && ticker.type === 'ticker' && ticker.funding?.amount?.toFixed()).toBe('0.00011');
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    expect(columnarCacheFile(cacheDir, [path])).not.toBe(file);
  });

  it('loads the columns as views into the file\'s one buffer (held once, not copied), and refuses a truncated sidecar', async () => {
    const { loadColumnar, columnarCacheFile, readColumnarCache } = await import('../../src/record/index.ts');
    const { readFileSync, writeFileSync } = await import('node:fs');
    const path = await writeSample('views.jsonl.gz', events, true);
    const cacheDir = join(dir, 'cache-views');
    const decoded = await loadColumnar([path], { cacheDir });
    const file = columnarCacheFile(cacheDir, [path]);
    const cached = readColumnarCache(file)!;
    const cols = ['kind', 'sym', 'tsEvent', 'tsRecv', 'a', 'b', 'c', 'levels'] as const;
    for (const k of cols) expect(Array.from(cached[k])).toEqual(Array.from(decoded[k]));
    const buffer = cached.kind.buffer;
    for (const k of cols) expect(cached[k].buffer).toBe(buffer);
    expect(buffer.byteLength).toBe(readFileSync(file).length);
    writeFileSync(file, readFileSync(file).subarray(0, buffer.byteLength - 16));
    expect(readColumnarCache(file)).toBeNull();
  });
});
