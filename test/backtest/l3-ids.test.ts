import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { asClientOrderId } from '../../src/core/ids.ts';
import { ActionQueue } from '../../src/backtest/action-queue.ts';
import { LatencyModel } from '../../src/backtest/latency-model.ts';
import { feeSchedule } from '../../src/backtest/ledger.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { ReplayExchange } from '../../src/backtest/replay-exchange.ts';
import { KIND } from '../../src/record/format.ts';
import { createRecordingWriter, loadColumnar, readRecording, type ColumnarRecording } from '../../src/record/index.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { MmError } from '../../src/core/errors.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';
import type { BacktestSettings } from '../../src/backtest/settings.ts';
import { importLobster, loadInstrumentDef, midnightInZone, openLines, RowIssues } from '../../src/record/import/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-l3ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const def = loadInstrumentDef(resolve(import.meta.dirname, '../fixtures/lobster/aapl.yaml'));

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

async function importSlice(): Promise<string> {
  writeFileSync(join(dir, 'msg.csv'), `${MESSAGES.join('\n')}\n`);
  writeFileSync(join(dir, 'book.csv'), `${BOOK.join('\n')}\n`);
  const out = join(dir, 'slice.jsonl.gz');
  let w: ReturnType<typeof createRecordingWriter> | null = null;
  await importLobster({
    messages: openLines(join(dir, 'msg.csv')),
    orderbook: openLines(join(dir, 'book.csv')),
    def,
    midnightMs: midnightInZone('2012-06-21', 'America/New_York'),
    feedLatencyMs: 0,
    issues: new RowIssues(true),
    openSink: (startedAtMs) => (w = createRecordingWriter(out, { instruments: [def.instrument], startedAtMs, source: 'test', bookLevel: 3, orderIds: true })),
  });
  await (w as ReturnType<typeof createRecordingWriter> | null)!.close();
  return out;
}

/** Replays the recording's rows through a replay exchange; our buy of 50 at 100.00 joins after the `joinAfterBook`-th book. */
function replay(col: ColumnarRecording, withIds: boolean, joinAfterBook: number): { fills: [number, number][]; frontAfterCancel: number } {
  const clock = new VirtualClock(0);
  const actions = new ActionQueue();
  const ex = new ReplayExchange({
    instruments: col.instruments, minTick: col.minTick, maxTick: col.maxTick, clock, actions,
    latency: new LatencyModel({ entry: 0, response: 0 }, 1), queue: riskAverseQueue, fees: feeSchedule('0', '0'), seed: 1,
    onOrderEvent: () => undefined, onSettled: () => undefined,
    l3: { orderStart: col.orderStart!, orderQty: col.orderQty!, ...(withIds ? { orderId: col.orderId! } : {}) },
  });
  let books = 0;
  let frontAfterCancel = NaN;
  for (let i = 0; i < col.length; i++) {
    ex.now = col.tsEvent[i]!;
    const k = col.kind[i]!;
    if (k === KIND.trade) ex.applyTrade(0, col.a[i]!, col.b[i]!, col.c[i]! > 0, Math.abs(col.c[i]!));
    else if (k === KIND.bookSnapshot || k === KIND.bookDelta) {
      ex.applyBook(0, k === KIND.bookSnapshot, col.levels, col.a[i]!, col.b[i]!, col.c[i]!);
      books++;
      if (books === 5) frontAfterCancel = ex.open[0]![0]!.queue.front;
      if (books === joinAfterBook) {
        void ex.place({ kind: 'place', symbol: def.instrument.symbol, side: 'buy', priceTicks: 10_000, qty: 50, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(1), tag: null });
        clock.advanceTo(ex.now);
        while (actions.peekTime() <= ex.now) actions.runNext();
      }
    }
  }
  return { fills: ex.fillLog.map((f) => [f.priceTicks, f.qty]), frontAfterCancel };
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
