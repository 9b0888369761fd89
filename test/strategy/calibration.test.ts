import { describe, expect, it } from 'vitest';
import type { TradePrinted } from '../../src/domain/index.ts';
import { Rng } from '../../src/sim/market/rng.ts';
import { MarketCalibrator } from '../../src/strategy/index.ts';
import { book, ctxAt, SYM } from './synthetic-market.ts';

describe('MarketCalibrator', () => {
  it('fits λ(δ) beyond the touch on a wide book: A is the rate at the touch, k the decay past it', () => {
    // A 7-tick book; prints at the touch plus Exp(k = 0.8/tick) on the half-tick grid, 2 per second.
    const cal = new MarketCalibrator({ intensityHalfLifeMs: 1e12 });
    const rng = new Rng(21);
    let next = 0;
    const mid = 10_003.5;
    for (let t = 0; t <= 3_600_000; t += 250) {
      const trades: TradePrinted[] = [];
      while (next <= t) {
        const buy = rng.chance(0.5);
        const d = 3.5 + Math.floor(rng.exponential(1 / 0.8) * 2) / 2;
        trades.push({ type: 'trade', symbol: SYM, priceTicks: buy ? mid + d : mid - d, qty: 1, aggressor: buy ? 'buy' : 'sell', tsEvent: next, tsRecv: next });
        next += rng.exponential(500);
      }
      cal.observe(ctxAt(t, book(10_000, 10_007), 0, { trades }), t);
    }
    const fit = cal.fit(3_600_000)!;
    // Flooring to the half-tick grid keeps P(d ≥ x) = e^(−0.8x) at every grid point x.
    expect(Math.abs(fit.kPerTick / 0.8 - 1)).toBeLessThan(0.1);
    expect(Math.abs(fit.aPerS / 2 - 1)).toBeLessThan(0.1);
    expect(cal.observedSpreadTicks).toBeCloseTo(7, 9);
    // A still book: σ is not known (NaN), never 0.
    expect(cal.sigma).toBeNaN();
  });

  it('returns null without a two-sided book and ignores trades until it has seen a mid', () => {
    const cal = new MarketCalibrator();
    const trade: TradePrinted = { type: 'trade', symbol: SYM, priceTicks: 100, qty: 1, aggressor: 'buy', tsEvent: 0, tsRecv: 0 };
    expect(cal.observe(ctxAt(0, null, 0, { trades: [trade] }), 0)).toBeNull();
    expect(cal.intensity.trades).toBe(0);
    expect(cal.observe(ctxAt(1, book(99, 101)), 1)).toBe(100);
    cal.observe(ctxAt(2, book(99, 101), 0, { trades: [trade] }), 2);
    expect(cal.intensity.trades).toBe(1);
  });
});
