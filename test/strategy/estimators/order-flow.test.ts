import { describe, expect, it } from 'vitest';
import { OrderFlowImbalance, TradeFlowImbalance } from '../../../src/strategy/estimators/index.ts';

describe('OrderFlowImbalance', () => {
  it('adds Cont–Kukanov–Stoikov eₙ per touch change', () => {
    const o = new OrderFlowImbalance(1e12);
    o.update(100, 10, 101, 10, 0);
    o.update(100, 15, 101, 10, 1); // bid size up 5 → +5
    expect(o.value).toBeCloseTo(5, 9);
    o.update(100, 15, 101, 4, 2); // ask size down 6 → +6
    expect(o.value).toBeCloseTo(11, 9);
    o.update(101, 3, 102, 8, 3); // bid improves (+3), ask moves up (+4 old ask qty)
    expect(o.value).toBeCloseTo(18, 9);
    o.update(100, 7, 101, 9, 4); // bid drops (−3 old), ask comes down (−9 new)
    expect(o.value).toBeCloseTo(6, 9);
    expect(o.normalized).toBeGreaterThan(0);
  });

  it('decays with engine time', () => {
    const o = new OrderFlowImbalance(1000);
    o.update(100, 10, 101, 10, 0);
    o.update(100, 20, 101, 10, 0);
    o.update(100, 20, 101, 10, 1000);
    expect(o.value).toBeCloseTo(5, 9);
  });
});

describe('TradeFlowImbalance', () => {
  it('is the volume-weighted share of buys minus sells', () => {
    const f = new TradeFlowImbalance(1e12);
    expect(f.value).toBe(0);
    f.onTrade(30, true, 0);
    f.onTrade(10, false, 1);
    expect(f.value).toBeCloseTo(0.5, 9);
  });
});
