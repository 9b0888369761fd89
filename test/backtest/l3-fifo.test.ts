import { describe, expect, it } from 'vitest';
import { aheadAfter, fifoDiff, L3Levels, sizeAhead, tradeFront } from '../../src/backtest/l3-fifo.ts';
import { ASK, BID } from '../../src/backtest/dense-book.ts';
import { exchangeHarness } from './harness.ts';

const diff = (prev: number[], next: number[]): number[] => Array.from(fifoDiff(prev, next));

describe('fifoDiff: matching consecutive order lists of a level', () => {
  it('keeps orders that stayed, in order; new orders at the back are new', () => {
    expect(diff([10, 20, 30], [10, 20, 30, 5])).toEqual([0, 1, 2]);
    expect(diff([10, 20, 30], [10, 30])).toEqual([0, -1, 1]); // 20 canceled
    expect(diff([10, 20, 30], [20, 30])).toEqual([-1, 0, 1]); // the front left (filled or canceled)
    expect(diff([10, 20, 30], [30, 7])).toEqual([-1, -1, 0]);
    expect(diff([], [5, 6])).toEqual([]);
    expect(diff([5, 6], [])).toEqual([-1, -1]);
  });

  it('a smaller front order before kept ones is the old front partly filled, not a new order', () => {
    expect(diff([50, 30], [20, 30])).toEqual([0, 1]);
    expect(diff([50], [20])).toEqual([0]); // nothing kept: the conservative reading
    expect(diff([50, 30, 40], [30, 40, 25])).toEqual([-1, 0, 1]); // 25 at the back is new
    expect(diff([100, 300], [100, 200])).toEqual([0, 1]); // the last one shrank in place (partial cancel)
    expect(diff([100, 300, 40], [100, 200])).toEqual([0, 1, -1]);
    expect(diff([100, 300], [100, 400])).toEqual([0, -1]); // grew: a new order at the back
  });

  it('of two equal orders one of which left, the later one is taken to have left', () => {
    expect(diff([10, 10], [10])).toEqual([0, -1]);
    expect(diff([10, 5, 10], [10, 10])).toEqual([0, -1, 1]);
  });

  it('aheadAfter counts the orders ahead that are still there; tradeFront eats the queue from the front', () => {
    const map = fifoDiff([10, 20, 30, 40], [10, 30, 40, 15]);
    expect(aheadAfter(map, 3)).toBe(2); // 10 and 30 still ahead; 20 canceled
    expect(aheadAfter(map, 0)).toBe(0);
    expect(sizeAhead([10, 30, 40, 15], 2)).toBe(40);
    expect(tradeFront([10, 20, 30], 35)).toEqual({ orders: [25], removed: 2 });
    expect(tradeFront([10, 20], 30)).toEqual({ orders: [], removed: 2 });
    expect(tradeFront([10, 20], 5)).toEqual({ orders: [5, 20], removed: 0 });
  });
});

