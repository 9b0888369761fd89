import { describe, expect, it } from 'vitest';
import { exchangeHarness } from './harness.ts';

/** [price, qty] of every fill so far, in booking order. */
const fills = (h: ReturnType<typeof exchangeHarness>): [number, number][] => h.ex.fillLog.map((f) => [f.priceTicks, f.qty]);
/** Client order ids (as numbers) of every fill so far. */
const who = (h: ReturnType<typeof exchangeHarness>): number[] => h.ex.fillLog.map((f) => Number(f.clientOrderId));

describe('a trade print is consumed once', () => {
  it('one print of size N against three of our resting orders at the same price fills at most N in total', async () => {
    const h = exchangeHarness();
    h.book([[999, 300]], [[1001, 200]]);
    await h.place('buy', 1000, 100); // cid 1: a new level, nobody ahead
    await h.place('buy', 1000, 100); // cid 2
    await h.place('buy', 1000, 100); // cid 3
    h.trade(1000, 250, false);
    expect(h.filledQty()).toBe(250);
    expect(fills(h)).toEqual([[1000, 100], [1000, 100], [1000, 50]]);
    expect(who(h)).toEqual([1, 2, 3]); // time priority among ours
    h.trade(1000, 30, false);
    expect(h.filledQty()).toBe(280); // the next print continues with what is left of cid 3
  });

  it('with market volume ahead, the print first trades that volume, then ours in time order', async () => {
    const h = exchangeHarness();
    h.book([[1000, 100]], [[1001, 200]]);
    for (let i = 0; i < 3; i++) await h.place('buy', 1000, 100); // each joins behind the displayed 100
    h.trade(1000, 250, false);
    expect(fills(h)).toEqual([[1000, 100], [1000, 50]]); // 100 ahead, then 150 for us
    expect(h.filledQty()).toBeLessThanOrEqual(250);
    expect(h.ex.open[0]!.map((x) => x.filled)).toEqual([50, 0]);
  });

  it('a print across several of our price levels fills the best price first, then queue order, never more than the print', async () => {
    const h = exchangeHarness();
    h.book([[1000, 100]], [[1004, 500]]);
    await h.place('sell', 1002, 60); // cid 1
    await h.place('sell', 1001, 50); // cid 2: the best price, but placed later than cid 1
    await h.place('sell', 1002, 60); // cid 3: behind cid 1 at 1002
    await h.place('sell', 1003, 100); // cid 4: at the print's price
    h.trade(1003, 140, true); // a buyer printed at 1003: it met 1001, then 1002, before 1003
    expect(fills(h)).toEqual([[1001, 50], [1002, 60], [1002, 30]]);
    expect(who(h)).toEqual([2, 1, 3]);
    expect(h.filledQty()).toBe(140);
    h.trade(1004, 1000, true); // a big print: fills what is left, capped by our leaves
    expect(h.filledQty()).toBe(140 + 30 + 100);
  });

  it('the print volume left after the better-priced orders is what reaches the queue at the print price', async () => {
    const h = exchangeHarness();
    h.book([[1000, 100]], [[1003, 40]]);
    await h.place('sell', 1002, 50); // through for a print at 1003
    await h.place('sell', 1003, 50); // at 1003 behind the displayed 40
    h.trade(1003, 100, true);
    // 50 to the order at 1002; the other 50 reach 1003, where 40 are ahead of us: 10 for us.
    expect(fills(h)).toEqual([[1002, 50], [1003, 10]]);
  });

  it('the other side of the book is untouched by a print', async () => {
    const h = exchangeHarness();
    h.book([[1000, 100]], [[1002, 100]]);
    await h.place('buy', 1001, 50);
    await h.place('sell', 1001 + 1, 50);
    h.trade(1001, 500, true); // buyer aggressor below our ask's price: it never reached our ask
    expect(h.filledQty()).toBe(0);
  });
});

