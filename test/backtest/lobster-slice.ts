/**
 * Hand-written LOBSTER slices for the exact (order-level) replay tests: import the message and
 * order-book rows with `mmbot import lobster`'s importer, and replay the recording through a
 * ReplayExchange with our buy of 50 at 100.00 joining after a given book.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VirtualClock } from '../../src/core/clock.ts';
import { asClientOrderId } from '../../src/core/ids.ts';
import { ActionQueue } from '../../src/backtest/action-queue.ts';
import { LatencyModel } from '../../src/backtest/latency-model.ts';
import { feeSchedule } from '../../src/backtest/ledger.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { ReplayExchange } from '../../src/backtest/replay-exchange.ts';
import { KIND } from '../../src/record/format.ts';
import { createRecordingWriter, type ColumnarRecording } from '../../src/record/index.ts';
import { importLobster, loadInstrumentDef, midnightInZone, openLines, RowIssues, type LobsterImportStats } from '../../src/record/import/index.ts';

/** AAPL-like: a cent tick, one share per contract. */
export const SLICE_DEF = loadInstrumentDef(resolve(import.meta.dirname, '../fixtures/lobster/aapl.yaml'));

/** Imports message and order-book rows (LOBSTER CSV lines) into `dir/slice.jsonl.gz`, an order-level recording with ids. */
export async function importLobsterSlice(dir: string, messages: readonly string[], book: readonly string[], strict: boolean): Promise<{ path: string; stats: LobsterImportStats; issues: RowIssues }> {
  writeFileSync(join(dir, 'msg.csv'), `${messages.join('\n')}\n`);
  writeFileSync(join(dir, 'book.csv'), `${book.join('\n')}\n`);
  const out = join(dir, 'slice.jsonl.gz');
  const issues = new RowIssues(strict);
  let w: ReturnType<typeof createRecordingWriter> | null = null;
  const stats = await importLobster({
    messages: openLines(join(dir, 'msg.csv')),
    orderbook: openLines(join(dir, 'book.csv')),
    def: SLICE_DEF,
    midnightMs: midnightInZone('2012-06-21', 'America/New_York'),
    feedLatencyMs: 0,
    issues,
    openSink: (startedAtMs) => (w = createRecordingWriter(out, { instruments: [SLICE_DEF.instrument], startedAtMs, source: 'test', bookLevel: 3, orderIds: true })),
  });
  await (w as ReturnType<typeof createRecordingWriter> | null)!.close();
  return { path: out, stats, issues };
}

/**
 * Replays the recording's rows through a replay exchange (exact FIFO; by id unless `withIds` is
 * false); our buy of 50 at 100.00 joins after the `joinAfterBook`-th book; `onBook(n, ex)` sees the
 * exchange after each book. Returns our fills as [price ticks, qty].
 */
export function replaySlice(col: ColumnarRecording, joinAfterBook: number, withIds = true, onBook: (n: number, ex: ReplayExchange) => void = () => {}): [number, number][] {
  const clock = new VirtualClock(0);
  const actions = new ActionQueue();
  const ex = new ReplayExchange({
    instruments: col.instruments, minTick: col.minTick, maxTick: col.maxTick, clock, actions,
    latency: new LatencyModel({ entry: 0, response: 0 }, 1), queue: riskAverseQueue, fees: feeSchedule('0', '0'), seed: 1,
    onOrderEvent: () => undefined, onSettled: () => undefined,
    l3: { orderStart: col.orderStart!, orderQty: col.orderQty!, ...(withIds ? { orderId: col.orderId! } : {}) },
  });
  let books = 0;
  for (let i = 0; i < col.length; i++) {
    ex.now = col.tsEvent[i]!;
    const k = col.kind[i]!;
    if (k === KIND.trade) ex.applyTrade(0, col.a[i]!, col.b[i]!, col.c[i]! > 0, Math.abs(col.c[i]!));
    else if (k === KIND.bookSnapshot || k === KIND.bookDelta) {
      ex.applyBook(0, k === KIND.bookSnapshot, col.levels, col.a[i]!, col.b[i]!, col.c[i]!);
      onBook(++books, ex);
      if (books === joinAfterBook) {
        void ex.place({ kind: 'place', symbol: SLICE_DEF.instrument.symbol, side: 'buy', priceTicks: 10_000, qty: 50, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(1), tag: null });
        clock.advanceTo(ex.now);
        while (actions.peekTime() <= ex.now) actions.runNext();
      }
    }
  }
  return ex.fillLog.map((f) => [f.priceTicks, f.qty]);
}
