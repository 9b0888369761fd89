import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MmError } from '../../../src/core/errors.ts';
import type { BookUpdated, FundingSettled, PriceObserved, TickerUpdated, TradePrinted } from '../../../src/domain/events.ts';
import type { RecordingGap } from '../../../src/record/format.ts';
import { importTardis, openLines, parseInstrumentDef, RowIssues, type TardisImportStats, type TardisSink } from '../../../src/record/import/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-tardis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BOOK_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const TRADE_HEADER = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';
const TICKER_HEADER = 'exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,predicted_funding_rate,open_interest,last_price,index_price,mark_price';
const def = parseInstrumentDef({ symbol: 'TEST', tick_size: '0.5', lot_size: '0.01', multiplier: '0.01', maker_fee: '0.0001', taker_fee: '0.0004' }, 'test.yaml');

type Ev = BookUpdated | TradePrinted | RecordingGap | TickerUpdated | FundingSettled | PriceObserved;

/** Writes the CSV lines to a file and imports them; returns the events and the issues. */
async function run(book: string[], trades?: string[], strict = false, feedLatencyMs: number | null = 0, ticker?: string[]): Promise<{ events: Ev[]; issues: RowIssues; startedAt: number | null; stats: TardisImportStats }> {
  const name = Math.random().toString(36).slice(2);
  const bookPath = join(dir, `${name}-book.csv`);
  writeFileSync(bookPath, [BOOK_HEADER, ...book].join('\n'));
  let tradesPath: string | undefined;
  if (trades) writeFileSync((tradesPath = join(dir, `${name}-trades.csv`)), [TRADE_HEADER, ...trades].join('\n'));
  let tickerPath: string | undefined;
  if (ticker) writeFileSync((tickerPath = join(dir, `${name}-ticker.csv`)), [TICKER_HEADER, ...ticker].join('\n'));
  const events: Ev[] = [];
  const issues = new RowIssues(strict);
  let startedAt: number | null = null;
  // Tickers and settlements hold Decimals (not cloneable) and are fresh objects anyway.
  const sink: TardisSink = { write: (ev) => void events.push(ev.type === 'book' || ev.type === 'trade' || ev.type === 'gap' ? structuredClone(ev) : ev) };
  const stats = await importTardis({
    book: openLines(bookPath),
    ...(tradesPath ? { trades: openLines(tradesPath) } : {}),
    ...(tickerPath ? { ticker: openLines(tickerPath) } : {}),
    def,
    depth: 10,
    clock: 'exchange',
    feedLatencyMs,
    issues,
    openSink: (ms) => ((startedAt = ms), sink),
  });
  return { events, issues, startedAt, stats };
}

const b = (tsUs: number, snap: boolean, side: string, price: string, amount: string, localUs = tsUs + 500): string =>
  `x,TEST,${tsUs},${localUs},${snap},${side},${price},${amount}`;
const t = (tsUs: number, side: string, price: string, amount: string, localUs = tsUs + 500): string => `x,TEST,${tsUs},${localUs},1,${side},${price},${amount}`;
const levels = (ev: Ev | undefined) => (ev && ev.type === 'book' ? { bids: ev.bids.map((l) => [l.priceTicks, l.qty]), asks: ev.asks.map((l) => [l.priceTicks, l.qty]) } : null);