describe('L3 replay: our order in an exact FIFO queue', () => {
  const setup = async (ahead: number[]) => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { l3: true });
    h.book3([[1000, ahead]], [[1002, [100]]], true);
    await h.place('buy', 1000, 50);
    return h;
  };
  const q = (h: Awaited<ReturnType<typeof setup>>) => h.ex.open[0]![0]!.queue;

  it('joins at the back: every market order at the price is ahead', async () => {
    const h = await setup([30, 20]);
    expect(q(h)).toMatchObject({ front: 50, aheadOrders: 2 });
  });

  it('cancels ahead move us up (risk-averse L2 would not)', async () => {
    const h = await setup([30, 20]);
    h.book3([[1000, [20, 40]]]); // the 30 ahead canceled, a 40 joined behind us
    expect(q(h)).toMatchObject({ front: 20, aheadOrders: 1 });
    h.run(1); // a print after the frame (one at its instant would be the volume the frame showed)
    h.trade(1000, 25, false); // 20 ahead trade, then 5 of ours
    expect(h.filledQty()).toBe(5);

    const l2 = exchangeHarness();
    l2.book([[1000, 50]], [[1002, 100]], true);
    await l2.place('buy', 1000, 50);
    l2.book([[1000, 60]]); // the same change seen as a total: 50 → 60
    l2.trade(1000, 25, false);
    expect(l2.filledQty()).toBe(0); // still 50 assumed ahead
  });

  it('cancels behind do not move us', async () => {
    const h = await setup([30]);
    h.book3([[1000, [30, 40]]]); // 40 joins behind us
    h.book3([[1000, [30, 40, 10]]]);
    h.book3([[1000, [30, 10]]]); // the 40 behind us canceled
    expect(q(h)).toMatchObject({ front: 30, aheadOrders: 1 });
    h.book3([[1000, [30]]]);
    expect(q(h)).toMatchObject({ front: 30, aheadOrders: 1 });
    h.trade(1000, 30, false);
    expect(h.filledQty()).toBe(0);
  });

  it('a trade consuming exactly up to us fills nothing and puts us at the front; the next one fills us', async () => {
    const h = await setup([30, 20]);
    h.book3([[1000, [30, 20, 40]]]); // 40 behind us
    h.trade(1000, 50, false);
    expect(h.filledQty()).toBe(0);
    expect(q(h)).toMatchObject({ front: 0, aheadOrders: 0 });
    h.book3([[1000, [40]]]); // the recording shows the two orders ahead gone: consistent, nothing moves
    expect(q(h)).toMatchObject({ front: 0, aheadOrders: 0 });
    h.trade(1000, 10, false); // the market traded 10 of the 40 behind us: we would have been first
    expect(h.filledQty()).toBe(10);
    h.book3([[1000, [30]]]);
    expect(q(h)).toMatchObject({ front: 0, aheadOrders: 0 });
  });

  it('a partial fill of the front (print before the book frame) keeps that order ahead of us', async () => {
    const h = await setup([30, 20]);
    h.trade(1000, 10, false); // 30 → 20 at the front
    expect(q(h)).toMatchObject({ front: 40, aheadOrders: 2 });
    h.book3([[1000, [20, 20]]]);
    expect(q(h)).toMatchObject({ front: 40, aheadOrders: 2 });
    h.trade(1000, 45, false); // both ahead trade, then 5 of ours
    expect(h.filledQty()).toBe(5);
  });

  it('the last order ahead shrinking (a partial cancel) stays ahead of us: [100,300] → [100,200] leaves 300 ahead, a 150 print fills 0', async () => {
    const h = await setup([100, 300]);
    h.book3([[1000, [100, 200]]]); // the 300 partly canceled to 200, not a cancel plus a new 200 behind us
    expect(q(h)).toMatchObject({ front: 300, aheadOrders: 2 });
    h.run(1); // the prints come later than the frame (a print at the frame's instant nets against its depth moves)
    h.trade(1000, 150, false);
    expect(h.filledQty()).toBe(0); // read as cancel + new order, we were 100 ahead and filled 50
    h.run(1);
    h.trade(1000, 200, false); // the rest ahead (150) trades, then 50 of ours
    expect(h.filledQty()).toBe(50);
  });

  it('an order at the back growing is a new order (sizes do not grow in place): it does not stay ahead', async () => {
    const h = await setup([100, 300]);
    h.book3([[1000, [100, 400]]]);
    expect(q(h)).toMatchObject({ front: 100, aheadOrders: 1 });
  });

  it('a front order shrinking without a print (no trade recorded) stays ahead of us', async () => {
    const h = await setup([50, 30]);
    h.book3([[1000, [20, 30]]]);
    expect(q(h)).toMatchObject({ front: 50, aheadOrders: 2 });
  });

  it('two of our orders with a market order between them: one print fills in exact queue order', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { l3: true });
    h.book3([[1000, [30]]], [[1002, [100]]], true);
    await h.place('buy', 1000, 30); // A behind 30
    h.book3([[1000, [30, 20]]]);
    await h.place('buy', 1000, 30); // B behind 30, A, 20
    expect(h.ex.open[0]!.map((x) => x.queue.front)).toEqual([30, 50]);
    h.trade(1000, 70, false); // 30 market, A 30, then the market's 20 (in the recording the print took 30 + 20 + 20 behind)
    expect(h.ex.fillLog.map((f) => [Number(f.clientOrderId), f.qty])).toEqual([[1, 30]]);
    h.trade(1000, 100, false);
    expect(h.ex.fillLog.map((f) => [Number(f.clientOrderId), f.qty])).toEqual([[1, 30], [2, 30]]);
  });

  it('a snapshot re-matches every level; a level that disappears leaves nothing ahead', async () => {
    const h = await setup([30, 20]);
    h.book3([[1000, [20, 5]], [999, [10]]], [[1002, [100]]], true); // 30 gone, 5 new at the back
    expect(q(h)).toMatchObject({ front: 20, aheadOrders: 1 });
    h.book3([[999, [10]]], [[1002, [100]]], true);
    expect(q(h)).toMatchObject({ front: 0, aheadOrders: 0 });
  });

  it('the configured queue model is not used: FIFO positions are exact whatever it says', async () => {
    const h = exchangeHarness({ kind: 'power', n: 3 }, { entry: 0, response: 0 }, { l3: true });
    h.book3([[1000, [30, 20]]], [[1002, [100]]], true);
    await h.place('buy', 1000, 50);
    h.book3([[1000, [30, 20, 500]]]);
    h.book3([[1000, [30, 20]]]); // a big cancel behind us: a probabilistic model would move us up
    expect(h.ex.open[0]![0]!.queue).toMatchObject({ front: 50, aheadOrders: 2 });
  });
});

describe('L3Levels over the recording\'s order pool', () => {
  // Three levels in the pool: [100, 40] ids [7, 9]; empty; [25] id [3].
  const pool = { orderStart: new Float64Array([0, 2, 2, 3]), orderQty: new Float64Array([100, 40, 25]), orderId: new Float64Array([7, 9, 3]) };

  it('a pooled level reads as its orders and ids, an empty one removes the level', () => {
    const l3 = new L3Levels(pool);
    l3.setPooled(BID, 500, 0);
    l3.setPooled(ASK, 501, 2);
    expect(l3.get(BID, 500)).toEqual([100, 40]);
    expect(l3.ids(BID, 500)).toEqual([7, 9]);
    expect(l3.get(ASK, 501)).toEqual([25]);
    l3.setPooled(BID, 500, 1);
    expect(l3.get(BID, 500)).toEqual([]);
    expect(l3.ids(BID, 500)).toBeNull();
  });

  it('a print trades a pooled level from the front, ids kept beside the orders', () => {
    const l3 = new L3Levels(pool);
    l3.setPooled(BID, 500, 0);
    expect(l3.trade(BID, 500, 110)).toBe(1);
    expect(l3.get(BID, 500)).toEqual([30]);
    expect(l3.ids(BID, 500)).toEqual([9]);
  });

  it('without ids in the pool the ids are null', () => {
    const l3 = new L3Levels({ orderStart: pool.orderStart, orderQty: pool.orderQty });
    l3.setPooled(ASK, 501, 2);
    expect(l3.get(ASK, 501)).toEqual([25]);
    expect(l3.ids(ASK, 501)).toBeNull();
  });

  it('setPooled without a pool is a RangeError', () => {
    expect(() => new L3Levels().setPooled(BID, 500, 0)).toThrow(RangeError);
  });
});
