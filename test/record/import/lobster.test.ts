import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BookUpdated, TradePrinted } from '../../../src/domain/events.ts';
import type { RecordingGap } from '../../../src/record/format.ts';
import { createRecordingWriter, loadColumnar } from '../../../src/record/index.ts';
import { importLobster, loadInstrumentDef, midnightInZone, openLines, RowIssues, type LobsterImportStats } from '../../../src/record/import/index.ts';

const FIX = resolve(import.meta.dirname, '../../fixtures/lobster');
const MSG = join(FIX, 'AAPL_2012-06-21_34200000_57600000_message_2.csv');
const OB = join(FIX, 'AAPL_2012-06-21_34200000_57600000_orderbook_2.csv');
const def = loadInstrumentDef(join(FIX, 'aapl.yaml'));
const dir = mkdtempSync(join(tmpdir(), 'mmbot-lobster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
type Ev = BookUpdated | TradePrinted | RecordingGap;

async function run(msgPath = MSG, obPath = OB): Promise<{ events: Ev[]; issues: RowIssues; stats: LobsterImportStats }> {
  const events: Ev[] = [];
  const issues = new RowIssues(false);
  const stats = await importLobster({
    messages: openLines(msgPath),
    orderbook: openLines(obPath),
    def,
    midnightMs: midnightInZone('2012-06-21', 'America/New_York'),
    feedLatencyMs: 0,
    issues,
    openSink: () => ({ write: (e) => void events.push(structuredClone(e)) }),
  });
  return { events, issues, stats };
}
const books = (evs: Ev[]) => evs.filter((e): e is BookUpdated => e.type === 'book');

describe('LOBSTER importer', () => {
  it('New York midnight in summer is 04:00 UTC, in winter 05:00 UTC', () => {
    expect(new Date(midnightInZone('2012-06-21', 'America/New_York')).toISOString()).toBe('2012-06-21T04:00:00.000Z');
    expect(new Date(midnightInZone('2012-12-21', 'America/New_York')).toISOString()).toBe('2012-12-21T05:00:00.000Z');
    expect(() => midnightInZone('2012-13-01', 'America/New_York')).toThrow(/not a calendar date/);
    expect(() => midnightInZone('2012-06-21', 'Mars/Olympus')).toThrow(/not a time zone/);
  });

  it('rebuilds the book order by order in FIFO, consistent with the order-book file at every message', async () => {
    const { events, issues } = await run();
    expect(issues.summary()).toEqual([]);
    const bs = books(events);
    // One book per message but the hidden execution's (it changes no visible book).
    const types = readFileSync(MSG, 'utf8').trim().split('\n').map((l) => Number(l.split(',')[1]));
    expect(bs).toHaveLength(types.filter((t) => t < 5).length);
    expect(bs.length).toBeGreaterThan(2000);
    // First message: an order of 100 joins behind the 300 that rested before the file started.
    // The 300 is a placeholder (id -2: its id is not in the file), the 100 order 1001.
    expect(bs[0]!.bids[0]).toEqual({ priceTicks: 10_000, qty: 400, orders: [300, 100], orderIds: [-2, 1001] });
    expect(bs[0]!.level).toBe(3);
    // After the front order (300) traded, our tracked order is alone at the front.
    expect(bs[3]!.bids[0]).toEqual({ priceTicks: 10_000, qty: 100, orders: [100], orderIds: [1001] });
    // Every book's top two levels equal the file's row.
    const rows = readFileSync(OB, 'utf8').trim().split('\n').map((l) => l.split(',').map(Number));
    const msgTypes = readFileSync(MSG, 'utf8').trim().split('\n').map((l) => Number(l.split(',')[1]));
    let bi = 0;
    rows.forEach((row, i) => {
      if (msgTypes[i]! >= 5) return; // hidden, cross and halt messages change no visible book
      const b = bs[bi++]!;
      expect([b.asks[0]?.priceTicks, b.asks[0]?.qty, b.bids[0]?.priceTicks, b.bids[0]?.qty], `row ${i + 1}`).toEqual([row[0]! / 100, row[1], row[2]! / 100, row[3]]);
    });
  });

  it('executions become trades with the taker on the other side; times are New York wall time', async () => {
    const { events } = await run();
    const trades = events.filter((e): e is TradePrinted => e.type === 'trade');
    expect(trades.slice(0, 6).map((t) => [t.priceTicks, t.qty, t.aggressor])).toEqual([
      [10_001, 150, 'buy'],
      [10_000, 300, 'sell'],
      [10_000, 40, 'sell'],
      [10_001, 25, 'buy'], // hidden execution: no book change
      [10_001, 250, 'buy'],
      [10_001, 50, 'buy'],
    ]);
    expect(trades.length).toBeGreaterThan(100);
    expect(trades[0]!.tsEvent).toBeCloseTo(Date.parse('2012-06-21T13:30:00.682Z') + 0.98, 3);
  });

  it('end of day: a halt and resumptions are gaps, the cross is a cross print, hidden executions hidden prints (one between ticks kept)', async () => {
    const { events, issues, stats } = await run();
    expect(issues.summary()).toEqual([]); // the half-cent execution is not an off-grid bad row
    const tail = events.slice(-9).map((e) => (e.type === 'trade' ? [e.type, e.priceTicks, e.qty, e.condition ?? 'regular'] : e.type === 'gap' ? [e.type, e.reason] : [e.type, e.asks[0]!.priceTicks, e.asks[0]!.qty, e.asks[0]!.orderIds![0], e.asks[0]!.orderIds!.at(-1)]));
    expect(tail).toEqual([
      ['gap', 'trading halt message (price -1)'],
      ['gap', 'trading halt message (price 0)'],
      ['trade', 10_025, 400, 'cross'], // at the best ask, but no resting order traded: not a buy print there
      ['gap', 'trading halt message (price 1)'],
      ['trade', 10_025, 300, 'hidden'], // at the visible best ask: its 2,300 displayed stay untouched
      ['trade', 10_001, 70, 'hidden'], // 100.005: a resting sell between ticks, at its worse tick (up)
      ['book', 10_025, 2_400, 1881, 1944], // order 1944 joins at the back (qty, first and last order ids)
      ['trade', 10_025, 100, 'regular'], // the front order, 1881, executed
      ['book', 10_025, 2_300, 1885, 1944],
    ]);
    // 3 hidden prints in all (25 early in the day, then 300 and 70); 2 levels reconciled: orders 103 and 203
    // rested before the file at its 3rd level, which a depth-2 file shows only when they come into view.
    expect(stats).toMatchObject({ gaps: 3, halts: 3, crossTrades: 1, crossContracts: 400, hiddenTrades: 3, hiddenContracts: 395, hiddenOffGrid: 1, reconciledLevels: 2, unseenOrders: 0 });
  });

  it('an id never added, deleted at a level the file shows, is a known order there under a new id (a replace with its messages missing)', async () => {
    // As in the AMZN sample: 11 (100) and 12 (114) rest at 100.00; id 77, never added, is deleted
    // with 100 and the file shows the level at 114: order 11 was replaced, not order 12 cut to 14.
    const msg = ['34200.1,1,21,500,1000500,-1', '34200.2,1,11,100,1000000,1', '34200.3,1,12,114,1000000,1', '34200.4,1,13,100,1000000,1', '34200.5,3,77,100,1000000,1'];
    const ob = ['1000500,500,-9999999999,0', '1000500,500,1000000,100', '1000500,500,1000000,214', '1000500,500,1000000,314', '1000500,500,1000000,214'];
    writeFileSync(join(dir, 'rep_message_1.csv'), `${msg.join('\n')}\n`);
    writeFileSync(join(dir, 'rep_orderbook_1.csv'), `${ob.join('\n')}\n`);
    const { events, issues, stats } = await run(join(dir, 'rep_message_1.csv'), join(dir, 'rep_orderbook_1.csv'));
    expect(issues.summary()).toEqual([]);
    expect(stats).toMatchObject({ replacedOrders: 1, reconciledLevels: 0 });
    // Of the two 100s, the later (13) is taken as replaced: an order of ours between 11 and 13 keeps 11 ahead.
    expect(books(events).at(-1)!.bids[0]).toEqual({ priceTicks: 10_000, qty: 214, orders: [100, 114], orderIds: [11, 12] });
  });

  it('the first 6,000 AMZN messages: unexplained drops come off the back of the queue, none moves a newer order up', async () => {
    const A = resolve(import.meta.dirname, '../../fixtures/lobster/amzn');
    const issues = new RowIssues(false);
    const stats = await importLobster({
      messages: openLines(join(A, 'AMZN_2012-06-21_first-6000_message_5.csv.gz')),
      orderbook: openLines(join(A, 'AMZN_2012-06-21_first-6000_orderbook_5.csv.gz')),
      def: loadInstrumentDef(join(A, 'amzn.yaml')),
      midnightMs: midnightInZone('2012-06-21', 'America/New_York'),
      feedLatencyMs: 0,
      issues,
      openSink: () => ({ write: () => undefined }),
    });
    // Front first (the old settleLevel), the same rows needed 361 settlements: 119 drops took 13,310
    // shares off known orders, 9 of them leaving newer orders behind the ones reduced; 3 book-mismatch rows.
    expect(stats).toMatchObject({ settlements: 360, settledKnownOrders: 129, settledKnownContracts: 14_361, settledReordered: 0, settledCorrections: 5 });
    expect(issues.toJSON()).toEqual({ 'book-mismatch': 2 });
  });

  it('a later message of an order a drop took off: it was still resting, so the drop was another order\'s, taken from the back then', async () => {
    // 11 (100) and 12 (100) rest at 100.00; the file drops the level to 100 with no message (11 left,
    // unseen, but which one is unknown): 12, the newest, is taken. 13 (100) joins. 12's own delete
    // then shows 12 was still there: its 100 comes off the back (13), and 13's delete off the back
    // again (11). No mismatch; 11 stays ahead of a buy of ours that joined after it until the level
    // empties (front first, the old import took 11 at the drop: ids [12], [12, 13], [13]).
    const msg = ['34200.1,1,21,500,1000500,-1', '34200.2,1,11,100,1000000,1', '34200.3,1,12,100,1000000,1', '34200.4,1,22,100,1000600,-1', '34200.5,1,13,100,1000000,1', '34200.6,3,12,100,1000000,1', '34200.7,3,13,100,1000000,1'];
    const ob = ['1000500,500,-9999999999,0', '1000500,500,1000000,100', '1000500,500,1000000,200', '1000500,500,1000000,100', '1000500,500,1000000,200', '1000500,500,1000000,100', '1000500,500,-9999999999,0'];
    writeFileSync(join(dir, 'cor_message_1.csv'), `${msg.join('\n')}\n`);
    writeFileSync(join(dir, 'cor_orderbook_1.csv'), `${ob.join('\n')}\n`);
    const { events, issues, stats } = await run(join(dir, 'cor_message_1.csv'), join(dir, 'cor_orderbook_1.csv'));
    expect(issues.toJSON()).toEqual({ 'book-mismatch': 1 }); // the unexplained drop itself
    expect(stats).toMatchObject({ settlements: 1, settledCorrections: 2, replacedOrders: 0 });
    expect(books(events).map((b) => b.bids[0]?.orderIds ?? [])).toEqual([[], [11], [11, 12], [11], [11, 13], [11], []]);
  });

  it('messages of size 0 or less are bad rows named by the message file and line, skipped: the recording loads', async () => {
    // Order 12 added with 0 shares, an execution of 0 and a partial cancel of −20 of order 11 (the
    // book rows repeat the level: nothing changed); a halt's size 0 is LOBSTER's own and stays a gap.
    const msg = ['34200.1,1,21,500,1000500,-1', '34200.2,1,11,100,1000000,1', '34200.3,1,12,0,1000000,1', '34200.4,4,11,0,1000000,1', '34200.5,2,11,-20,1000000,1', '34200.6,4,11,40,1000000,1', '34200.7,7,0,0,-1,-1'];
    const ob = ['1000500,500,-9999999999,0', '1000500,500,1000000,100', '1000500,500,1000000,100', '1000500,500,1000000,100', '1000500,500,1000000,100', '1000500,500,1000000,60', '1000500,500,1000000,60'];
    const m = join(dir, 'zero_message_1.csv');
    writeFileSync(m, `${msg.join('\n')}\n`);
    writeFileSync(join(dir, 'zero_orderbook_1.csv'), `${ob.join('\n')}\n`);
    const out = join(dir, 'zero.jsonl.gz');
    const issues = new RowIssues(false);
    let w: ReturnType<typeof createRecordingWriter> | null = null;
    const stats = await importLobster({
      messages: openLines(m),
      orderbook: openLines(join(dir, 'zero_orderbook_1.csv')),
      def,
      midnightMs: midnightInZone('2012-06-21', 'America/New_York'),
      feedLatencyMs: 0,
      issues,
      openSink: (startedAtMs) => (w = createRecordingWriter(out, { instruments: [def.instrument], startedAtMs, source: 'test', bookLevel: 3, orderIds: true })),
    });
    await (w as ReturnType<typeof createRecordingWriter> | null)!.close();
    expect(issues.toJSON()).toEqual({ 'negative-size': 3 });
    expect(issues.examples.get('negative-size')!.map((e) => `${e.file}:${e.line}: ${e.message}`)).toEqual([
      `${m}:3: size 0 must be > 0 (message type 1); skipped`,
      `${m}:4: size 0 must be > 0 (message type 4); skipped`,
      `${m}:5: size -20 must be > 0 (message type 2); skipped`,
    ]);
    expect(stats).toMatchObject({ books: 3, trades: 1, tradedContracts: 40, halts: 1, settlements: 0 });
    const col = await loadColumnar([out]);
    expect(col.length).toBe(5); // 3 books, the print of 40, the halt's gap
  });

  it('a row with an empty slot shows the whole side: a level of ours it does not list is gone, also past its worst price', async () => {
    // Depth 2. Bids 11 (100) at 100.00 and 12 (50) at 99.99; with no message for them, the file's
    // rows drop 99.99 (one bid shown, the second slot empty), then every bid. The old import kept
    // both past the file's worst shown bid (none, the second time): its last two books both had [10000, 9999].
    const msg = ['34200.1,1,21,500,1000500,-1', '34200.2,1,11,100,1000000,1', '34200.3,1,12,50,999900,1', '34200.4,1,22,100,1000600,-1', '34200.5,1,23,100,1000700,-1'];
    const ob = [
      '1000500,500,-9999999999,0,9999999999,0,-9999999999,0',
      '1000500,500,1000000,100,9999999999,0,-9999999999,0',
      '1000500,500,1000000,100,9999999999,0,999900,50',
      '1000500,500,1000000,100,1000600,100,-9999999999,0',
      '1000500,500,-9999999999,0,1000600,100,-9999999999,0',
    ];
    writeFileSync(join(dir, 'whole_message_2.csv'), `${msg.join('\n')}\n`);
    writeFileSync(join(dir, 'whole_orderbook_2.csv'), `${ob.join('\n')}\n`);
    const { events, issues } = await run(join(dir, 'whole_message_2.csv'), join(dir, 'whole_orderbook_2.csv'));
    expect(books(events).map((b) => b.bids.map((l) => l.priceTicks))).toEqual([[], [10_000], [10_000, 9_999], [10_000], []]);
    expect(issues.toJSON()).toEqual({ 'book-mismatch': 2 });
  });

  it('reports messages the order-book file contradicts and settles to the file', async () => {
    const rows = readFileSync(OB, 'utf8').trim().split('\n');
    rows[2] = rows[2]!.replace(/^1000100,300,/, '1000100,310,');
    const ob = join(dir, 'bad_orderbook_2.csv');
    writeFileSync(ob, `${rows.join('\n')}\n`);
    const msgs = readFileSync(MSG, 'utf8').trim().split('\n');
    msgs.splice(5, 0, '34201.999,9,1,1,1000000,1'); // an unknown message type...
    rows.splice(5, 0, rows[4]!); // ...with its book row
    writeFileSync(ob, `${rows.join('\n')}\n`);
    const msg = join(dir, 'bad_message_2.csv');
    writeFileSync(msg, `${msgs.join('\n')}\n`);
    const { issues } = await run(msg, ob);
    expect(issues.counts.get('unknown-message')).toBe(1);
    expect(issues.counts.get('book-mismatch')).toBeGreaterThanOrEqual(1);
    expect(issues.examples.get('book-mismatch')![0]!.line).toBe(3);
  });
});