describe('Tardis importer', () => {
  it('rebuilds the book from a snapshot run and level updates (amount 0 deletes), one event per instant', async () => {
    const { events, issues, startedAt } = await run([
      b(1_000_000, true, 'bid', '100.0', '1.00'),
      b(1_000_000, true, 'bid', '99.5', '2.00'),
      b(1_000_000, true, 'ask', '101.0', '0.50'),
      b(2_000_000, false, 'bid', '100.0', '0'),
      b(2_000_000, false, 'ask', '100.5', '0.25'),
      b(3_000_000, false, 'bid', '99.5', '3.00'),
    ]);
    expect(issues.total).toBe(0);
    expect(startedAt).toBe(1000);
    expect(events.map((e) => e.type)).toEqual(['book', 'book', 'book']);
    // ticks of 0.5: 100.0 → 200; contracts of 0.01: 1.00 → 100
    expect(levels(events[0])).toEqual({ bids: [[200, 100], [199, 200]], asks: [[202, 50]] });
    expect(levels(events[1])).toEqual({ bids: [[199, 200]], asks: [[201, 25], [202, 50]] });
    expect(levels(events[2])).toEqual({ bids: [[199, 300]], asks: [[201, 25], [202, 50]] });
    expect(events.map((e) => e.tsEvent)).toEqual([1000, 2000, 3000]);
  });

  it('merges trades by arrival time, before the book change of the same instant, with the taker side', async () => {
    const { events } = await run(
      [b(1_000_000, true, 'bid', '100.0', '1'), b(1_000_000, true, 'ask', '101.0', '1'), b(2_000_000, false, 'ask', '101.0', '0.40')],
      [t(1_500_000, 'sell', '100.0', '0.10'), t(2_000_000, 'buy', '101.0', '0.60'), t(2_500_000, 'unknown', '101.0', '0.01')],
    );
    expect(events.map((e) => (e.type === 'trade' ? `t${e.aggressor[0]}@${e.tsEvent}` : `${e.type}@${e.tsEvent}`))).toEqual([
      'book@1000',
      'ts@1500',
      'tb@2000',
      'book@2000',
      // an unknown aggressor at the best ask was a buy
      'tb@2500',
    ]);
    const tr = events.filter((e): e is TradePrinted => e.type === 'trade');
    expect(tr.map((x) => [x.priceTicks, x.qty])).toEqual([[200, 10], [202, 60], [202, 1]]);
  });

  it('receive times: exchange time plus the jitter local − exchange shows above its minimum, never going back', async () => {
    // The recorded base latency (feedLatencyMs null): the recorder's clock is behind, so the base is 0.
    const { events } = await run([
      b(1_000_000, true, 'bid', '100.0', '1', 1_000_000 - 1_300_000), // local clock 1.3 s behind
      b(1_000_000, true, 'ask', '101.0', '1', 1_000_000 - 1_300_000),
      b(2_000_000, false, 'bid', '100.0', '2', 2_000_000 - 1_295_000), // 5 ms slower
      b(3_000_000, false, 'bid', '100.0', '3', 3_000_000 - 1_300_000),
    ], undefined, false, null);
    expect(events.map((e) => e.tsRecv - e.tsEvent)).toEqual([0, 5, 0]);
  });

  it('feed latency defaults to the recorded local − exchange difference when the recorder clock is not behind', async () => {
    const book = [
      b(1_000_000, true, 'bid', '100.0', '1', 1_003_000), // arrived 3 ms after the exchange stamped it
      b(1_000_000, true, 'ask', '101.0', '1', 1_003_000),
      b(2_000_000, false, 'bid', '100.0', '2', 2_007_500), // 7.5 ms
      b(3_000_000, false, 'bid', '100.0', '3', 3_003_000),
    ];
    const recorded = await run(book, undefined, false, null);
    expect(recorded.events.map((e) => e.tsRecv - e.tsEvent)).toEqual([3, 7.5, 3]);
    // An explicit base replaces the recorded one; the jitter above the minimum stays.
    const explicit = await run(book, undefined, false, 1);
    expect(explicit.events.map((e) => e.tsRecv - e.tsEvent)).toEqual([1, 5.5, 1]);
  });

  it('keeps a level update whose exchange time goes back (absolute sizes: a dropped delete would leave a stale level)', async () => {
    const { events, issues } = await run([
      b(1_000_000, true, 'bid', '100.0', '1', 1_000_500),
      b(1_000_000, true, 'ask', '101.0', '1', 1_000_500),
      b(3_000_000, false, 'bid', '99.5', '2', 3_000_500),
      b(2_500_000, false, 'bid', '99.5', '0', 3_100_000), // exchange time back, arrived later: the delete
    ]);
    expect(issues.total).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['book', 'book', 'book']);
    expect(levels(events[2])).toEqual({ bids: [[200, 100]], asks: [[202, 100]] });
  });

  it('skips level updates before the first snapshot (counted) instead of writing a one-sided book', async () => {
    const { events, stats } = await run([
      b(500_000, false, 'bid', '99.0', '1'),
      b(600_000, false, 'ask', '102.0', '1'),
      b(1_000_000, true, 'bid', '100.0', '1'),
      b(1_000_000, true, 'ask', '101.0', '1'),
      b(2_000_000, false, 'ask', '101.0', '2'),
    ]);
    expect(stats.skippedBeforeSnapshot).toBe(2);
    expect(stats.gaps).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['book', 'book']);
    expect(levels(events[0])).toEqual({ bids: [[200, 100]], asks: [[202, 100]] });
    expect(levels(events[1])).toEqual({ bids: [[200, 100]], asks: [[202, 200]] });
  });

  it('groups book rows by local_timestamp (one arrival = one book) and merges trades by it', async () => {
    const { events } = await run(
      [
        b(1_000_000, true, 'bid', '100.0', '1', 1_500_000),
        b(1_000_000, true, 'ask', '101.0', '1', 1_500_000),
        b(2_000_000, false, 'bid', '100.0', '2', 2_600_000), // one arrival, two exchange times
        b(2_100_000, false, 'ask', '101.0', '3', 2_600_000),
        b(2_100_000, false, 'bid', '100.0', '4', 2_700_000), // same exchange time, a later arrival
      ],
      // Stamped before the 2_100_000 rows by the exchange, but it arrived after the 2_600_000 book.
      [t(2_050_000, 'sell', '100.0', '0.5', 2_650_000)],
    );
    expect(events.map((e) => (e.type === 'book' ? JSON.stringify(levels(e)) : `${e.type}@${e.tsEvent}`))).toEqual([
      JSON.stringify({ bids: [[200, 100]], asks: [[202, 100]] }),
      JSON.stringify({ bids: [[200, 200]], asks: [[202, 300]] }),
      'trade@2050',
      JSON.stringify({ bids: [[200, 400]], asks: [[202, 300]] }),
    ]);
  });

  it('a row whose local_timestamp goes back joins the frame that arrived last, which keeps that arrival\'s times; reported out-of-order', async () => {
    const { events, issues } = await run([
      b(1_000_000, true, 'bid', '100.0', '1', 1_000_000),
      b(1_000_000, true, 'ask', '101.0', '1', 1_000_000),
      b(3_000_000, false, 'ask', '101.0', '2', 3_000_000), // the ask change arrives at 3.0 s
      b(2_000_000, false, 'bid', '100.0', '3', 2_000_000), // stamped 2.0 s, after the 3.0 s row
      b(4_000_000, false, 'bid', '100.0', '4', 4_000_000),
    ]);
    // One frame with both changes, seen at 3.0 s (the old import stamped it with the last row's 2.0 s:
    // the 3.0 s ask change seen 1 s early, and no issue).
    expect(events.map((e) => (e.type === 'book' ? [e.tsEvent, e.tsRecv, JSON.stringify(levels(e))] : e.type))).toEqual([
      [1000, 1000, JSON.stringify({ bids: [[200, 100]], asks: [[202, 100]] })],
      [3000, 3000, JSON.stringify({ bids: [[200, 300]], asks: [[202, 200]] })],
      [4000, 4000, JSON.stringify({ bids: [[200, 400]], asks: [[202, 200]] })],
    ]);
    expect(issues.toJSON()).toEqual({ 'out-of-order': 1 });
    expect(issues.examples.get('out-of-order')![0]).toMatchObject({ line: 5, message: 'local_timestamp 2000000 is before the previous row\'s 3000000; kept with the rows that arrived at 3000000' });
  });

  it('a mid-stream snapshot run is a gap: the book is replaced, not merged', async () => {
    const { events } = await run([
      b(1_000_000, true, 'bid', '100.0', '1'),
      b(1_000_000, true, 'ask', '101.0', '1'),
      b(2_000_000, false, 'bid', '99.0', '1'),
      b(3_000_000, true, 'bid', '98.0', '1'),
      b(3_000_000, true, 'ask', '99.0', '1'),
      b(4_000_000, false, 'ask', '99.5', '1'),
    ]);
    expect(events.map((e) => e.type)).toEqual(['book', 'book', 'gap', 'book', 'book']);
    expect(levels(events[3])).toEqual({ bids: [[196, 100]], asks: [[198, 100]] });
  });

  it('counts bad rows by kind with file and line, skips them, and keeps going', async () => {
    const { events, issues } = await run(
      [
        b(1_000_000, true, 'bid', '100.0', '1'),
        b(1_000_000, true, 'ask', '101.0', '1'),
        b(3_000_000, false, 'bid', '100.0', '-1'), // line 4: negative
        b(3_000_000, false, 'bid', '100.2', '1'), // line 5: off the 0.5 grid
        b(3_000_000, false, 'middle', '100.0', '1'), // line 6: unknown side
        b(3_000_000, false, 'bid', '99.0', '1'), // line 7: fine
        b(2_000_000, false, 'bid', '100.0', '5', 3_000_600), // line 8: exchange time goes back: kept (it arrived later)
        b(4_000_000, false, 'bid', '101.5', '1'), // line 9: crosses the ask at 101.0
        b(5_000_000, false, 'ask', '102.0', '0.005'), // line 10: half a lot → rounded to 1
      ],
      [t(3_500_000, 'buy', 'abc', '1')],
    );
    expect(issues.toJSON()).toEqual({ 'negative-size': 1, 'off-grid-price': 1, malformed: 2, 'crossed-book': 1, 'fractional-size': 1 });
    const lines = [...issues.examples.values()].flat().map((e) => `${e.file.endsWith('trades.csv') ? 'T' : 'B'}${e.line}`).sort();
    expect(lines).toEqual(['B4', 'B5', 'B6', 'B9', 'B10', 'T2'].sort());
    // The crossing ask (stale) was dropped: the bid at 101.5 is now the touch; line 8 set 100.0 to 5.
    const last = events.filter((e) => e.type === 'book').at(-1);
    expect(levels(last)).toEqual({ bids: [[203, 100], [200, 500], [198, 100]], asks: [[204, 1]] });
  });

  it('--strict stops at the first bad row naming file and line', async () => {
    const err = await run([b(1_000_000, true, 'bid', '100.0', '1'), b(2_000_000, false, 'bid', '100.0', '-1')], undefined, true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe('RECORDING_INVALID');
    expect((err as MmError).message).toMatch(/-book\.csv:3: negative-size/);
  });

  it('a file that is not a Tardis book CSV fails naming the missing columns', async () => {
    const p = join(dir, 'wrong.csv');
    writeFileSync(p, 'a,b,c\n1,2,3\n');
    const err = await importTardis({ book: openLines(p), def, depth: 5, clock: 'exchange', feedLatencyMs: 0, issues: new RowIssues(false), openSink: () => ({ write: () => undefined }) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'RECORDING_INVALID', message: expect.stringMatching(/wrong\.csv:1: not a Tardis incremental_book_L2 CSV: missing column\(s\) timestamp, local_timestamp, is_snapshot, side, price, amount/) });
  });
});

