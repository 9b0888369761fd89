import { describe, expect, it } from 'vitest';
import type { TradePrinted } from '../../src/domain/index.ts';
import { Rng } from '../../src/sim/market/rng.ts';
import { MarketCalibrator } from '../../src/strategy/index.ts';
import { book, ctxAt, SYM } from './synthetic-market.ts';

/** Decayed count (lots) in bin `i` of the two-sided intensity (at t = 1 ms). */
function binOf(cal: MarketCalibrator, i: number): number {
  return cal.intensity.binCount(i, 1);
}

describe('MarketCalibrator', () => {
  it('fits λ(δ) from the mid on a wide book: A (per side) extrapolates the touch rate to the mid, k the decay past it', () => {
    // A 7-tick book; prints at the touch plus Exp(k = 0.8/tick) on the half-tick grid, 2 per second
    // over both sides (1 per side).
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
    // Flooring to the half-tick grid keeps P(d ≥ x) = e^(−0.8x) at every grid point x: λ(3.5) = 1/s
    // per side, so A = e^(0.8·3.5) = 16.4/s per side.
    expect(Math.abs(fit.kPerTick / 0.8 - 1)).toBeLessThan(0.1);
    expect(Math.abs(Math.log(fit.aPerS) - 0.8 * 3.5)).toBeLessThan(0.3);
    expect(cal.observedSpreadTicks).toBeCloseTo(7, 9);
    // A still book: σ is not known (NaN), never 0.
    expect(cal.sigma).toBeNaN();
  });

  it('exact fit on a hand-made sequence: depth from the pre-trade mid (a sweep counts as deep as it reached), size in lots, per side', () => {
    // Lots of 2 contracts; 100 s of exposure (no decay). Sells (our bid side) reach 1.0, 1.5 and 2.0
    // ticks below the pre-trade mid with 8, 4 and 4 lots: the cumulative counts 16, 8, 4 halve every
    // half tick, so k = 2·ln 2 per tick and λ(1) = 16/100 per s, i.e. A = 0.16·e^k = 0.64 lots/s.
    const cal = new MarketCalibrator({ intensityHalfLifeMs: 1e12, intensityMinTrades: 3, lotSize: 2 });
    const sell = (px: number, qty: number, t: number): TradePrinted => ({ type: 'trade', symbol: SYM, priceTicks: px, qty, aggressor: 'sell', tsEvent: t, tsRecv: t });
    cal.observe(ctxAt(0, book(999, 1001)), 0); // mid 1000
    // A sweep: 16 contracts at 999 (1.0 below the mid) that took the bid away: post-trade book 997/1001.
    cal.observe(ctxAt(10_000, book(997, 1001), 0, { trades: [sell(999, 16, 10_000)] }), 10_000); // mid 999
    cal.observe(ctxAt(20_000, book(999, 1002)), 20_000); // mid 1000.5
    cal.observe(ctxAt(30_000, book(999, 1002), 0, { trades: [sell(999, 8, 30_000)] }), 30_000); // 1.5 below 1000.5
    cal.observe(ctxAt(40_000, book(999, 1001)), 40_000); // mid 1000
    cal.observe(ctxAt(100_000, book(999, 1001), 0, { trades: [sell(998, 8, 100_000)] }), 100_000); // 2.0 below 1000
    const bid = cal.sideFit('bid', 100_000)!;
    expect(bid.kPerTick).toBeCloseTo(2 * Math.LN2, 6);
    expect(bid.aPerS).toBeCloseTo(0.64, 6);
    expect(cal.sideFit('ask', 100_000)).toBeNull(); // no buy prints
    // The per-side fit the models get: both sides' prints, A halved (only one side traded here).
    const both = cal.fit(100_000)!;
    expect(both.kPerTick).toBeCloseTo(2 * Math.LN2, 6);
    expect(both.aPerS).toBeCloseTo(0.32, 6);
  });

  it('measures depths from the reference the quoter sets (its fair value), not the mid', () => {
    const cal = new MarketCalibrator({ intensityHalfLifeMs: 1e12, intensityMinTrades: 1 });
    cal.observe(ctxAt(0, book(999, 1001)), 0);
    cal.setReference(1000.5);
    const buy: TradePrinted = { type: 'trade', symbol: SYM, priceTicks: 1001, qty: 3, aggressor: 'buy', tsEvent: 1, tsRecv: 1 };
    cal.observe(ctxAt(1, book(999, 1001), 0, { trades: [buy] }), 1);
    // 0.5 from 1000.5: bin 1 of the half-tick bins holds the 3 contracts (it would be bin 2 from the mid).
    expect(cal.askIntensity.trades).toBe(1);
    expect(binOf(cal, 1)).toBeCloseTo(3, 9);
    expect(binOf(cal, 2)).toBe(0);
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
