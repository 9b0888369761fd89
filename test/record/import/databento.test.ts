import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BookUpdated, TradePrinted } from '../../../src/domain/events.ts';
import type { RecordingGap } from '../../../src/record/format.ts';
import { decodeMetadata, importDatabento, nsToMs, openDbnFile, parseInstrumentDef, RowIssues, type DatabentoBookKind, type ImportSink } from '../../../src/record/import/index.ts';
import { dbnMetadata, mbo, mbp10, px, SCHEMA, trade, type MboSpec } from '../../support/dbn-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-dbn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const def = parseInstrumentDef({ symbol: 'TEST', tick_size: '0.01', lot_size: '1' }, 'test.yaml');
type Ev = BookUpdated | TradePrinted | RecordingGap;
/** 2024-08-09T00:00:00Z in ns. */
const T0 = 1_723_161_600_000_000_000n;
const T0_MS = 1_723_161_600_000;
const SNAP = 0x20;
const LAST = 0x80;

function file(bytes: Buffer[]): string {
  const p = join(dir, `${Math.random().toString(36).slice(2)}.dbn`);
  writeFileSync(p, Buffer.concat(bytes));
  return p;
}

async function run(o: { book?: [DatabentoBookKind, string]; trades?: string; rawSymbol?: string; depth?: number }): Promise<{ events: Ev[]; issues: RowIssues; stats: Awaited<ReturnType<typeof importDatabento>> }> {
  const events: Ev[] = [];
  const issues = new RowIssues(false);
  const sink: ImportSink = { write: (ev) => void events.push(structuredClone(ev)) };
  const stats = await importDatabento({
    ...(o.book ? { book: { kind: o.book[0], source: await openDbnFile(o.book[1]) } } : {}),
    ...(o.trades ? { trades: await openDbnFile(o.trades) } : {}),
    ...(o.rawSymbol ? { rawSymbol: o.rawSymbol } : {}),
    def,
    depth: o.depth ?? 10,
    feedLatencyMs: 0,
    issues,
    openSink: () => sink,
  });
  return { events, issues, stats };
}

const l3 = (ev: Ev | undefined) => (ev?.type === 'book' ? { bids: ev.bids.map((l) => [l.priceTicks, l.qty, l.orders]), asks: ev.asks.map((l) => [l.priceTicks, l.qty, l.orders]) } : null);
const at = (us: number): bigint => T0 + BigInt(us) * 1000n;

/** An MBO session: a snapshot, adds, modifies (keeping and losing priority), a trade, a fill, cancels. */
const SESSION: MboSpec[] = [
  { tsEventNs: at(0), orderId: 0n, price: null, size: 0, action: 'R', side: 'N', flags: SNAP },
  { tsEventNs: at(0), orderId: 1n, price: px('100.00'), size: 100, action: 'A', side: 'B', flags: SNAP },
  { tsEventNs: at(0), orderId: 2n, price: px('100.00'), size: 50, action: 'A', side: 'B', flags: SNAP },
  { tsEventNs: at(0), orderId: 3n, price: px('100.02'), size: 70, action: 'A', side: 'A', flags: SNAP | LAST },
  { tsEventNs: at(10), orderId: 4n, price: px('100.00'), size: 30, action: 'A', side: 'B' },
  { tsEventNs: at(20), orderId: 1n, price: px('100.00'), size: 60, action: 'M', side: 'B' }, // smaller: keeps its place
  { tsEventNs: at(30), orderId: 2n, price: px('100.01'), size: 50, action: 'M', side: 'B' }, // new price: its own level
  { tsEventNs: at(40), orderId: 0n, price: px('100.01'), size: 20, action: 'T', side: 'A', flags: 0 }, // sell aggressor
  { tsEventNs: at(40), orderId: 2n, price: px('100.01'), size: 20, action: 'F', side: 'B', flags: 0 },
  { tsEventNs: at(40), orderId: 2n, price: px('100.01'), size: 20, action: 'C', side: 'B' },
  { tsEventNs: at(50), orderId: 4n, price: px('100.00'), size: 40, action: 'M', side: 'B' }, // larger: to the back (it is already)
  { tsEventNs: at(55), orderId: 1n, price: px('100.00'), size: 70, action: 'M', side: 'B' }, // larger: loses priority
  { tsEventNs: at(60), orderId: 99n, price: px('100.00'), size: 5, action: 'C', side: 'B' }, // unknown order
];

