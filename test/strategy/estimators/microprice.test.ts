import { describe, expect, it } from 'vitest';
import { MicropriceEstimator } from '../../../src/strategy/estimators/index.ts';

describe('MicropriceEstimator', () => {
  it('falls back to the size-weighted mid, then learns the mid drift per imbalance bucket', () => {
    const m = new MicropriceEstimator(1000, 1e12, 5, 30);
    expect(m.value(100, 30, 102, 10)).toBeCloseTo((100 * 10 + 102 * 30) / 40, 12);
    // Heavy bids (imbalance 0.9, 2-tick spread) are always followed by a +0.5 tick mid move.
    let mid = 1000;
    for (let i = 0; i < 100; i++) {
      m.update(mid - 1, 90, mid + 1, 10, i * 1000);
      mid += 0.5;
    }
    expect(m.value(2000, 90, 2002, 10)).toBeCloseTo(2001.5, 9);
    // An unseen bucket still uses the size-weighted mid.
    expect(m.value(2000, 10, 2002, 90)).toBeCloseTo(2000.2, 9);
  });
});
