import { describe, expect, it } from 'vitest';
import type { BookLevel } from '../../src/domain/book.ts';
import { DEFAULT_REWARD_SCORE_PARAMS, scoreMinute, type ScoredOrder } from '../../src/domain/reward-score.ts';
import { matchQueue, QueueAgeTracker } from '../../src/rewards/queue-age.ts';
import { othersOf, RewardScoreEstimator, type OwnOrderInput } from '../../src/rewards/score-estimator.ts';

const lvl = (priceTicks: number, orders: number[]): BookLevel => ({ priceTicks, qty: orders.reduce((a, b) => a + b, 0), orders });
const P = { ...DEFAULT_REWARD_SCORE_PARAMS, minNotionalUsd: 10 };
const priceOf = (t: number) => t / 100; // tick 0.01, prices ~ 100

describe('queue ages', () => {
  it('keeps old orders, ages joiners from now, survives a partial fill of the head and cancels', () => {
    const prev = [
      { qty: 5, firstSeenMs: 1 },
      { qty: 3, firstSeenMs: 2 },
      { qty: 7, firstSeenMs: 3 },
    ];
    // head partly filled (5 -> 2), middle cancelled, one joiner of size 4 at the back
    expect(matchQueue(prev, [2, 7, 4], 100)).toEqual([
      { qty: 2, firstSeenMs: 1 },
      { qty: 7, firstSeenMs: 3 },
      { qty: 4, firstSeenMs: 100 },
    ]);
  });

  it('ages L2 levels from when the level appeared, and forgets levels that vanished', () => {
    const t = new QueueAgeTracker();
    t.observe({ bids: [{ priceTicks: 100, qty: 5 }], asks: [{ priceTicks: 101, qty: 5 }] }, 0);
    t.observe({ bids: [{ priceTicks: 100, qty: 9 }], asks: [] }, 500);
    t.observe({ bids: [{ priceTicks: 100, qty: 9 }], asks: [{ priceTicks: 101, qty: 5 }] }, 900);
    expect(t.orders()).toEqual([
      // the first view's orders predate us: taken as old
      { side: 'buy', priceTicks: 100, qty: 9, firstSeenMs: Number.NEGATIVE_INFINITY },
      { side: 'sell', priceTicks: 101, qty: 5, firstSeenMs: 900 },
    ]);
    t.reset();
    t.observe({ bids: [{ priceTicks: 100, qty: 9 }], asks: [] }, 1000);
    expect(t.orders()[0]!.firstSeenMs).toBe(Number.NEGATIVE_INFINITY);
    t.observe({ bids: [{ priceTicks: 100, qty: 9 }, { priceTicks: 99, qty: 1 }], asks: [] }, 1100);
    expect(t.orders()[1]).toEqual({ side: 'buy', priceTicks: 99, qty: 1, firstSeenMs: 1100 });
  });

  it('removes our orders from the public book: an exact L3 entry first, else from the back', () => {
    const book = [
      { side: 'buy' as const, priceTicks: 100, qty: 4 },
      { side: 'buy' as const, priceTicks: 100, qty: 6 },
      { side: 'sell' as const, priceTicks: 102, qty: 10 },
    ];
    expect(othersOf(book, [{ side: 'buy', priceTicks: 100, qty: 6 }])).toEqual([book[0], book[2]]);
    expect(othersOf(book, [{ side: 'sell', priceTicks: 102, qty: 3 }])[2]).toEqual({ side: 'sell', priceTicks: 102, qty: 7 });
  });
});