describe('DBN decoding (versions 1–3)', () => {
  it('reads the metadata of each version: schema, symbols and mappings', () => {
    for (const version of [1, 2, 3] as const) {
      const b = dbnMetadata({ version, schema: SCHEMA.mbo, mappings: [{ raw: 'AAPL', id: 38 }, { raw: 'MSFT', id: 7152 }] });
      const m = decodeMetadata(b, 'x.dbn');
      expect(m).toMatchObject({ version, dataset: 'XNAS.ITCH', schema: 0, startNs: '1700000000000000000', endNs: null, stypeIn: 1, stypeOut: 0, tsOut: false, symbols: ['AAPL', 'MSFT'] });
      expect(m.mappings).toEqual([
        { rawSymbol: 'AAPL', intervals: [{ startDate: 20240808, endDate: 20240809, symbol: '38' }] },
        { rawSymbol: 'MSFT', intervals: [{ startDate: 20240808, endDate: 20240809, symbol: '7152' }] },
      ]);
    }
  });

  it('ns timestamps become ms to the closest double', () => {
    // 1_723_161_600_000_003_500 ns
    const ns = T0 + 3_500n;
    expect(nsToMs(Number(ns >> 32n), Number(ns & 0xffffffffn))).toBe(T0_MS + 0.0035);
    expect(nsToMs(0, 999_999)).toBe(0.999999);
  });

  it('rejects a file that is not DBN, and a newer version, naming the file', async () => {
    await expect(run({ book: ['mbo', file([Buffer.from('hello world, not dbn')])] })).rejects.toThrow(/\.dbn: not a DBN file/);
    const v4 = dbnMetadata({ version: 3, schema: SCHEMA.mbo });
    v4[3] = 4;
    await expect(run({ book: ['mbo', file([v4])] })).rejects.toThrow(/DBN version 4 is not supported \(1–3\)/);
    await expect(run({ book: ['mbo', file([dbnMetadata({ version: 3, schema: SCHEMA.trades })])] })).rejects.toThrow(/holds DBN schema trades, --mbo needs mbo/);
  });
});

describe('Databento MBO import', () => {
  it('rebuilds the exact FIFO by order id: adds, modifies (priority kept or lost), trades, fills, cancels', async () => {
    const { events, issues, stats } = await run({ book: ['mbo', file([dbnMetadata({ version: 3, schema: SCHEMA.mbo }), ...SESSION.map(mbo)])] });
    expect(issues.toJSON()).toEqual({ 'unknown-order': 1 });
    expect(issues.examples.get('unknown-order')![0]!.line).toBe(13);
    expect(stats).toMatchObject({ bookRows: 13, tradeRows: 1, trades: 1, tradedContracts: 20, books: 7, gaps: 0, skippedRecords: 0 });
    const kinds = events.map((e) => (e.type === 'book' ? 'book' : e.type === 'trade' ? `trade ${e.aggressor} ${e.qty}@${e.priceTicks}` : e.type));
    expect(kinds).toEqual(['book', 'book', 'book', 'book', 'trade sell 20@10001', 'book', 'book', 'book']);
    const books = events.filter((e) => e.type === 'book');
    expect(books.map(l3)).toEqual([
      { bids: [[10000, 150, [100, 50]]], asks: [[10002, 70, [70]]] },
      { bids: [[10000, 180, [100, 50, 30]]], asks: [[10002, 70, [70]]] },
      { bids: [[10000, 140, [60, 50, 30]]], asks: [[10002, 70, [70]]] },
      { bids: [[10001, 50, [50]], [10000, 90, [60, 30]]], asks: [[10002, 70, [70]]] },
      { bids: [[10001, 30, [30]], [10000, 90, [60, 30]]], asks: [[10002, 70, [70]]] },
      { bids: [[10001, 30, [30]], [10000, 100, [60, 40]]], asks: [[10002, 70, [70]]] },
      { bids: [[10001, 30, [30]], [10000, 110, [40, 70]]], asks: [[10002, 70, [70]]] },
    ]);
    // Venue time ts_event, receive time ts_recv (1 µs later here), kept below the ms.
    expect(books[0]).toMatchObject({ level: 3, tsEvent: T0_MS, tsRecv: T0_MS + 0.001 });
    expect(books[1]).toMatchObject({ tsEvent: T0_MS + 0.01, tsRecv: T0_MS + 0.011 });
  });

  it('decodes the same records from DBN version 1 and 2 metadata identically', async () => {
    const v3 = await run({ book: ['mbo', file([dbnMetadata({ version: 3, schema: SCHEMA.mbo }), ...SESSION.map(mbo)])] });
    for (const version of [1, 2] as const) {
      const older = await run({ book: ['mbo', file([dbnMetadata({ version, schema: SCHEMA.mbo }), ...SESSION.map(mbo)])] });
      expect(older.events).toEqual(v3.events);
    }
  });

  it('a clear (R) after a book is a gap; changes below the written depth write no book', async () => {
    const { events } = await run({
      depth: 1,
      book: [
        'mbo',
        file([
          dbnMetadata({ version: 3, schema: SCHEMA.mbo }),
          ...[
            { tsEventNs: at(0), orderId: 1n, price: px('100.00'), size: 10, action: 'A', side: 'B' },
            { tsEventNs: at(1), orderId: 2n, price: px('99.99'), size: 10, action: 'A', side: 'B' }, // level 2: not written
            { tsEventNs: at(2), orderId: 0n, price: null, size: 0, action: 'R', side: 'N', flags: SNAP },
            { tsEventNs: at(2), orderId: 3n, price: px('99.98'), size: 5, action: 'A', side: 'B', flags: SNAP | LAST },
          ].map((r) => mbo(r as MboSpec)),
        ]),
      ],
    });
    expect(events.map((e) => e.type)).toEqual(['book', 'gap', 'book']);
    expect(l3(events[2])).toEqual({ bids: [[9998, 5, [5]]], asks: [] });
  });

  it('keeps one instrument: --raw-symbol picks it through the mappings; without it, two instruments are an error', async () => {
    const recs = [
      mbo({ id: 38, tsEventNs: at(0), orderId: 1n, price: px('100.00'), size: 10, action: 'A', side: 'B' }),
      mbo({ id: 7152, tsEventNs: at(1), orderId: 2n, price: px('400.00'), size: 10, action: 'A', side: 'B' }),
      mbo({ id: 38, tsEventNs: at(2), orderId: 3n, price: px('100.01'), size: 10, action: 'A', side: 'A' }),
    ];
    const p = file([dbnMetadata({ version: 2, schema: SCHEMA.mbo, mappings: [{ raw: 'AAPL', id: 38 }, { raw: 'MSFT', id: 7152 }] }), ...recs]);
    const { events, stats } = await run({ book: ['mbo', p], rawSymbol: 'AAPL' });
    expect(stats.skippedRecords).toBe(1);
    expect(events.map(l3).at(-1)).toEqual({ bids: [[10000, 10, [10]]], asks: [[10001, 10, [10]]] });
    await expect(run({ book: ['mbo', p] })).rejects.toThrow(/holds several instruments \(ids 38 and 7152\): name one with --raw-symbol \(AAPL, MSFT\)/);
    await expect(run({ book: ['mbo', p], rawSymbol: 'TSLA' })).rejects.toThrow(/no instrument maps to raw symbol TSLA \(the file has AAPL, MSFT\)/);
  });
});

