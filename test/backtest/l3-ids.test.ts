import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createRecordingWriter, loadColumnar, readRecording, type ColumnarRecording } from '../../src/record/index.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { MmError } from '../../src/core/errors.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';
import type { BacktestSettings } from '../../src/backtest/settings.ts';
import { importLobsterSlice, replaySlice } from './lobster-slice.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-l3ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/*
 * A LOBSTER slice (depth 1) where the queue by size and the queue by id differ. Bids at 100.00:
 * 11 (100) and 12 (100) rest; we join behind them with 50; 13 (100) joins behind us. Order 12 is
 * canceled: by size the level went [100, 100, 100] → [100, 100], which reads as the *last* 100 (13,
 * behind us) leaving, so 200 stays ahead; by id it is 12, ahead of us, and 100 stays ahead. 11 is
 * partly canceled to 60, then executed (a 60 print: it fills nothing of ours, now first in line);
 * then 80 of order 13, behind us, execute: we would have traded first, so 50 of ours fill.
 */
const MESSAGES = [
  '34200.100000000,1,21,500,1000500,-1',
  '34200.200000000,1,11,100,1000000,1',
  '34200.300000000,1,12,100,1000000,1',
  '34200.400000000,1,13,100,1000000,1',
  '34200.500000000,3,12,100,1000000,1',
  '34200.600000000,2,11,40,1000000,1',
  '34200.700000000,4,11,60,1000000,1',
  '34200.800000000,4,13,80,1000000,1',
];
const BOOK = [
  '1000500,500,-9999999999,0',
  '1000500,500,1000000,100',
  '1000500,500,1000000,200',
  '1000500,500,1000000,300',
  '1000500,500,1000000,200',
  '1000500,500,1000000,160',
  '1000500,500,1000000,100',
  '1000500,500,1000000,20',
];

const importSlice = async (): Promise<string> => (await importLobsterSlice(dir, MESSAGES, BOOK, true)).path;

/** The replay's fills with our buy joining after the `joinAfterBook`-th book, and the queue ahead of it after the 5th (12's cancel). */
function replay(col: ColumnarRecording, withIds: boolean, joinAfterBook: number): { fills: [number, number][]; frontAfterCancel: number } {
  let frontAfterCancel = NaN;
  const fills = replaySlice(col, joinAfterBook, withIds, (n, ex) => {
    if (n === 5) frontAfterCancel = ex.open[0]![0]!.queue.front;
  });
  return { fills, frontAfterCancel };
}

describe('order ids in an order-level recording: the replay keeps the exact FIFO by id', () => {
  it('mmbot import lobster writes version 5 with every order id; the replay by id fills 50 where sizes alone fill 0', async () => {
    const path = await importSlice();
    const lines = gunzipSync(readFileSync(path)).toString('utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 5, book_level: 3, order_ids: true });
    // After 13 joined: three orders with their ids, in queue order.
    expect(lines.find((l) => l.includes('[10000,300,'))).toContain('[[10000,300,[100,100,100],[11,12,13]]]');
    const col = await loadColumnar([path]);
    expect(Array.from(col.orderId!.subarray(0, 1))).toEqual([21]);

    const exact = replay(col, true, 3);
    expect(exact.frontAfterCancel).toBe(100); // only 11 ahead once 12 is canceled
    expect(exact.fills).toEqual([[10_000, 50]]); // the 80 executed from 13, behind us: all 50 of ours first

    const bySize = replay(col, false, 3); // the same file read as the venue's LEVEL_3 (no ids)
    expect(bySize.frontAfterCancel).toBe(200);
    expect(bySize.fills).toEqual([]);
  });

  it('queue_model.kind picks the replay: auto is the exact FIFO here, an L2 kind replays the aggregated levels, l3-fifo refuses L2 data', async () => {
    const path = await importSlice();
    const col = await loadColumnar([path]);
    const l2Path = join(dir, 'slice-l2.jsonl.gz');
    const rec = await readRecording(path);
    const w = createRecordingWriter(l2Path, { instruments: rec.instruments, startedAtMs: rec.header.started_at, source: 'test' });
    for (const e of rec.events) if (e.type === 'book' || e.type === 'trade') w.write(e);
    await w.close();
    const l2 = await loadColumnar([l2Path]);
    const def = await loadStrategy('fixed-spread');
    const run = (data: ColumnarRecording, queueModel: BacktestSettings['queueModel']) =>
      runBacktest({
        data,
        strategies: [{ id: 'fs', symbol: col.instruments[0]!.symbol, strategy: def.create(parseStrategyParams(def, { halfSpreadTicks: 1, size: 10 })) }],
        risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
        settings: defaultSettings({ queueModel }), createEngine,
      });
    expect((await run(col, { kind: 'auto', n: 2 })).exchange.queueModelName).toBe('l3-fifo');
    expect((await run(col, { kind: 'log2', n: 2 })).exchange.queueModelName).toBe('log2');
    expect((await run(l2, { kind: 'auto', n: 2 })).exchange.queueModelName).toBe('risk-averse');
    const e = await run(l2, { kind: 'l3-fifo', n: 2 }).then(() => null, (x: unknown) => x as MmError);
    expect(e?.code).toBe('CONFIG_INVALID');
    expect(e?.message).toMatch(/kind l3-fifo needs an order-level recording/);
  });
});