describe('taker orders take displayed liquidity once (liquidity consumption)', () => {
  it('an IOC walks the levels; what it took stays taken until the recording changes that level', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1002, 200], [1003, 100]]);
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h)).toEqual([[1002, 200], [1003, 50]]);
    expect(h.ex.fillLog.every((f) => f.aggressor)).toBe(true);
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h).slice(2)).toEqual([[1003, 50]]); // 1002 is taken; 50 left at 1003
    expect(h.events.at(-1)).toMatchObject({ type: 'expired' });
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h).length).toBe(3); // nothing left to take

    h.book([], [[1003, 100]]); // an event at 1003 that does not change it: still taken
    h.book([[999, 10]]); // a change elsewhere: still taken
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h).length).toBe(3);

    h.book([], [[1002, 180]]); // 1002 shrank below what we took: nothing new there
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h).length).toBe(3);
    h.book([], [[1002, 230]]); // 50 added at 1002: only the addition can be taken
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h).slice(3)).toEqual([[1002, 50]]);
    h.book([], [[1002, 0]]);
    h.book([], [[1002, 120]]); // the level emptied, then 120 new: all of it is available
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    expect(fills(h).slice(4)).toEqual([[1002, 120]]);
  });

  it('a crossed resting order: 100 displayed, then three 5-lot decrements and no trades fill 100, not 370', async () => {
    const h = exchangeHarness();
    h.book([[999, 300]], [[1005, 200]]);
    await h.place('buy', 1002, 1000); // rests: nothing at or below 1002 on the ask side
    h.book([], [[1001, 100]]); // an ask of 100 at 1001 crosses our bid
    expect(h.filledQty()).toBe(100);
    h.book([], [[1001, 95]]);
    h.book([], [[1001, 90]]);
    h.book([], [[1001, 85]]);
    expect(h.filledQty()).toBe(100); // the 85 left is part of the 100 we took
    h.book([], [[1001, 0]]);
    h.book([], [[1001, 30]]); // the level emptied and refilled: 30 new
    expect(h.filledQty()).toBe(130);
  });

  it('a snapshot keeps what was taken at the levels it still shows (capped), forgets the ones it empties', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1002, 200], [1003, 100]]);
    await h.place('buy', 1003, 300, { postOnly: false, tif: 'IOC' });
    expect(h.filledQty()).toBe(300);
    h.book([[1000, 300]], [[1002, 200], [1003, 120]], true); // 1002 unchanged, 1003 grew by 20
    await h.place('buy', 1003, 500, { postOnly: false, tif: 'IOC' });
    expect(fills(h).slice(2)).toEqual([[1003, 20]]);
    h.book([[1000, 300]], [[1003, 60]], true); // 1002 gone (empty): forgotten; 1003 capped at 60
    h.book([], [[1002, 70]]);
    await h.place('buy', 1003, 500, { postOnly: false, tif: 'IOC' });
    expect(fills(h).slice(3)).toEqual([[1002, 70]]);
  });

  it('a marketable GTC order takes what is available and rests the rest at its price', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1002, 200]]);
    await h.place('buy', 1002, 150, { postOnly: false });
    await h.place('buy', 1002, 150, { postOnly: false }); // only 50 left to take at 1002
    expect(fills(h)).toEqual([[1002, 150], [1002, 50]]);
    expect(h.ex.open[0]!.map((x) => [x.priceTicks, x.qty - x.filled])).toEqual([[1002, 100]]);
    h.book([[1001, 10]]); // a book event elsewhere: the crossed remainder finds nothing untaken at 1002
    expect(h.filledQty()).toBe(200);
  });

  it('resting orders a new crossing level meets share its volume best price first, then time', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1005, 200]]);
    await h.place('buy', 1002, 40); // cid 1
    await h.place('buy', 1003, 40); // cid 2: better price
    await h.place('buy', 1002, 40); // cid 3
    h.book([], [[1005, 0], [1001, 70]]); // an ask of 70 at 1001 crosses all three
    expect(fills(h)).toEqual([[1003, 40], [1002, 30]]);
    expect(who(h)).toEqual([2, 1]);
    expect(h.ex.fillLog.every((f) => !f.aggressor)).toBe(true);
  });
});

describe('spread capture of a fill by a book crossing our order', () => {
  it('is measured against the mid before the crossing frame (1001), not the crossed mid after it (999.5)', async () => {
    const h = exchangeHarness();
    h.book([[999, 100]], [[1003, 100]]); // mid 1001
    await h.place('buy', 1000, 10); // a tick below the mid
    h.book([], [[1003, 0], [1000, 10]]); // an ask of 10 at our price crosses us: mid after = 999.5
    expect(h.ex.fillLog.map((f) => [f.priceTicks, f.qty, f.midTicks, f.source])).toEqual([[1000, 10, 1001, 'cross']]);
    // side × (mid − price) × qty = +1 tick × 10 at 0.01 USD per tick × contract (was −0.5 × 10).
    expect(h.ex.ledgers[0]!.spreadCapture.toNumber()).toBe(0.1);
  });

  it('a print fill keeps the mid of the book it met', async () => {
    const h = exchangeHarness();
    h.book([[999, 100]], [[1003, 100]]);
    await h.place('buy', 1000, 10);
    h.trade(999, 4, false); // a sell printed through our bid
    expect(h.ex.fillLog.map((f) => [f.qty, f.midTicks, f.source])).toEqual([[4, 1001, 'print']]);
  });
});
