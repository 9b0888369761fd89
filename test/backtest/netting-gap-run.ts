/**
 * The figure behind `backtest.venue_time.netting_window_ms`' default: for each print, the gap in
 * venue time since the last book frame that dropped the print's level (on the side it hit) by at
 * least the print's size, within 50 ms, per 1 ms bucket. Rows in venue order (reorder window 50).
 * An excess in the first buckets over the flat rate further out is one trade stamped apart by the
 * venue's two streams (src/backtest/README.md, "A frame before its print"):
 *   node bin/run-ts.js test/backtest/netting-gap-run.ts <recording.jsonl.gz>
 */
import { resolve } from 'node:path';
import { venueTimeline } from '../../src/backtest/venue-time.ts';
import { loadColumnar, type ColumnarRecording } from '../../src/record/columnar.ts';
import { KIND } from '../../src/record/format.ts';

/** Prints per gap bucket: index 0 = same instant, k = (k − 1, k] ms, the last = (10, 50] ms. */
export function nettingGaps(col: ColumnarRecording): number[] {
  const t = venueTimeline(col.tsEvent, col.tsRecv, col.length, 0, 50);
  const qty = [new Map<string, number>(), new Map<string, number>()];
  const lastDrop = [new Map<string, [number, number]>(), new Map<string, [number, number]>()];
  const buckets = new Array<number>(12).fill(0);
  for (let k = 0; k < col.length; k++) {
    const i = t.order[k]!;
    const x = t.xAt[k]!;
    const s = col.sym[i]!;
    if (col.kind[i] === KIND.bookSnapshot || col.kind[i] === KIND.bookDelta) {
      const a = col.a[i]!;
      const nb = col.b[i]!;
      if (col.kind[i] === KIND.bookSnapshot) for (const m of qty) for (const key of [...m.keys()]) if (key.startsWith(`${s}:`)) m.delete(key);
      for (let j = a; j < a + nb + col.c[i]!; j++) {
        const side = j - a < nb ? 0 : 1;
        const key = `${s}:${col.levels[2 * j]!}`;
        const q = col.levels[2 * j + 1]!;
        const prev = qty[side]!.get(key) ?? 0;
        qty[side]!.set(key, q);
        if (q < prev) lastDrop[side]!.set(key, [x, prev - q]);
      }
    } else if (col.kind[i] === KIND.trade) {
      const side = col.c[i]! > 0 ? 1 : 0; // a buyer hits the asks
      const d = lastDrop[side]!.get(`${s}:${col.a[i]!}`);
      if (!d || d[1] < col.b[i]! || x - d[0] > 50) continue;
      buckets[Math.min(11, Math.ceil(x - d[0]))]!++;
    }
  }
  return buckets;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [recording] = process.argv.slice(2);
  if (!recording) throw new Error('usage: netting-gap-run.ts <recording.jsonl.gz>');
  const b = nettingGaps(await loadColumnar([resolve(recording)]));
  process.stdout.write(`same instant: ${b[0]}\n`);
  for (let k = 1; k <= 10; k++) process.stdout.write(`(${k - 1}, ${k}] ms: ${b[k]}\n`);
  process.stdout.write(`(10, 50] ms: ${b[11]} (${(b[11]! / 40).toFixed(0)} per ms)\n`);
}
