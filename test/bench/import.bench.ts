import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecordingWriter } from '../../src/record/index.ts';
import { DbnCursor, importDatabento, importTardis, loadInstrumentDef, MBO, openDbnFile, openLines, parseInstrumentDef, RowIssues } from '../../src/record/import/index.ts';
import { writeMboSession } from '../support/dbn-writer.ts';
import type { Bench } from './bench-kit.ts';

const FIX = join(import.meta.dirname, '../fixtures/tardis');

/** `mmbot import tardis` end to end on the 30 s real BTCUSDT slice: gunzip, parse, rebuild, encode, gzip. */
export const benches: Bench[] = [
  {
    name: 'import tardis (real BTCUSDT slice, gz in and out)',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'mmbot-import-bench-'));
      const def = loadInstrumentDef(join(FIX, 'btcusdt.yaml'));
      let best = 0;
      try {
        for (let round = 0; round < 5; round++) {
          const t0 = process.hrtime.bigint();
          let writer: ReturnType<typeof createRecordingWriter> | null = null;
          const stats = await importTardis({
            book: openLines(join(FIX, 'btcusdt-book-30s.csv.gz')),
            trades: openLines(join(FIX, 'btcusdt-trades-30s.csv.gz')),
            def,
            depth: 50,
            clock: 'exchange',
            feedLatencyMs: 0,
            issues: new RowIssues(false),
            openSink: (ms) => (writer = createRecordingWriter(join(dir, `r${round}.jsonl.gz`), { instruments: [def.instrument], startedAtMs: ms, source: 'bench' })),
          });
          await (writer as ReturnType<typeof createRecordingWriter> | null)?.close();
          const s = Number(process.hrtime.bigint() - t0) / 1e9;
          best = Math.max(best, (stats.bookRows + stats.tradeRows) / s);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return { 'import.tardis_rows_per_s': { value: Math.round(best), unit: 'rows/s', target: '≥ 100k (gz in and out, 2-core box)' } };
    },
  },
  {
    name: 'import databento (a generated 1 M-record MBO file: DBN decode, and the whole import to a null sink)',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'mmbot-dbn-bench-'));
      const path = join(dir, 'session.mbo.dbn');
      const n = 1_000_000;
      const def = parseInstrumentDef({ symbol: 'BENCH', tick_size: '0.01', lot_size: '1' }, 'bench');
      let decode = 0;
      let full = 0;
      try {
        await writeMboSession(path, n);
        for (let round = 0; round < 3; round++) {
          // Decode only: every record's header and MBO fields, read in place.
          let t0 = process.hrtime.bigint();
          const cur = new DbnCursor(await openDbnFile(path), path);
          await cur.open();
          let records = 0;
          let check = 0;
          for (;;) {
            if (!cur.advance()) {
              if (!(await cur.fill())) break;
              continue;
            }
            records++;
            check += cur.instrumentId() + cur.u8(MBO.action) + cur.u32(MBO.size) + (cur.price(MBO.price) ?? 0) + cur.ms(MBO.tsRecv);
            const id = cur.id(MBO.orderId);
            if (typeof id === 'string') check++;
          }
          if (records !== n || !Number.isFinite(check)) throw new Error(`decoded ${records} of ${n} records`);
          decode = Math.max(decode, n / (Number(process.hrtime.bigint() - t0) / 1e9));
          if (round < 2) continue;
          // The import (once: it takes ~10 s): the order book by id, top 50 levels per event, trades, to a sink that drops them.
          t0 = process.hrtime.bigint();
          const stats = await importDatabento({ book: { kind: 'mbo', source: await openDbnFile(path) }, def, depth: 50, feedLatencyMs: 0, issues: new RowIssues(false), openSink: () => ({ write: () => undefined }) });
          if (stats.bookRows !== n) throw new Error(`imported ${stats.bookRows} of ${n} records`);
          full = Math.max(full, n / (Number(process.hrtime.bigint() - t0) / 1e9));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return {
        'import.dbn_decode_records_per_s': { value: Math.round(decode), unit: 'records/s', target: '≥ 1M (uncompressed DBN, 2-core box)' },
        'import.databento_mbo_records_per_s': { value: Math.round(full), unit: 'records/s', target: 'informational (book by id + top-50 levels, null sink)' },
      };
    },
  },
];
