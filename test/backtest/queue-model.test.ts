import { describe, expect, it } from 'vitest';
import { probBehind, probQueue, riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { exchangeHarness } from './harness.ts';

describe('risk-averse queue model on hand-built sequences', () => {
  it('an order at the back of a level fills only after the volume ahead of it has traded', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1001, 200]]);
    await h.place('buy', 1000, 50); // joins behind 300
    expect(h.ex.open[0]![0]!.queue.front).toBe(300);
    h.trade(1000, 100, false);
    h.book([[1000, 200]]);
    h.trade(1000, 150, false);
    h.book([[1000, 50]]);
    expect(h.filledQty()).toBe(0); // 250 of the 300 ahead traded
    h.trade(1000, 80, false); // 50 ahead, 30 reach us
    expect(h.filledQty()).toBe(30);
    expect(h.ex.fillLog[0]!.aggressor).toBe(false);
    h.trade(1000, 100, false);
    expect(h.filledQty()).toBe(50);
    expect(h.ex.open[0]!.length).toBe(0);
  });

  it('assumes cancellations are behind us: depth drops cap the queue but never move us forward by more', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1001, 200]]);
    await h.place('buy', 1000, 50);
    h.book([[1000, 120]]); // 180 cancelled: front = min(300, 120) = 120
    expect(h.ex.open[0]![0]!.queue.front).toBe(120);
    h.book([[1000, 500]]); // others join behind: front stays 120
    expect(h.ex.open[0]![0]!.queue.front).toBe(120);
    h.run(1); // prints after the frames (one at their instant would be volume they showed)
    h.trade(1000, 119, false);
    expect(h.filledQty()).toBe(0);
    h.trade(1000, 2, false);
    expect(h.filledQty()).toBe(1);
  });

  it('a trade at the level with the same-side aggressor does not advance the queue; prints through our price fill up to their size', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1001, 200]]);
    await h.place('buy', 1000, 50);
    h.trade(1000, 500, true); // a buy aggressor at 1000 hits asks, not our bid
    expect(h.filledQty()).toBe(0);
    h.trade(999, 10, false); // a sell printed below our bid: it would have met us first, for its size
    expect(h.filledQty()).toBe(10);
    h.trade(998, 100, false);
    expect(h.filledQty()).toBe(50);
  });

  it('fills a resting order the book crosses, up to the crossing volume, at its own price', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1002, 200]]);
    await h.place('sell', 1002, 40);
    expect(h.ex.open[0]![0]!.queue.front).toBe(200);
    h.book([[1002, 10]], [[1002, 0], [1003, 100]]); // a bid of 10 at our ask price: it meets us
    expect(h.filledQty()).toBe(10);
    expect(h.ex.fillLog[0]!).toMatchObject({ priceTicks: 1002, aggressor: false });
    h.book([[999, 5]]); // another level changes: the 10 at 1002 stays taken
    expect(h.filledQty()).toBe(10);
    h.book([[1003, 50], [1002, 25]]); // 50 at 1003 and fresh data at 1002: both cross us
    expect(h.filledQty()).toBe(40);
    expect(h.ex.fillLog.map((f) => [f.priceTicks, f.qty])).toEqual([[1002, 10], [1002, 30]]);
  });
});

