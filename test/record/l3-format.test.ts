import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { asSymbol } from '../../src/core/ids.ts';
import type { BookUpdated } from '../../src/domain/events.ts';
import { MmError } from '../../src/core/errors.ts';
import { createRecordingWriter, loadColumnar, readRecording, recordingHeader } from '../../src/record/index.ts';
import { testInstrument } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-l3fmt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const S = asSymbol('EURUSD-PERP');
const l3 = (t: number, bids: [number, number[]][], asks: [number, number[]][]): BookUpdated => ({
  type: 'book',
  symbol: S,
  level: 3,
  isSnapshot: true,
  bids: bids.map(([p, o]) => ({ priceTicks: p, qty: o.reduce((a, b) => a + b, 0), orders: o })),
  asks: asks.map(([p, o]) => ({ priceTicks: p, qty: o.reduce((a, b) => a + b, 0), orders: o })),
  tsEvent: t,
  tsRecv: t + 1,
});

describe('order-level (L3) recordings: format version 4', () => {
  it('writes order lists, stores a level whose orders changed at the same total as a delta, and reads them back', async () => {
    const path = join(dir, 'l3.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 1000, source: 'test', bookLevel: 3 });
    w.write(l3(1000, [[11380, [100, 200]], [11379, [300]]], [[11382, [400]]]));
    w.write(l3(1010, [[11380, [200, 100]], [11379, [300]]], [[11382, [400]]])); // same total, other orders
    w.write(l3(1020, [[11380, [200, 100]], [11379, [300]]], [[11382, [400]]])); // unchanged: not written
    w.write(l3(1030, [[11380, [200, 100]]], [[11382, [150, 250]]])); // 11379 gone
    w.write({ ...l3(1040, [[11380, [300]]], []), level: 2, bids: [{ priceTicks: 11380, qty: 300 }] }); // an L2 frame: not for this file
    await w.close();
    expect(w.stats.books).toBe(3);
    const text = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
    expect(JSON.parse(text[0]!)).toMatchObject({ version: 4, book_level: 3 });
    expect(text[2]).toBe('{"t":"b","s":"EURUSD-PERP","e":1010,"r":1011,"f":0,"b":[[11380,300,[200,100]]],"a":[]}');
    expect(text[3]).toBe('{"t":"b","s":"EURUSD-PERP","e":1030,"r":1031,"f":0,"b":[[11379,0,[]]],"a":[[11382,400,[150,250]]]}');

    const rec = await readRecording(path);
    expect(rec.header).toMatchObject({ version: 4, book_level: 3 });
    const first = rec.events[0] as BookUpdated;
    expect(first).toMatchObject({ level: 3, isSnapshot: true });
    expect(first.bids[0]).toEqual({ priceTicks: 11380, qty: 300, orders: [100, 200] });

    const col = await loadColumnar([path]);
    const orders = (j: number): number[] => Array.from(col.orderQty!.subarray(col.orderStart![j]!, col.orderStart![j + 1]!));
    expect(col.orderStart!.length).toBe(col.levels.length / 2 + 1);
    expect([orders(0), orders(1), orders(2)]).toEqual([[100, 200], [300], [400]]);
    const last = col.a[2]!; // the third row's first level: 11379 removed
    expect([col.levels[2 * last], orders(last), orders(last + 1)]).toEqual([11379, [], [150, 250]]);
  });

  it('L2 recordings keep version 3 and no order columns; mixing L2 and L3 files replays as L2', async () => {
    const a = join(dir, 'l2.jsonl.gz');
    const w = createRecordingWriter(a, { instruments: [testInstrument()], startedAtMs: 0, source: 't' });
    w.write({ ...l3(5000, [], []), level: 2, bids: [{ priceTicks: 11380, qty: 100 }], asks: [] });
    await w.close();
    expect((await readRecording(a)).header.version).toBe(3);
    const a3 = join(dir, 'l2-from-l3.jsonl.gz'); // an L2 recording of order-level frames stores them aggregated
    const w2 = createRecordingWriter(a3, { instruments: [testInstrument()], startedAtMs: 0, source: 't' });
    w2.write(l3(5000, [[11380, [60, 40]]], [[11382, [10]]]));
    await w2.close();
    expect((await readRecording(a3)).events[0]).toMatchObject({ level: 2, bids: [{ priceTicks: 11380, qty: 100 }], asks: [{ priceTicks: 11382, qty: 10 }] });
    expect(((await readRecording(a3)).events[0] as BookUpdated).bids[0]!.orders).toBeUndefined();
    expect((await loadColumnar([a])).orderStart).toBeUndefined();
    const b = join(dir, 'l3b.jsonl.gz');
    const w3 = createRecordingWriter(b, { instruments: [testInstrument()], startedAtMs: 0, source: 't', bookLevel: 3 });
    w3.write(l3(6000, [[11380, [100]]], []));
    await w3.close();
    expect((await loadColumnar([b])).orderStart).toBeDefined();
    expect((await loadColumnar([a, b])).orderStart).toBeUndefined();
    const both = await loadColumnar([join(dir, 'l3.jsonl.gz'), b]); // two L3 files in time order
    expect(both.orderStart!.length).toBe(both.levels.length / 2 + 1);
    const j = both.a[both.length - 1]!;
    expect(Array.from(both.orderQty!.subarray(both.orderStart![j]!, both.orderStart![j + 1]!))).toEqual([100]);
  });

  it('rejects inconsistent order-level data naming file and line', async () => {
    const h3 = JSON.stringify({ ...recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't', bookLevel: 3 }) });
    const h2 = JSON.stringify(recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't' }));
    const cases: [string, string[], RegExp][] = [
      ['sum', [h3, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,5,[2,2]]],"a":[]}'], /:2: b\[0\]: order sizes add up to 4, not the level's qty 5/],
      ['bare', [h3, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,5]],"a":[]}'], /:2: order-level recording: level 1 has no order list/],
      ['l2-with-orders', [h2, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,5,[5]]],"a":[]}'], /:2: a level carries an order list, but the header does not say book_level 3/],
      ['zero-order', [h3, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,5,[5,0]]],"a":[]}'], /b\[0\]\[2\]\[1\]: expected a positive integer order size/],
      ['old-version-with-level', [JSON.stringify({ ...JSON.parse(h3), version: 3 })], /:1: book_level 3 \(order-level books\) needs version 4 or later, got version 3/],
    ];
    for (const [name, lines, re] of cases) {
      const p = join(dir, `${name}.jsonl.gz`);
      writeFileSync(p, gzipSync(`${lines.join('\n')}\n`));
      const e = await readRecording(p).then(() => null, (x: unknown) => x);
      expect(e, name).toBeInstanceOf(MmError);
      expect((e as MmError).code).toBe('RECORDING_INVALID');
      expect((e as MmError).message).toMatch(re);
    }
  });

  it('version 5 (order ids): written and read back with ids, deltas compare ids, the columnar keeps them; a v4 file has none', async () => {
    const path = join(dir, 'ids.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 0, source: 't', bookLevel: 3, orderIds: true });
    const ids = (ev: BookUpdated, bid: number[], ask: number[]): BookUpdated => ({ ...ev, bids: ev.bids.map((l) => ({ ...l, orderIds: bid })), asks: ev.asks.map((l) => ({ ...l, orderIds: ask })) });
    w.write(ids(l3(1000, [[11380, [100, 200]]], [[11382, [400]]]), [7, 8], [-1]));
    w.write(ids(l3(1010, [[11380, [100, 200]]], [[11382, [400]]]), [7, 9], [-1])); // same sizes, another order: a change
    w.write(l3(1020, [[11380, [300]]], [])); // a frame without ids: not for this file
    await w.close();
    expect(w.stats.books).toBe(2);
    const text = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
    expect(JSON.parse(text[0]!)).toMatchObject({ version: 5, book_level: 3, order_ids: true });
    expect(text[2]).toBe('{"t":"b","s":"EURUSD-PERP","e":1010,"r":1011,"f":0,"b":[[11380,300,[100,200],[7,9]]],"a":[]}');
    const rec = await readRecording(path);
    expect((rec.events[0] as BookUpdated).bids[0]).toEqual({ priceTicks: 11380, qty: 300, orders: [100, 200], orderIds: [7, 8] });
    const col = await loadColumnar([path]);
    expect(Array.from(col.orderId!)).toEqual([7, 8, -1, 7, 9]);
    const cacheDir = join(dir, 'cache-ids');
    await loadColumnar([path], { cacheDir });
    expect(Array.from((await loadColumnar([path], { cacheDir })).orderId!)).toEqual([7, 8, -1, 7, 9]); // from the sidecar
    expect((await loadColumnar([join(dir, 'l3.jsonl.gz')])).orderId).toBeUndefined();
    expect((await loadColumnar([path, join(dir, 'l3b.jsonl.gz')])).orderId).toBeUndefined(); // a file without ids: replay by size
  });

  it('refuses a version it does not know by naming it, and inconsistent id data by file and line', async () => {
    const h5 = JSON.stringify(recordingHeader({ instruments: [testInstrument()], startedAtMs: 0, source: 't', bookLevel: 3, orderIds: true }));
    const cases: [string, string[], RegExp][] = [
      ['v6', [JSON.stringify({ ...JSON.parse(h5), version: 6 })], /:1: version: this mmbot reads versions 1, 2, 3, 4, 5, got 6/],
      ['v5-no-flag', [JSON.stringify({ ...JSON.parse(h5), order_ids: undefined })], /:1: version 5 is an order-level recording with order ids/],
      ['ids-on-v4', [JSON.stringify({ ...JSON.parse(h5), version: 4 })], /:1: order_ids .* needs version 5 or later, got version 4/],
      ['level-without-ids', [h5, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,5,[5]]],"a":[]}'], /:2: order-level recording with order ids: level 1 has no ids/],
      ['ids-count', [h5, '{"t":"b","s":"EURUSD-PERP","e":1,"r":1,"f":1,"b":[[1,5,[2,3],[4]]],"a":[]}'], /:2: b\[0\]\[3\]: expected 2 order ids/],
    ];
    for (const [name, lines, re] of cases) {
      const p = join(dir, `${name}.jsonl.gz`);
      writeFileSync(p, gzipSync(`${lines.join('\n')}\n`));
      const e = await readRecording(p).then(() => null, (x: unknown) => x);
      expect(e, name).toBeInstanceOf(MmError);
      expect((e as MmError).message, name).toMatch(re);
    }
  });
});
