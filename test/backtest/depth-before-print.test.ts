import { describe, expect, it } from 'vitest';
import { exchangeHarness } from './harness.ts';
import { noteDepthAdvance, seenInDepth } from '../../src/backtest/depth-before-print.ts';
import type { QueueState } from '../../src/backtest/queue-model.ts';

/**
 * Trades and depth come from separate streams: the book frame showing a print's volume gone may
 * arrive before the print. Either order of arrival must give the same fills.
 */
describe('a print the book frame already showed is not counted twice (L2)', () => {
  it('behind 50: the frame empties the level, then the 50-lot print arrives: nothing filled, as with the print first', async () => {
    for (const printFirst of [false, true]) {
      const h = exchangeHarness();
      h.book([[1000, 50], [999, 200]], [[1001, 100]]);
      await h.place('buy', 1000, 50); // behind 50 (before the fix: filled 50 with the frame first)
      h.run(10);
      if (printFirst) h.trade(1000, 50, false);
      h.book([[1000, 0]]);
      if (!printFirst) h.trade(1000, 50, false); // stamped no later than the frame: the clock is still there
      expect(h.filledQty()).toBe(0);
      expect(h.ex.open[0]![0]!.queue.front).toBe(0);
      h.run(11);
      h.trade(1000, 15, false); // a later print at the level: we are at its front
      expect(h.filledQty()).toBe(15);
    }
  });

  it('a drop the risk-averse model read as cancels behind us does not hold back the print (behind 50 of 100)', async () => {
    for (const printFirst of [false, true]) {
      const h = exchangeHarness();
      h.book([[1000, 50]], [[1001, 100]]);
      await h.place('buy', 1000, 40); // behind 50
      h.book([[1000, 100]]); // 50 more join behind us
      h.run(10);
      if (printFirst) h.trade(1000, 50, false);
      h.book([[1000, 50]]); // the 50 ahead traded: risk-averse keeps front at 50 (no move up to net)
      if (!printFirst) h.trade(1000, 50, false);
      expect(h.filledQty()).toBe(0);
      h.trade(1000, 30, false); // 30 more at once: ours
      expect(h.filledQty()).toBe(30);
    }
  });

  it('a print at the level at a later instant than the frame is a new trade', async () => {
    const h = exchangeHarness();
    h.book([[1000, 50], [999, 10]], [[1001, 100]]);
    await h.place('buy', 1000, 40);
    h.book([[1000, 0]]); // front 0
    h.run(1);
    h.trade(1000, 50, false); // after the frame: not the volume it showed; it meets us
    expect(h.filledQty()).toBe(40);
  });
});

describe('a print the book frame already showed is not counted twice (L3)', () => {
  it('behind one order of 50: the frame removes it, then the 50-lot print arrives: nothing filled, as with the print first', async () => {
    for (const printFirst of [false, true]) {
      const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { l3: true });
      h.book3([[1000, [50]], [999, [200]]], [[1001, [100]]], true);
      await h.place('buy', 1000, 50); // before the fix: filled 50 with the frame first
      expect(h.ex.open[0]![0]!.queue.front).toBe(50);
      if (printFirst) h.trade(1000, 50, false);
      h.book3([[1000, []]]);
      if (!printFirst) h.trade(1000, 50, false);
      expect(h.filledQty()).toBe(0);
      h.run(1);
      h.trade(1000, 15, false);
      expect(h.filledQty()).toBe(15);
    }
  });
});

describe('the netting window (backtest.venue_time.netting_window_ms)', () => {
  it('frames within the window add up; a print within the window of the last one nets; a later frame or print starts afresh', () => {
    const q: QueueState = { front: 0, cumTrades: 0 };
    noteDepthAdvance(q, 30, 10, 3);
    noteDepthAdvance(q, 20, 12, 3); // 2 ms later: 50 remembered, as of 12 (window 0: 20)
    expect([q.depthAhead, q.depthAheadMs]).toEqual([50, 12]);
    expect(seenInDepth(q, 40, 15, 3)).toBe(40); // 3 ms after the last frame: netted
    expect(seenInDepth(q, 40, 15, 3)).toBe(10); // what is left of the 50
    noteDepthAdvance(q, 25, 16, 3);
    expect(seenInDepth(q, 40, 20, 3)).toBe(0); // 4 ms after: a new trade
    noteDepthAdvance(q, 5, 30, 3); // 14 ms after the last: replaces the 25 left
    expect(q.depthAhead).toBe(5);
    expect(seenInDepth(q, 40, 31, 0)).toBe(0); // window 0: the same instant only
    expect(seenInDepth(q, 40, 30, 0)).toBe(5);
  });
});
