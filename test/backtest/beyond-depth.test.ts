import { describe, expect, it } from 'vitest';
import { exchangeHarness } from './harness.ts';

/**
 * A source cut to its top N levels per side writes a level pushed below the N-th as removed
 * (quantity 0). That is not the level emptying: our queue position there is kept.
 */
describe('levels beyond the recorded depth (3 levels per side here)', () => {
  const start = async () => {
    const h = exchangeHarness();
    h.book([[1000, 100], [999, 100], [998, 500]], [[1002, 100], [1003, 100], [1004, 100]], true);
    await h.place('buy', 998, 20); // behind 500
    return h;
  };
  const front = (h: ReturnType<typeof exchangeHarness>, k = 0): number => h.ex.open[0]![k]!.queue.front;

  it('500 ahead, the level scrolls out and comes back: a 10-lot print does not fill us (it did: 10)', async () => {
    const h = await start();
    h.book([[1001, 50], [998, 0]]); // a better bid pushes 998 out of the top 3
    expect(front(h)).toBe(500);
    h.book([[1001, 0], [998, 500]]); // back in view
    h.run(1);
    h.trade(998, 10, false);
    expect(h.filledQty()).toBe(0);
    expect(front(h)).toBe(490);
  });

  it('a snapshot that no longer shows the level keeps the queue too', async () => {
    const h = await start();
    h.book([[1001, 50], [1000, 100], [999, 100]], [[1002, 100], [1003, 100], [1004, 100]], true);
    expect(front(h)).toBe(500);
  });

  it('a level that empties inside the depth still means nothing ahead', async () => {
    const h = await start();
    h.book([[998, 0]]); // the side now shows 2 levels: 998 emptied
    expect(front(h)).toBe(0);
    h.run(1);
    h.trade(998, 10, false);
    expect(h.filledQty()).toBe(10);
  });

  it('an order joining beyond the depth starts behind the last size seen there (was: nothing ahead)', async () => {
    const h = await start();
    h.book([[1001, 50], [998, 0]]); // 998 (last seen 500) out of view
    await h.place('buy', 998, 20);
    expect(front(h, 1)).toBe(500);
  });

  it('an order joining where the recording never showed a level starts behind an unknown queue, capped once it shows', async () => {
    const h = exchangeHarness();
    h.book([[1000, 100], [999, 100], [998, 500]], [[1002, 100], [1003, 100], [1004, 100]], true);
    await h.place('buy', 995, 20);
    expect(front(h)).toBe(Infinity);
    h.run(1);
    h.trade(995, 30, false); // volume at 995 we never saw traded: it was ahead of us
    expect(h.filledQty()).toBe(0);
    h.book([[1000, 0], [999, 0], [995, 40]]); // the level shows: 40 ahead at most
    expect(front(h)).toBe(40);
    h.run(2);
    h.trade(995, 50, false);
    expect(h.filledQty()).toBe(10);
  });
});

describe('order-level (L3) levels beyond the recorded depth (3 levels per side here)', () => {
  const start = async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { l3: true });
    h.book3([[1000, [100]], [999, [100]], [998, [300, 200]]], [[1002, [100]], [1003, [100]], [1004, [100]]], true);
    await h.place('buy', 998, 20); // behind two orders, 500
    return h;
  };
  const q = (h: ReturnType<typeof exchangeHarness>, k = 0) => h.ex.open[0]![k]!.queue;

  it('500 ahead, the level scrolls out and comes back: a 10-lot print does not fill us (it did: 10)', async () => {
    const h = await start();
    h.book3([[1001, [50]], [998, []]]);
    expect(q(h)).toMatchObject({ front: 500, aheadOrders: 2 });
    h.book3([[1001, []], [998, [300, 200]]]);
    expect(q(h)).toMatchObject({ front: 500, aheadOrders: 2 });
    h.run(1);
    h.trade(998, 10, false);
    expect(h.filledQty()).toBe(0);
  });

  it('a keyframe snapshot that no longer shows our level keeps its orders and our place', async () => {
    const h = await start();
    h.book3([[1001, [50]], [1000, [100]], [999, [100]]], [[1002, [100]], [1003, [100]], [1004, [100]]], true);
    expect(q(h)).toMatchObject({ front: 500, aheadOrders: 2 });
    h.book3([[1001, []], [998, [200, 40]]]); // back: the 300 left meanwhile, a 40 joined behind us
    expect(q(h)).toMatchObject({ front: 200, aheadOrders: 1 });
  });

  it('joining beyond the depth: behind the kept order list, or behind an unknown queue until the level shows', async () => {
    const h = await start();
    h.book3([[1001, [50]], [998, []]]);
    await h.place('buy', 998, 20);
    expect(q(h, 1)).toMatchObject({ front: 500, aheadOrders: 2 }); // was 0: nothing ahead
    await h.place('buy', 995, 20);
    expect(q(h, 2)).toMatchObject({ front: Infinity, aheadOrders: Infinity });
    h.book3([[1001, []], [1000, []], [999, []], [995, [30, 10]]]);
    expect(q(h, 2)).toMatchObject({ front: 40, aheadOrders: 2 });
  });
});
