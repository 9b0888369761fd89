/**
 * The bot's feed sends top-`depth` snapshots only when those levels changed, patching single-level
 * changes into the last delivered levels: checked against a full rebuild on seeded random books.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asSymbol } from '../../src/core/ids.ts';
import type { BookLevel } from '../../src/domain/book.ts';
import type { RecordedEvent } from '../../src/record/format.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import { ASK, BID } from '../../src/backtest/dense-book.ts';
import { LocalFeed } from '../../src/backtest/local-feed.ts';
import { testInstrument } from '../record/fixtures.ts';

const inst = testInstrument('TEST-PERP', '0.01', 1);
const S = asSymbol('TEST-PERP');
const lv = (m: Map<number, number>, desc: boolean): BookLevel[] =>
  [...m].filter(([, q]) => q > 0).map(([priceTicks, qty]) => ({ priceTicks, qty })).sort((a, b) => (desc ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));

/** Random book rows around 1000: a snapshot, then deltas of 1–3 levels (updates, inserts, removals), snapshots now and then. */
const rows = fc.array(
  fc.record({
    kind: fc.integer({ min: 0, max: 19 }), // 0: a full snapshot row
    levels: fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 120 },
);

describe('LocalFeed top-of-book delivery', () => {
  it('every delivered book equals a full rebuild of the top levels, and nothing is sent when they did not change', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 6 }), fc.boolean(), (script, depth, conflate) => {
        const bids = new Map<number, number>([[999, 5], [998, 5], [997, 5]]);
        const asks = new Map<number, number>([[1001, 5], [1002, 5], [1003, 5]]);
        const events: RecordedEvent[] = [{ type: 'book', symbol: S, level: 2, isSnapshot: true, bids: lv(bids, true), asks: lv(asks, false), tsEvent: 0, tsRecv: 0 }];
        script.forEach((r, n) => {
          const db: BookLevel[] = [];
          const da: BookLevel[] = [];
          for (const [isBid, off, q] of r.levels) {
            const p = isBid ? 1000 - off : 1000 + off + 1;
            const side = isBid ? bids : asks;
            side.set(p, q);
            (isBid ? db : da).push({ priceTicks: p, qty: q });
          }
          const snap = r.kind === 0;
          events.push({ type: 'book', symbol: S, level: 2, isSnapshot: snap, bids: snap ? lv(bids, true) : db, asks: snap ? lv(asks, false) : da, tsEvent: n + 1, tsRecv: n + 1 });
        });
        const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: 0, source: 't' }), [inst], events);
        const feed = new LocalFeed(col, depth);
        let prev: { bids: readonly BookLevel[]; asks: readonly BookLevel[] } | null = null;
        for (let i = 0; i < col.length; i++) {
          // Conflated: apply several rows, then one snapshot; else one snapshot per row.
          const ev = conflate ? (feed.apply(i), i % 3 === 2 || i === col.length - 1 ? feed.snapshot(0, i, i) : undefined) : feed.book(i, i);
          if (ev === undefined) continue;
          const book = feed.books[0]!;
          const want = { bids: book.levels(BID, depth), asks: book.levels(ASK, depth) };
          if (ev === null) {
            expect(prev).not.toBeNull();
            expect({ bids: [...prev!.bids], asks: [...prev!.asks] }).toEqual(want);
          } else {
            expect({ bids: [...ev.bids], asks: [...ev.asks] }).toEqual(want);
            if (prev) expect(ev.bids !== prev.bids || ev.asks !== prev.asks).toBe(true);
            prev = ev;
          }
        }
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
