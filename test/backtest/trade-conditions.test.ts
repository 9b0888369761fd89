import { describe, expect, it } from 'vitest';
import { TRADE_CODE } from '../../src/record/format.ts';
import { exchangeHarness } from './harness.ts';

/** Prints that traded no displayed order (LOBSTER types 5 and 6): they must not move or fill our queue. */
describe('hidden and cross prints', () => {
  it('a hidden print at our price neither advances our queue nor fills us (L2)', async () => {
    const h = exchangeHarness();
    h.book([[1000, 80]], [[1002, 100]], true);
    await h.place('buy', 1000, 50);
    h.ex.applyTrade(0, 1000, 300, false, TRADE_CODE.hidden);
    expect(h.filledQty()).toBe(0);
    expect(h.ex.open[0]![0]!.queue.front).toBe(80); // a regular 300 print would have filled all 50
    h.trade(1000, 100, false); // then the 80 ahead trade and 20 of ours
    expect(h.filledQty()).toBe(20);
  });

  it('a hidden print leaves the exact L3 queue as it was', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { l3: true });
    h.book3([[1000, [30, 50]]], [[1002, [100]]], true);
    await h.place('buy', 1000, 40);
    h.ex.applyTrade(0, 1000, 60, false, TRADE_CODE.hidden);
    expect(h.ex.l3[0]!.get(0, 1000)).toEqual([30, 50]);
    expect(h.ex.open[0]![0]!.queue).toMatchObject({ front: 80, aheadOrders: 2 });
    expect(h.filledQty()).toBe(0);
  });

  it('a hidden print fills our orders priced better than it (the aggressor met them first), up to its size', async () => {
    const h = exchangeHarness();
    h.book([[998, 100]], [[1004, 100]], true);
    await h.place('sell', 1001, 30); // inside the spread, better for a buyer than the hidden 1002
    await h.place('sell', 1002, 30); // at the hidden print's price: displayed would go first, but nothing says it did
    h.ex.applyTrade(0, 1002, 45, true, TRADE_CODE.hidden);
    expect(h.ex.fillLog.map((f) => [f.priceTicks, f.qty])).toEqual([[1001, 30]]);
  });

  it('an auction cross fills nothing, whatever the side it is written with', async () => {
    const h = exchangeHarness();
    h.book([[998, 100]], [[1004, 100]], true);
    await h.place('sell', 1001, 30);
    await h.place('buy', 999, 30);
    h.ex.applyTrade(0, 1002, 400, true, TRADE_CODE.cross);
    h.ex.applyTrade(0, 998, 400, false, TRADE_CODE.cross);
    expect(h.filledQty()).toBe(0);
    h.ex.applyTrade(0, 1002, 400, true); // the same print as a regular buy (the old reading) fills the 1001 ask
    expect(h.filledQty()).toBe(30);
  });
});
