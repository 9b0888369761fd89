import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadColumnar, readRecording, type ColumnarRecording } from '../../src/record/index.ts';
import { importLobsterSlice, replaySlice } from './lobster-slice.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-l3settle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/*
 * Issue 32 item 1. Bids at 100.00: 11 (100) and 12 (50) rest; our buy of 50 joins behind them
 * (after the 3rd book); 13 (30) joins behind us. 13's delete comes with a time before the previous
 * message's, so the importer skips it (out-of-order) and the order-book file's level is 30 short
 * of the messages' at the next message. Executions of 11 (100) and 12 (50) then trade exactly the
 * 150 that was ahead of us: we must not fill.
 */
const MESSAGES = [
  '34200.100000000,1,21,500,1000500,-1',
  '34200.200000000,1,11,100,1000000,1',
  '34200.300000000,1,12,50,1000000,1',
  '34200.400000000,1,13,30,1000000,1',
  '34200.350000000,3,13,30,1000000,1',
  '34200.500000000,4,11,100,1000000,1',
  '34200.600000000,4,12,50,1000000,1',
];
const BOOK = [
  '1000500,500,-9999999999,0',
  '1000500,500,1000000,100',
  '1000500,500,1000000,150',
  '1000500,500,1000000,180',
  '1000500,500,1000000,150',
  '1000500,500,1000000,50',
  '1000500,500,-9999999999,0',
];

const importSlice = () => importLobsterSlice(dir, MESSAGES, BOOK, false);

/** The exact replay's fills (by id); our buy of 50 at 100.00 joins after the 3rd book. */
const replay = (col: ColumnarRecording): [number, number][] => replaySlice(col, 3);

describe('LOBSTER import: a drop the messages do not explain comes off the back of the queue', () => {
  it('the skipped delete of order 13 (behind us) is taken from 13, not from 12 ahead of us: the exact replay fills 0, not 30', async () => {
    const { path, stats, issues } = await importSlice();
    // The skipped delete, and the level it leaves 30 too large at the next message.
    expect(issues.toJSON()).toEqual({ 'out-of-order': 1, 'book-mismatch': 1 });
    const bids = (await readRecording(path)).events.flatMap((e) => (e.type === 'book' ? [e.bids[0] ?? null] : []));
    // After 11's execution the file shows 50: the 30 too many are 13's (the old import took them off 12: [20, 30], ids [12, 13]).
    expect(bids[4]).toEqual({ priceTicks: 10_000, qty: 50, orders: [50], orderIds: [12] });
    // One settlement: 30 off order 13, moving no order up (the old import's one took them off 12: settledReordered 1).
    expect(stats).toMatchObject({ settlements: 1, settledKnownOrders: 1, settledKnownContracts: 30, settledReordered: 0, settledCorrections: 0 });
    // 100 + 50 traded: exactly the volume ahead of us (the old import's recording filled 30 here).
    expect(replay(await loadColumnar([path]))).toEqual([]);
  });
});
