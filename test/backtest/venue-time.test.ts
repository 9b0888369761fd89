import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { asSymbol } from '../../src/core/ids.ts';
import type { BookUpdated, TradePrinted } from '../../src/domain/events.ts';
import { DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { createRecordingWriter, loadColumnar, recordingHeader, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import { importLobster, loadInstrumentDef, midnightInZone, openLines, RowIssues } from '../../src/record/import/index.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings, type BacktestSettings } from '../../src/backtest/settings.ts';
import { venueTimeline } from '../../src/backtest/venue-time.ts';
import { testInstrument } from '../record/fixtures.ts';
import { oneRestingOrder } from './scripted-engine.ts';
import { latePrints } from './late-prints-run.ts';

const S = asSymbol('TEST-PERP');
const inst = testInstrument('TEST-PERP', '0.01', 1);
const T0 = Date.UTC(2026, 10, 18, 12, 0, 0);

const book = (ev: number, recv: number, bids: [number, number][], asks: [number, number][], snapshot = false): BookUpdated => ({
  type: 'book', symbol: S, level: 2, isSnapshot: snapshot, bids: bids.map(([priceTicks, qty]) => ({ priceTicks, qty })), asks: asks.map(([priceTicks, qty]) => ({ priceTicks, qty })), tsEvent: ev, tsRecv: recv,
});
const sellPrint = (ev: number, recv: number, priceTicks: number, qty: number): TradePrinted => ({ type: 'trade', symbol: S, priceTicks, qty, aggressor: 'sell', tsEvent: ev, tsRecv: recv });

/** Replays `events` (in receive order) with one resting bid of `qty` at `price`, sent on the first book (it arrives 2 ms later). */
async function bidFills(events: RecordedEvent[], price: number, qty: number, settings: Partial<BacktestSettings> = {}): Promise<number> {
  const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 'test' }), [inst], events);
  const run = await runBacktest({
    data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    settings: defaultSettings({ orderLatency: { entry: 2, response: 2 }, ...settings }), createEngine: oneRestingOrder(S, 'buy', price, qty),
  });
  return run.fills.reduce((a, f) => a + f.qty, 0);
}

describe('venueTimeline: exchange-side rows in venue-time order within the reorder window', () => {
  // Receive order: a frame at +5, then a print stamped +1 (received after it), then rows at +6, +40.
  const tsEvent = Float64Array.from([5, 1, 6, 40, 2]);
  const tsRecv = Float64Array.from([6, 7, 8, 41, 90]);
  it('window 0: receive order, the late print moved forward to +5 (the old clamp)', () => {
    const t = venueTimeline(tsEvent, tsRecv, 5, 0, 0);
    expect([...t.order]).toEqual([0, 1, 2, 3, 4]);
    expect([...t.xAt]).toEqual([5, 5, 6, 40, 40]);
    expect([...t.lT]).toEqual([6, 7, 8, 41, 90]);
  });
  it('window 50: every row at its own venue time, the order sorted by it (ties in receive order)', () => {
    const t = venueTimeline(tsEvent, tsRecv, 5, 0, 50);
    expect([...t.order]).toEqual([1, 4, 0, 2, 3]);
    expect([...t.xAt]).toEqual([1, 2, 5, 6, 40]);
  });
  it('window 10: a row later than the window is held 10 ms behind the latest venue time', () => {
    const t = venueTimeline(tsEvent, tsRecv, 5, 0, 10);
    expect([...t.order]).toEqual([1, 0, 2, 4, 3]);
    expect([...t.xAt]).toEqual([1, 5, 6, 30, 40]);
  });
  it('a row stamped after its receipt is processed at its receipt (plus the feed offset)', () => {
    const t = venueTimeline(Float64Array.from([100, 3]), Float64Array.from([4, 5]), 2, 1, 50);
    expect([...t.order]).toEqual([1, 0]);
    expect([...t.xAt]).toEqual([3, 5]);
    expect([...t.lT]).toEqual([5, 6]);
  });
});

