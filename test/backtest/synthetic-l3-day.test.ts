import { describe, expect, it } from 'vitest';
import { syntheticL3Day } from '../../src/backtest/synthetic-l3-day.ts';
import { toColumnar } from '../../src/record/columnar.ts';
import { recordingHeader } from '../../src/record/writer.ts';
import type { RecordedEvent } from '../../src/record/format.ts';
import { testInstrument } from '../record/fixtures.ts';

const inst = testInstrument('SYNTH', '0.01', 1);
const day = (messages: number, seed = 1): RecordedEvent[] => [...syntheticL3Day({ instrument: inst, seed, startMs: 0, midTicks: 22390, messages, durationMs: messages * 150 })];

describe('syntheticL3Day', () => {
  it('is seeded (same seed, same events) and shaped like a depth-5 order-level day with ids', () => {
    const a = day(3000);
    expect(day(3000)).toEqual(a);
    expect(day(3000, 2)).not.toEqual(a);
    const books = a.filter((e) => e.type === 'book');
    const trades = a.filter((e) => e.type === 'trade');
    // 3,000 messages: 2,845 book frames (a cancel deeper than shown changes none), 299 prints of which 45 hidden.
    expect([a.length, books.length, trades.length, trades.filter((e) => e.type === 'trade' && e.condition === 'hidden').length]).toEqual([3144, 2845, 299, 45]);
    let lastRecv = -Infinity;
    for (const e of a) {
      expect(e.tsRecv).toBeGreaterThanOrEqual(lastRecv);
      lastRecv = e.tsRecv;
    }
    // Every level carries its orders and their ids, summing to its size; a removed level is empty.
    for (const b of books)
      if (b.type === 'book')
        for (const l of [...b.bids, ...b.asks]) {
          expect(l.orders!.length).toBe(l.orderIds!.length);
          expect(l.orders!.reduce((x, y) => x + y, 0)).toBe(l.qty);
        }
  });

  it('replays as an order-level book that never crosses and shows at most 5 levels a side', () => {
    const events = day(3000);
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: 0, source: 'test', bookLevel: 3, orderIds: true }), [inst], events);
    expect(col.orderId?.length).toBe(col.orderQty?.length);
    const bids = new Map<number, number>();
    const asks = new Map<number, number>();
    for (const e of events) {
      if (e.type !== 'book') continue;
      if (e.isSnapshot) (bids.clear(), asks.clear());
      for (const l of e.bids) (l.qty === 0 ? bids.delete(l.priceTicks) : bids.set(l.priceTicks, l.qty));
      for (const l of e.asks) (l.qty === 0 ? asks.delete(l.priceTicks) : asks.set(l.priceTicks, l.qty));
      expect(Math.max(...bids.keys())).toBeLessThan(Math.min(...asks.keys()));
      expect([bids.size <= 5, asks.size <= 5]).toEqual([true, true]);
    }
  });
});