describe('Databento MBP-10 and trades import', () => {
  it('writes the top levels of MBP-10 records and merges a trades file by ts_recv (its prints replace the book file’s)', async () => {
    const book = file([
      dbnMetadata({ version: 3, schema: SCHEMA.mbp10 }),
      mbp10({ tsEventNs: at(0), price: px('100.00'), size: 5, side: 'B', action: 'A', bids: [[px('100.00'), 5], [px('99.99'), 7]], asks: [[px('100.02'), 3]] }),
      mbp10({ tsEventNs: at(20), price: px('100.02'), size: 3, side: 'B', action: 'T', bids: [[px('100.00'), 5], [px('99.99'), 7]], asks: [] }),
      mbp10({ tsEventNs: at(30), price: px('100.03'), size: 4, side: 'A', action: 'A', bids: [[px('100.00'), 5], [px('99.99'), 7]], asks: [[px('100.03'), 4]] }),
    ]);
    const trades = file([
      dbnMetadata({ version: 3, schema: SCHEMA.trades }),
      trade({ tsEventNs: at(19), price: px('100.02'), size: 3, side: 'B' }),
      trade({ tsEventNs: at(40), price: px('100.00'), size: 2, side: 'N' }), // no side: below the ask → a sell
    ]);
    const { events, issues } = await run({ book: ['mbp10', book], trades });
    expect(issues.total).toBe(0);
    expect(events.map((e) => (e.type === 'book' ? `book ${e.bids.map((l) => `${l.qty}@${l.priceTicks}`).join(' ')} | ${e.asks.map((l) => `${l.qty}@${l.priceTicks}`).join(' ')}` : e.type === 'trade' ? `trade ${e.aggressor} ${e.qty}@${e.priceTicks} ${(e.tsEvent - T0_MS).toFixed(3)}` : e.type))).toEqual([
      'book 5@10000 7@9999 | 3@10002',
      'trade buy 3@10002 0.019',
      'book 5@10000 7@9999 | ',
      'book 5@10000 7@9999 | 4@10003',
      'trade sell 2@10000 0.040',
    ]);
    // Alone, the MBP-10 file's own trade record is the print.
    const alone = await run({ book: ['mbp10', book] });
    expect(alone.events.filter((e) => e.type === 'trade').map((e) => e.type === 'trade' && `${e.aggressor} ${e.qty}@${e.priceTicks}`)).toEqual(['buy 3@10002']);
  });
});
