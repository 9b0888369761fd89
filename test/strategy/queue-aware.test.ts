import { describe, expect, it } from 'vitest';
import type { StrategyContext, WorkingOrder } from '../../src/strategy/contract.ts';
import { joinBeatsImprove, keepQueuePriority, queueAdjust, queueFillProbability, QueueTracker } from '../../src/strategy/queue-aware.ts';

type View = Pick<StrategyContext, 'book' | 'workingOrders' | 'trades' | 'symbol'>;

/** A view with one level per side and our working orders. */
function view(bid: [number, number], ask: [number, number], orders: Partial<WorkingOrder>[] = [], trades: { qty: number }[] = []): View {
  return {
    symbol: 'X',
    book: { symbol: 'X', bids: [{ priceTicks: bid[0], qty: bid[1] }], asks: [{ priceTicks: ask[0], qty: ask[1] }], tsEvent: 0, tsRecv: 0 },
    workingOrders: orders.map((o, i) => ({ clientOrderId: `c${i}`, orderId: null, symbol: 'X', side: 'buy', priceTicks: 0, qty: 100, filledQty: 0, status: 'open', adopted: false, createdMs: 0, ...o })),
    trades: trades.map((t) => ({ qty: t.qty, priceTicks: 0, aggressor: 'buy', tsMs: 0 })),
  } as unknown as View;
}

describe('queue decisions', () => {
  it('fill probability is e^(−ahead/depletion), 1 at the front', () => {
    expect(queueFillProbability(0, 100)).toBe(1);
    expect(queueFillProbability(100, 100)).toBeCloseTo(Math.exp(-1), 15);
    expect(queueFillProbability(50, 0)).toBe(0);
  });

  it('joins when waiting behind the touch at the better price is worth more than the edge given up by improving', () => {
    // Join: 5 ticks of edge × e^(−200/100) = 0.677; improve by 1: 4 ticks at the front.
    expect(joinBeatsImprove(5, 1, 200, 100)).toBe(false);
    // Improving by 4.5 keeps 0.5 < 0.677: join.
    expect(joinBeatsImprove(5, 4.5, 200, 100)).toBe(true);
    // An empty touch queue: join keeps 1.2 ticks at probability 1; improving keeps 0.2.
    expect(joinBeatsImprove(1.2, 1, 0, 100)).toBe(true);
    // Edge 1.5 behind 10 contracts: join 1.5·e^(−0.1) = 1.357 > improve 0.5.
    expect(joinBeatsImprove(1.5, 1, 10, 100)).toBe(true);
    // No edge at either price: join.
    expect(joinBeatsImprove(0.5, 1, 1000, 100)).toBe(true);
  });

  it('keeps priority while the move gains less than re-queuing loses', () => {
    // At the front, 4 ticks of edge, the new level has 200 ahead: loses 4·(1 − e^(−2)) = 3.459 ticks.
    expect(keepQueuePriority(1, 4, 0, 200, 100)).toBe(true);
    expect(keepQueuePriority(3, 4, 0, 200, 100)).toBe(true);
    expect(keepQueuePriority(4, 4, 0, 200, 100)).toBe(false);
    // Already at the back of as long a queue: nothing to lose.
    expect(keepQueuePriority(1, 4, 200, 200, 100)).toBe(false);
    // No edge left at the resting price: move.
    expect(keepQueuePriority(1, -1, 0, 200, 100)).toBe(false);
    expect(keepQueuePriority(0, -1, 0, 200, 100)).toBe(true);
  });
});

describe('QueueTracker', () => {
  it('counts the level ahead when joining, shrinks it with the level, never grows it, and zeroes it once the touch is behind', () => {
    const q = new QueueTracker(60_000);
    const o = { side: 'buy' as const, priceTicks: 100 };
    q.update(view([100, 300], [110, 50], [o], [{ qty: 40 }, { qty: 60 }]), 0);
    expect(q.aheadOf('c0')).toBe(300);
    expect(q.depletionQty).toBe(50);
    q.update(view([100, 120], [110, 50], [o]), 1);
    expect(q.aheadOf('c0')).toBe(120);
    q.update(view([100, 500], [110, 50], [o]), 2);
    expect(q.aheadOf('c0')).toBe(120);
    q.update(view([99, 500], [110, 50], [o]), 3);
    expect(q.aheadOf('c0')).toBe(0);
    // Moved to a new price: re-queued behind the visible level; gone: forgotten.
    q.update(view([99, 500], [110, 50], [{ side: 'buy', priceTicks: 99 }]), 4);
    expect(q.aheadOf('c0')).toBe(500);
    q.update(view([99, 500], [110, 50], []), 5);
    expect(q.aheadOf('c0')).toBeUndefined();
  });

  it('an order improving the touch is first in its queue', () => {
    const q = new QueueTracker(60_000);
    q.update(view([100, 300], [110, 50], [{ side: 'sell', priceTicks: 109 }]), 0);
    expect(q.aheadOf('c0')).toBe(0);
  });
});

describe('queueAdjust', () => {
  it('keeps the model\'s price inside a wide spread unless joining the touch is worth more', () => {
    const q = new QueueTracker(60_000);
    // Mean trade 100; touch 100 × 300 behind a 10-tick spread; fair 105, cost 0.
    q.update(view([100, 300], [110, 50], [], [{ qty: 100 }]), 0);
    // Bid at 104: join (105 − 100)·e^(−3) = 0.249 < 1 tick left at 104: the model's price stands.
    expect(queueAdjust(view([100, 300], [110, 50]), q, 'buy', 104.3, 105, 0)).toBe(104);
    // Ask at 106 (from 105.7): 4 ticks inside, 1 tick of edge left; join (110 − 105)·e^(−0.5) = 3.03: join.
    expect(queueAdjust(view([100, 300], [110, 50]), q, 'sell', 105.7, 105, 0)).toBe(110);
    // Bid at 101: 4 ticks at the front beat 0.249: stays.
    expect(queueAdjust(view([100, 300], [110, 50]), q, 'buy', 101.2, 105, 0)).toBe(101);
    // A model price behind the touch passes through (snapped).
    expect(queueAdjust(view([100, 300], [110, 50]), q, 'buy', 97.6, 105, 0)).toBe(97);
  });

  it('keeps a resting bid at the front of the touch when the model moves it by less than the priority is worth', () => {
    const q = new QueueTracker(60_000);
    const v = view([100, 300], [110, 50], [{ side: 'buy', priceTicks: 101 }], [{ qty: 100 }]);
    q.update(v, 0);
    expect(q.aheadOf('c0')).toBe(0);
    // The model now wants to join at 100 (edge at 101: 105 − 101 − 0 = 4; re-queuing behind 300 loses 4·(1 − e^(−3)) = 3.80 > 1).
    expect(queueAdjust(v, q, 'buy', 100.2, 105, 0)).toBe(101);
    // With only 0.5 tick of edge left at 101 the move wins.
    expect(queueAdjust(v, q, 'buy', 100.2, 101.5, 0)).toBe(100);
  });
});