describe('RewardScoreEstimator', () => {
  // Background maker: L3 book with its orders at 9990/10010 (mid 100.00); ours at 9995/10005.
  const own: OwnOrderInput[] = [
    { id: '1', side: 'buy', priceTicks: 9995, qty: 2, restingSinceMs: 0 },
    { id: '2', side: 'sell', priceTicks: 10005, qty: 2, restingSinceMs: 0 },
  ];
  const book = {
    bids: [lvl(9995, [2]), lvl(9990, [5, 5])],
    asks: [lvl(10005, [2]), lvl(10010, [10])],
  };

  it('matches the venue model when the other maker is one account', () => {
    const est = new RewardScoreEstimator({ params: P, epochMs: 600_000 });
    est.observeBook('S', book, 0);
    const m = est.sample('S', { ...book, ownOrders: own, priceOf, multiplier: 1, open: true }, 60_000);
    // The venue's view: exact accounts, every order rested a minute.
    const venueOrders: ScoredOrder[] = [
      { accountId: 'us', side: 'buy', price: 99.95, qty: 2, multiplier: 1, restedMs: 60_000 },
      { accountId: 'us', side: 'sell', price: 100.05, qty: 2, multiplier: 1, restedMs: 60_000 },
      { accountId: 'mm', side: 'buy', price: 99.9, qty: 5, multiplier: 1, restedMs: 60_000 },
      { accountId: 'mm', side: 'buy', price: 99.9, qty: 5, multiplier: 1, restedMs: 60_000 },
      { accountId: 'mm', side: 'sell', price: 100.1, qty: 10, multiplier: 1, restedMs: 60_000 },
    ];
    const venue = scoreMinute(venueOrders, 100, P).get('us')!;
    expect(m.scored).toBe(true);
    expect(m.share).toBeCloseTo(venue.share, 12);
    expect(m.score).toBeCloseTo(venue.q, 9);
    expect(m.share).toBeGreaterThan(0);
    expect(m.share).toBeLessThan(1);
  });

  it('orders younger than min rest do not count, and a price change restarts our rest time', () => {
    const est = new RewardScoreEstimator({ params: P, epochMs: 600_000 });
    // Everything appears at t=59 s: at t=60 s nothing has rested 3 s.
    expect(est.sample('S', { ...book, ownOrders: own.map((o) => ({ ...o, restingSinceMs: 59_000 })), priceOf, multiplier: 1, open: true }, 60_000).share).toBe(0);
    const m2 = est.sample('S', { ...book, ownOrders: own.map((o) => ({ ...o, restingSinceMs: 59_000 })), priceOf, multiplier: 1, open: true }, 120_000);
    expect(m2.share).toBeGreaterThan(0);
    const moved = [{ ...own[0]!, priceTicks: 9994, restingSinceMs: 59_000 }, { ...own[1]!, restingSinceMs: 59_000 }];
    const book2 = { bids: [lvl(9994, [2]), lvl(9990, [5, 5])], asks: book.asks };
    const m3 = est.sample('S', { ...book2, ownOrders: moved, priceOf, multiplier: 1, open: true }, 180_000);
    // our bid just moved: only the ask scores (one-sided → divided by c), so the share drops
    expect(m3.share).toBeLessThan(m2.share);
    expect(m3.share).toBeGreaterThan(0);
  });

  it('skips closed or one-sided-book minutes, and averages scored minutes per epoch', () => {
    const est = new RewardScoreEstimator({ params: P, epochMs: 300_000 });
    est.observeBook('S', book, 0);
    const input = { ...book, ownOrders: own, priceOf, multiplier: 1, open: true };
    const a = est.sample('S', input, 60_000);
    expect(est.sample('S', { ...input, open: false }, 120_000).scored).toBe(false);
    expect(est.sample('S', { ...input, asks: [] }, 180_000).scored).toBe(false);
    est.sample('S', { ...input, ownOrders: [] }, 240_000);
    expect(est.scoredMinutes('S', 0)).toBe(2);
    expect(est.epochShare('S', 0)).toBeCloseTo(a.share / 2, 12);
    est.sample('S', input, 300_000); // next epoch
    expect(est.epochStartOf(300_000)).toBe(300_000);
    expect(est.epochShare('S', 300_000)).toBeCloseTo(a.share, 12);
    expect(est.epochShare('S', 900_000)).toBeNull();
  });

  it('remembers `keepEpochs` epochs as running sums: same shares, bounded however long it runs', () => {
    const est = new RewardScoreEstimator({ params: P, epochMs: 300_000, keepEpochs: 3 });
    est.observeBook('S', book, 0);
    const input = { ...book, ownOrders: own, priceOf, multiplier: 1, open: true };
    const shares: number[] = [];
    // 20 epochs of 5 minutes, quoting every other minute.
    for (let m = 1; m <= 100; m++) shares.push(est.sample('S', { ...input, ownOrders: m % 2 ? own : [] }, m * 60_000).share);
    expect(est.scoredMinutes('S', 0)).toBe(0); // dropped
    expect(est.epochShare('S', 17 * 300_000)).toBeNull(); // dropped
    for (const e of [18, 19, 20]) {
      const minutes = shares.slice(e * 5 - 1, e * 5 + 4);
      expect(est.scoredMinutes('S', e * 300_000)).toBe(minutes.length);
      expect(est.epochShare('S', e * 300_000)).toBeCloseTo(minutes.reduce((x, y) => x + y, 0) / minutes.length, 12);
    }
  });
});
