import { describe, expect, it } from 'vitest';
import { exchangeHarness } from './harness.ts';

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