describe('Tardis derivative_ticker', () => {
  /** A ticker row: funding instant (µs), rate, last, index, mark; local time 500 µs after the exchange's. */
  const k = (tsUs: number, fundingUs: number | '', rate: string, last: string, index: string, mark: string): string =>
    `x,TEST,${tsUs},${tsUs + 500},${fundingUs},${rate},,1234.5,${last},${index},${mark}`;

  it('writes tickers, index prices and a settlement each time the funding instant moves on (last rate × last mark before it)', async () => {
    const H = 3_600_000_000; // 1 h in µs
    const { events, issues, stats } = await run(
      [b(1_000_000, true, 'bid', '100.0', '1'), b(1_000_000, true, 'ask', '101.0', '1')],
      undefined,
      false,
      0,
      [
        k(2_000_000, H, '0.0001', '100.5', '100.3', '100.4'),
        k(H - 1_000_000, H, '0.00012', '100.5', '100.6', '100.75'), // the last before the instant
        k(H + 2_000_000, 2 * H, '-0.0002', '101.0', '100.9', '101.1'), // the instant moved on: settled
        k(H + 3_000_000, 2 * H, 'abc', '101.0', '100.9', '101.1'), // line 5: bad rate, counted, skipped
        k(2 * H + 1_000_000, 3 * H, '0.0003', '', '', '102.0'), // second settlement: −0.0002 × 101.1
      ],
    );
    expect(issues.toJSON()).toEqual({ malformed: 1 });
    expect(issues.examples.get('malformed')![0]!.line).toBe(5);
    expect(stats).toMatchObject({ tickerRows: 4, fundings: 2 }); // rows read (the bad one is counted in issues)
    const settled = events.filter((e): e is FundingSettled => e.type === 'funding');
    expect(settled.map((e) => [e.tsEvent, e.settlement.rate.toFixed(), e.settlement.amount.toFixed(), e.settlement.settlementPrice.toFixed(), e.settlement.benchmarkPrice.toFixed()])).toEqual([
      [3_600_000, '0.00012', '0.01209', '100.75', '100.6'],
      [7_200_000, '-0.0002', '-0.02022', '101.1', '100.9'],
    ]);
    // Known from the first row of the next period (its receive time).
    expect(settled.map((e) => e.tsRecv)).toEqual([3_602_000, 7_201_000]);
    const tickers = events.filter((e): e is TickerUpdated => e.type === 'ticker');
    expect(tickers.map((e) => [e.markTicks, e.lastTicks, e.openInterest, e.funding?.rate?.toFixed(), e.funding?.amount?.toFixed()])).toEqual([
      [201, 201, 1234.5, '0.0001', '0.01004'],
      [202, 201, 1234.5, '0.00012', '0.01209'],
      [202, 202, 1234.5, '-0.0002', '-0.02022'],
      [204, null, 1234.5, '0.0003', '0.0306'],
    ]);
    const index = events.filter((e): e is PriceObserved => e.type === 'price');
    expect(index.map((e) => [e.source, e.priceTicks])).toEqual([['index', 200.6], ['index', 201.2], ['index', 201.8]]);
    // Merged by arrival: the book snapshot (local 1.0005 s) before the first ticker (2.0005 s).
    expect(events[0]!.type).toBe('book');
  });
});

