/**
 * Counts the prints a replay processes after their own venue time (a trade received after a book
 * frame stamped later than it), per exchange-side reorder window (src/backtest/venue-time.ts):
 *   node bin/run-ts.js test/backtest/late-prints-run.ts <recording.jsonl.gz> [windowMs ...]
 */
import { resolve } from 'node:path';
import { lateRows, venueTimeline, type LateRows } from '../../src/backtest/venue-time.ts';
import { loadColumnar, type ColumnarRecording } from '../../src/record/columnar.ts';
import { KIND } from '../../src/record/format.ts';

/** The late-print statistic of `col` with reorder window `windowMs`. */
export function latePrints(col: ColumnarRecording, windowMs: number): LateRows {
  const t = venueTimeline(col.tsEvent, col.tsRecv, col.length, 0, windowMs);
  return lateRows(t, col.tsEvent, col.tsRecv, 0, col.kind, KIND.trade, col.b);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [recording, ...windows] = process.argv.slice(2);
  if (!recording) throw new Error('usage: late-prints-run.ts <recording.jsonl.gz> [windowMs ...]');
  const col = await loadColumnar([resolve(recording)]);
  for (const w of windows.length > 0 ? windows.map(Number) : [0, 50]) {
    const r = latePrints(col, w);
    process.stdout.write(
      `window ${w} ms: ${r.late} of ${r.rows} prints late (${((100 * r.late) / r.rows).toFixed(1)} %, ${((100 * r.lateWeight) / r.totalWeight).toFixed(1)} % of volume), ` +
        `by ${r.meanLateMs.toFixed(2)} ms on average, ${r.maxLateMs} ms at most\n`,
    );
  }
}