describe('a print received after a later-stamped book frame is processed at its own venue time (issue 32 item 2)', () => {
  // (a) Our bid at 1000 (inside 999 / 1002) arrives at +2. A sell print at 999 stamped +1 is received
  // after a frame stamped +5: processed at +5 (the old monotone clamp) it filled our bid 10 of 10;
  // it happened before the bid arrived.
  const late = [
    book(T0, T0, [[999, 100]], [[1002, 100]], true),
    book(T0 + 5, T0 + 6, [], [[1003, 100]]),
    sellPrint(T0 + 1, T0 + 7, 999, 10),
    book(T0 + 20, T0 + 21, [], [[1004, 100]]),
  ];
  it('(a) a print at +1 does not fill a bid that arrived at +2: 0 of 10 (window 0, the old order: 10)', async () => {
    expect(await bidFills(late, 1000, 10)).toBe(0);
    expect(await bidFills(late, 1000, 10, { reorderWindowMs: 0 })).toBe(10);
  });

  // (b) Behind 50 at 1000. A frame at +10 shows the 50 ahead gone, an unrelated frame at +11, then
  // the 50-lot print stamped +10. Moved to +11 it missed the same-instant netting and the default
  // risk-averse model filled 50 of 50. Either window alone catches it.
  const netted = [
    book(T0, T0, [[1000, 50], [999, 100]], [[1002, 100]], true),
    book(T0 + 10, T0 + 12, [[1000, 0]], []),
    book(T0 + 11, T0 + 13, [], [[1003, 100]]),
    sellPrint(T0 + 10, T0 + 14, 1000, 50),
    book(T0 + 30, T0 + 31, [], [[1004, 100]]),
  ];
  it('(b) the print stamped +10 nets against the frame at +10 that showed it: 0 of 50 (both windows 0: 50)', async () => {
    expect(await bidFills(netted, 1000, 50)).toBe(0);
    expect(await bidFills(netted, 1000, 50, { reorderWindowMs: 0 })).toBe(0); // the netting window (3 ms) alone
    expect(await bidFills(netted, 1000, 50, { nettingWindowMs: 0 })).toBe(0); // the reorder window alone
    expect(await bidFills(netted, 1000, 50, { reorderWindowMs: 0, nettingWindowMs: 0 })).toBe(50);
  });

  // The venue stamps one trade apart on its two streams: the frame at +10 shows the 50 gone, the
  // print is stamped +12. Within the netting window (3 ms) it is that volume; at +14 a new trade.
  const after = (printMs: number): RecordedEvent[] => [
    book(T0, T0, [[1000, 50], [999, 100]], [[1002, 100]], true),
    book(T0 + 10, T0 + 11, [[1000, 0]], []),
    sellPrint(T0 + printMs, T0 + printMs + 1, 1000, 50),
    book(T0 + 30, T0 + 31, [], [[1004, 100]]),
  ];
  it('a print stamped 2 ms after the frame that showed it nets (0 of 50); 4 ms after, or with netting_window_ms 0, it fills 50', async () => {
    expect(await bidFills(after(12), 1000, 50)).toBe(0);
    expect(await bidFills(after(12), 1000, 50, { nettingWindowMs: 0 })).toBe(50);
    expect(await bidFills(after(14), 1000, 50)).toBe(50);
  });
});

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-venue-time-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('late prints on real data', () => {
  it('30 s of Binance BTCUSDT (Tardis import): prints processed after their venue time, window 0 against the default', async () => {
    const FIX = join(ROOT, 'test/fixtures/tardis');
    const rec = join(dir, 'btc.jsonl.gz');
    await promisify(execFile)(process.execPath, ['bin/mmbot.js', 'import', 'tardis', '--book', join(FIX, 'btcusdt-book-30s.csv.gz'), '--trades', join(FIX, 'btcusdt-trades-30s.csv.gz'), '--instrument', join(FIX, 'btcusdt.yaml'), '--out', rec], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });
    const col = await loadColumnar([rec]);
    const before = latePrints(col, 0);
    const after = latePrints(col, defaultSettings().reorderWindowMs);
    expect({ rows: before.rows, late: before.late, maxLateMs: before.maxLateMs }).toEqual(BTC_30S_WINDOW_0);
    expect(after.late).toBe(0);
  }, 90_000);
});

/** The fixture's figures with the old monotone clamp (a drift guard; 0 late with the default window is the point). */
const BTC_30S_WINDOW_0 = { rows: 1159, late: 6, maxLateMs: 6 };

describe('an order-level recording with order ids nets at the same instant only', () => {
  // LOBSTER (one message stream, each execution before its book row). Bids at 100.00: 11 (100) and
  // 12 (100); our 50 joins behind them (sent on the first book, arriving 2 ms later); 13 (100) joins
  // behind us. 12 is canceled at .300 (100 ahead left), 11 executes at .3005, then 80 of 13, behind
  // us, at .301: we trade first, 50 filled (exact). A 3 ms netting window would take the execution
  // of 11 for the cancel's volume, then the 80 for 11's: 0 filled.
  it('a cancel ahead, then executions within 3 ms: 50 filled, as in the exact queue', async () => {
    const def = loadInstrumentDef(resolve(import.meta.dirname, '../fixtures/lobster/aapl.yaml'));
    const messages = [
      '34200.100000000,1,11,100,1000000,1',
      '34200.101000000,1,12,100,1000000,1',
      '34200.101500000,1,21,500,1000500,-1',
      '34200.200000000,1,13,100,1000000,1',
      '34200.300000000,3,12,100,1000000,1',
      '34200.300500000,4,11,100,1000000,1',
      '34200.301000000,4,13,80,1000000,1',
      '34200.400000000,1,22,100,1000500,-1',
    ];
    const book = ['9999999999,0,1000000,100', '9999999999,0,1000000,200', '1000500,500,1000000,200', '1000500,500,1000000,300', '1000500,500,1000000,200', '1000500,500,1000000,100', '1000500,500,1000000,20', '1000500,600,1000000,20'];
    writeFileSync(join(dir, 'msg.csv'), `${messages.join('\n')}\n`);
    writeFileSync(join(dir, 'book.csv'), `${book.join('\n')}\n`);
    const out = join(dir, 'l3.jsonl.gz');
    let w: ReturnType<typeof createRecordingWriter> | null = null;
    await importLobster({
      messages: openLines(join(dir, 'msg.csv')), orderbook: openLines(join(dir, 'book.csv')), def, midnightMs: midnightInZone('2012-06-21', 'America/New_York'), feedLatencyMs: 0, issues: new RowIssues(true),
      openSink: (startedAtMs) => (w = createRecordingWriter(out, { instruments: [def.instrument], startedAtMs, source: 'test', bookLevel: 3, orderIds: true })),
    });
    await (w as ReturnType<typeof createRecordingWriter> | null)!.close();
    const col = await loadColumnar([out]);
    const run = await runBacktest({
      data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
      settings: defaultSettings({ orderLatency: { entry: 2, response: 2 } }), createEngine: oneRestingOrder(def.instrument.symbol, 'buy', 10_000, 50),
    });
    expect(run.exchange.queueModelName).toBe('l3-fifo');
    expect(run.fills.map((f) => [f.priceTicks, f.qty])).toEqual([[10_000, 50]]);
    expect(run.exchange.nettingWindowMs).toBe(0);
  });
});