describe('instrument definition', () => {
  it('names the key and value of a bad field', () => {
    expect(() => parseInstrumentDef({ symbol: 'X', tick_size: 'abc' }, 'x.yaml')).toThrow(/x\.yaml: tick_size: expected a decimal string.*got "abc"/);
    expect(() => parseInstrumentDef({ symbol: 'X' }, 'x.yaml')).toThrow(/^x\.yaml: tick_size: missing \(required\)$/);
    expect(() => parseInstrumentDef({ symbol: 'X', tick_size: '0.1', lots: 1 }, 'x.yaml')).toThrow(/x\.yaml: .*lots/);
    expect(() => parseInstrumentDef({ symbol: 'X', tick_size: '0', lot_size: '1' }, 'x.yaml')).toThrow(/tick_size: must be > 0/);
  });

  it('lot_size other than 1 needs an explicit multiplier (the default 1 made PnL 1000× too large for lot 0.001)', () => {
    expect(() => parseInstrumentDef({ symbol: 'BTC', tick_size: '0.1', lot_size: '0.001' }, 'btc.yaml')).toThrow(
      'btc.yaml: multiplier: missing (required when lot_size is not 1): one contract is lot_size 0.001 of the source\'s quantity unit, so PnL needs multiplier (usually 0.001, the same); the default 1 would make PnL 1000× too large',
    );
    expect(parseInstrumentDef({ symbol: 'BTC', tick_size: '0.1', lot_size: '0.001', multiplier: '0.001' }, 'btc.yaml').instrument.multiplier.toFixed()).toBe('0.001');
    expect(parseInstrumentDef({ symbol: 'AAPL', tick_size: '0.01' }, 'aapl.yaml').instrument.multiplier.toFixed()).toBe('1');
  });
});