describe('probabilistic queue models', () => {
  it('p (cancellation behind us) is 1 at the front of the queue and 0 at its back, for every shape', () => {
    for (const s of ['power', 'power2', 'power3', 'log', 'log2'] as const) {
      expect(probBehind(s, 2, 0, 100)).toBeCloseTo(1);
      expect(probBehind(s, 2, 100, 0)).toBeCloseTo(0);
      const mid = probBehind(s, 2, 50, 50);
      expect(mid).toBeGreaterThan(0);
      expect(mid).toBeLessThan(1);
    }
  });

  it('a cancellation is split ahead/behind: the prob model advances the order, risk-averse does not', () => {
    const pq = probQueue('power', 2);
    const a = { front: 100, cumTrades: 0 };
    pq.onDepth(a, 300, 200); // 100 cancelled with front 100, back 200: p = 200²/(200²+100²) = 0.8
    expect(a.front).toBeCloseTo(100 - 0.2 * 100);
    const b = { front: 100, cumTrades: 0 };
    riskAverseQueue.onDepth(b, 300, 200);
    expect(b.front).toBe(100);
  });

  it('depth decreases explained by trades are not counted twice', () => {
    const pq = probQueue('power2', 2);
    const q = { front: 100, cumTrades: 0 };
    pq.onTrade(q, 50);
    expect(q.front).toBe(50);
    pq.onDepth(q, 300, 250); // the 50 traded explains the drop: no cancellation
    expect(q.front).toBe(50);
    expect(q.cumTrades).toBe(0);
  });

  it('fills earlier than risk-averse on the same sequence with cancellations', async () => {
    const fillsWith = async (kind: 'risk-averse' | 'power'): Promise<number> => {
      const h = exchangeHarness(kind === 'power' ? { kind: 'power', n: 3 } : { kind: 'risk-averse' });
      h.book([[1000, 300]], [[1001, 200]]);
      await h.place('buy', 1000, 50);
      h.book([[1000, 600]]); // 300 join behind us
      h.book([[1000, 350]]); // 250 cancel: mostly behind (back 300 vs front 300 → p = 0.5 at n=3)
      h.run(1);
      h.trade(1000, 200, false);
      return h.filledQty();
    };
    expect(await fillsWith('risk-averse')).toBe(0); // front = min(300, 350) = 300 → 100 left
    // power(3): p = 300³/(300³+300³) = 0.5; front = 300 − 0.5·250 + min(300 − 125, 0) = 175 → 25 filled.
    expect(await fillsWith('power')).toBe(25);
  });
});

describe('probabilistic models: the trade counter is reset by frames that list the level', () => {
  // power(2), behind 300; a print of 100 (front 200, counted); then the level is seen unchanged
  // (100 joined behind us); then 100 cancel. The cancel is unexplained: front 200, back 100,
  // p = 100²/(100²+200²) = 0.2, front = 200 − 0.8·100 + min(100 − 20, 0) = 120. A counter left at
  // 100 explained the cancel away as the print: front stayed 200. A frame that does not list the
  // level is no observation of it (its feed may not have shown the print yet): the counter stays,
  // and the drop to 200 is the print's: front 200.
  const run = async (seen: 'listed' | 'not-listed'): Promise<number> => {
    const h = exchangeHarness({ kind: 'power', n: 2 });
    h.book([[1000, 300], [999, 10]], [[1001, 200]]);
    await h.place('buy', 1000, 50);
    h.trade(1000, 100, false);
    h.run(1);
    if (seen === 'listed') h.book([[1000, 300]]); // the level in the frame, same size
    else h.book([[999, 20]]); // a frame that leaves the level as it was
    h.run(2);
    h.book([[1000, 200]]);
    return h.ex.open[0]![0]!.queue.front;
  };
  it('a frame listing the level with no size change', async () => {
    expect(await run('listed')).toBe(120);
  });
  it('a frame that does not list the level', async () => {
    expect(await run('not-listed')).toBe(200);
  });

  // Issue 32 item 5: behind 100; a print of 50; a frame that does not list our level; our level
  // then shows 100 → 50 (the print, not a cancel); a print of 40. Resetting the counter on the
  // unrelated frame read the drop as a cancel as well and filled 15 (power), 27 (power2), 15 (log).
  for (const [kind, before] of [['power', 15], ['power2', 27], ['log', 15]] as const) {
    it(`${kind}: the print is not counted twice (0 filled, was ${before})`, async () => {
      const h = exchangeHarness({ kind, n: 2 });
      h.book([[1000, 100], [999, 10]], [[1001, 200]]);
      await h.place('buy', 1000, 50);
      h.run(1);
      h.trade(1000, 50, false);
      h.run(2);
      h.book([[999, 20]]); // does not list 1000
      h.run(3);
      h.book([[1000, 50]]);
      h.run(4);
      h.trade(1000, 40, false);
      expect(h.filledQty()).toBe(0);
      expect(h.ex.open[0]![0]!.queue.front).toBe(10);
    });
  }
});

