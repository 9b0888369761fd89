import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecordingWriter } from '../../src/record/index.ts';
import { importTardis, loadInstrumentDef, openLines, RowIssues } from '../../src/record/import/index.ts';
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
];
