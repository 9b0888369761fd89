import { describe, expect, it } from 'vitest';
import { LeadingFair } from '../../src/strategy/leading-fair.ts';

const noTrades = { trades: [] };

describe('LeadingFair', () => {
  it('widens the side a jump of the mid went against by the jump for the hold, and only then', () => {
    const lf = new LeadingFair({ horizonMs: 10_000, halfLifeMs: 3_600_000, jumpMultiple: 8, jumpHoldMs: 1000 });
    // 40 one-tick steps of the mid (bid/ask move together): the usual step is 1 tick.
    for (let i = 0; i < 40; i++) lf.update(noTrades, 100 + (i % 2), 10, 110 + (i % 2), 10, i * 100);
    expect(lf.askJumpTicks(4000)).toBe(0);
    expect(lf.bidJumpTicks(4000)).toBe(0);
    // The mid jumps from 105.5 (i = 39: 101/111 → 106) … from 106 up 10 ticks.
    lf.update(noTrades, 111, 10, 121, 10, 4000);
    expect(lf.askJumpTicks(4000)).toBe(10);
    expect(lf.askJumpTicks(4999)).toBe(10);
    expect(lf.bidJumpTicks(4500)).toBe(0);
    expect(lf.askJumpTicks(5000)).toBe(0);
    // A move of 7 ticks (< 8 × the usual step) is not a jump.
    lf.update(noTrades, 104, 10, 114, 10, 6000);
    expect(lf.bidJumpTicks(6000)).toBe(0);
  });

  it('leaves the fair value at the mid while no feature is significant', () => {
    const lf = new LeadingFair({ horizonMs: 1000, halfLifeMs: 3_600_000 });
    for (let i = 0; i < 50; i++) lf.update(noTrades, 100, 10 + i, 102, 10, i * 1000);
    expect(lf.shift).toBe(0);
    expect(lf.predictor.samples).toBe(49);
  });
});
