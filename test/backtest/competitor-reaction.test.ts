import { describe, expect, it } from 'vitest';
import { asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import { exchangeHarness } from './harness.ts';

/** A competitor that always answers after exactly 10 ms (sigma 0) with 100 shares. */
const always = { probability: 1, delayMedianMs: 10, delaySigma: 0, size: 100 };

describe('competitor reaction (backtest.reaction)', () => {
  it('off: our bid improving a 10-tick spread takes a print through the old best in full', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1010, 300]], true);
    await h.place('buy', 1005, 200);
    h.run(50);
    h.trade(1000, 150, false); // the recorded aggressor sold at the old best: the replay gives us the print
    expect(h.filledQty()).toBe(150);
  });

  it('on: a competitor one tick better (1006) appears after the delay and takes 100 of the 150 first', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { reaction: always });
    h.book([[1000, 300]], [[1010, 300]], true);
    await h.place('buy', 1005, 200);
    h.trade(1000, 150, false); // before the 10 ms delay: still first
    expect(h.filledQty()).toBe(150);
    h.run(20);
    expect(h.ex.reaction!.appeared).toBe(1);
    h.trade(1000, 150, false);
    expect(h.filledQty()).toBe(150 + 50);
    expect(h.ex.reaction!.absorbedQty).toBe(100);
    h.trade(1000, 30, false); // the competitor is filled and gone: the rest is ours again (up to our 200)
    expect(h.filledQty()).toBe(200);
  });

  it('with no room to step ahead (spread of one tick after us) it joins at our price, ahead of us', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { reaction: always });
    h.book([[1000, 300]], [[1002, 300]], true);
    await h.place('buy', 1001, 200);
    h.run(20);
    h.trade(1001, 120, false); // a print at our price: 100 to the competitor ahead, 20 to us
    expect(h.filledQty()).toBe(20);
  });

  it('leaves when our order leaves, and does not answer an order that joins the best rather than improving it', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { reaction: always });
    h.book([[1000, 300]], [[1010, 300]], true);
    await h.place('buy', 1005, 200);
    h.run(20);
    const x = h.ex.open[0]![0]!;
    const canceled = h.ex.cancel({ kind: 'cancel', symbol: asSymbol('TEST-PERP'), orderId: asVenueOrderId(x.id), clientOrderId: null });
    h.run(40);
    await canceled;
    await h.place('buy', 1000, 200); // joins the recorded best: no answer
    h.run(80);
    expect(h.ex.reaction!.appeared).toBe(1);
    h.trade(1000, 400, false); // 300 ahead of us at 1000, 100 to us; the old competitor took nothing
    expect(h.ex.reaction!.absorbedQty).toBe(0);
    expect(h.filledQty()).toBe(100);
  });

  it('the same seed gives the same answers; probability 0 never answers', async () => {
    const runs = [0, 1].map(async () => {
      const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { reaction: { probability: 0.5, delayMedianMs: 10, delaySigma: 1, size: 100 } });
      h.book([[1000, 300]], [[1010, 300]], true);
      for (let k = 0; k < 20; k++) await h.place('buy', 1001 + (k % 8), 10);
      h.run(10_000);
      return h.ex.reaction!.appeared;
    });
    const [a, b] = await Promise.all(runs);
    expect(a).toBe(b);
    expect(a).toBeGreaterThan(0); // 20 improvements at p 0.5: some answered, not all
    expect(a).toBeLessThan(20);
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 0, response: 0 }, { reaction: { ...always, probability: 0 } });
    h.book([[1000, 300]], [[1010, 300]], true);
    await h.place('buy', 1005, 200);
    h.run(1000);
    expect(h.ex.reaction!.appeared).toBe(0);
  });
});