describe('order entry', () => {
  it('rejects a crossing post-only order (rej), reprices with bo, and takes liquidity when not post-only', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300]], [[1002, 200], [1003, 100]]);
    await h.place('buy', 1002, 10);
    expect(h.events.at(-1)).toMatchObject({ type: 'rejected', reason: null });
    await h.place('buy', 1005, 10, { reprice: 'bo' });
    expect(h.events.at(-1)).toMatchObject({ type: 'accepted', order: { priceTicks: 1001 } });
    await h.place('buy', 1003, 250, { postOnly: false, tif: 'IOC' });
    const fills = h.ex.fillLog.filter((f) => f.aggressor);
    expect(fills.map((f) => [f.priceTicks, f.qty])).toEqual([[1002, 200], [1003, 50]]);
    expect(fills[0]!.fee.toNumber()).toBeCloseTo(10.02 * 200 * 0.0002);
  });

  it('delivers acks after entry + response latency, in FIFO order', async () => {
    const h = exchangeHarness({ kind: 'risk-averse' }, { entry: 5, response: { uniform: [1, 20] } });
    h.book([[1000, 300]], [[1002, 200]]);
    const p1 = h.ex.place({ kind: 'place', symbol: 'TEST-PERP' as never, side: 'buy', priceTicks: 999, qty: 1, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: '1' as never, tag: null });
    const p2 = h.ex.cancel({ kind: 'cancel', symbol: 'TEST-PERP' as never, orderId: null, clientOrderId: '1' as never });
    h.run(4);
    expect(h.events).toEqual([]);
    h.run(100);
    await expect(p1).resolves.toMatchObject({ orderId: expect.stringMatching(/^O-/) });
    await expect(p2).resolves.toEqual({ accepted: true });
    expect(h.events.map((e) => e.type)).toEqual(['accepted', 'canceled']);
    expect(h.events[0]!.tsEvent).toBe(5);
    expect(h.events[1]!.tsRecv).toBeGreaterThanOrEqual(h.events[0]!.tsRecv);
  });

  it('replace moves the order to the back of the queue at its new price', async () => {
    const h = exchangeHarness();
    h.book([[1000, 300], [999, 40]], [[1002, 200]]);
    const { orderId } = await h.place('buy', 1000, 10);
    h.trade(1000, 290, false);
    expect(h.ex.open[0]![0]!.queue.front).toBe(10);
    h.ex.replace({ kind: 'replace', symbol: 'TEST-PERP' as never, orderId, clientOrderId: '1' as never, priceTicks: 999, qty: 10 });
    h.run();
    expect(h.events.at(-1)).toMatchObject({ type: 'replaced', original: { state: 'REPLACED' }, replacement: { priceTicks: 999 } });
    expect(h.ex.open[0]![0]!.queue.front).toBe(40);
  });
});

describe('quote statistics', () => {
  it('accrues two-sided time and time inside the reward spread on exchange time', async () => {
    const { BacktestObserver } = await import('../../src/backtest/observer.ts');
    const { defaultSettings } = await import('../../src/backtest/settings.ts');
    const h = exchangeHarness();
    const obs = new BacktestObserver(h.ex, defaultSettings({ rewards: { maxSpreadBps: 50, minNotionalUsd: 1, minRestMs: 0, curve: 'quadratic', singleSidedDivisor: 3, poolUsdPerDay: 1440 } }));
    h.book([[1000, 300]], [[1002, 200]]);
    obs.advance(0);
    obs.refresh(0);
    await h.place('buy', 1000, 5); // one-sided
    obs.refresh(0);
    obs.advance(1_000);
    await h.place('sell', 1010, 5); // two-sided, ask 80 bps from the mid: outside the reward spread
    obs.refresh(0);
    obs.advance(3_000);
    await h.place('sell', 1002, 5); // a second ask inside the spread
    obs.refresh(0);
    obs.advance(6_000);
    const q = obs.times[0]!;
    expect(q.marketMs).toBe(6_000);
    expect(q.anySideMs).toBe(6_000);
    expect(q.twoSidedMs).toBe(5_000);
    expect(q.rewardTwoSidedMs).toBe(3_000);
    obs.finish(60_000);
    expect(q.scoredMinutes).toBe(1);
    expect(q.shareSum).toBeGreaterThan(0);
    expect(q.rewardsUsd).toBeCloseTo(q.shareSum * 1); // 1440 USD a day = 1 USD a minute
    expect(obs.series[0]!.quoteBid.at(-1)).toBe(1000);
    expect(obs.series[0]!.quoteAsk.at(-1)).toBe(1002);
  });
});
