import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/sim/market/rng.ts';
import { TradeIntensity } from '../../../src/strategy/estimators/index.ts';

/** Poisson trades at rate A/s whose distance from the mid is Exp(k): λ(δ) = A·e^(−kδ). */
function simulate(est: TradeIntensity, seed: number, aPerS: number, kPerTick: number, durationS: number): number {
  const rng = new Rng(seed);
  const mid = 10_000.5;
  let t = 0;
  est.start(0);
  for (;;) {
    t += rng.exponential(1000 / aPerS);
    if (t > durationS * 1000) return t;
    const d = rng.exponential(1 / kPerTick);
    const buy = rng.chance(0.5);
    est.onTradeAt(buy ? mid + d : mid - d, mid, buy, t);
  }
}

describe('TradeIntensity', () => {
  it.each([
    [2, 0.5],
    [0.5, 1.2],
    [5, 0.2],
  ])('recovers A = %s /s and k = %s /tick of simulated Poisson arrivals within 10 %%', (a, k) => {
    const est = new TradeIntensity({ halfLifeMs: 1e12, binTicks: 0.5, maxBins: 64, fitBins: 12, minBinCount: 20 });
    simulate(est, 17, a, k, 20_000);
    const fit = est.fit(20_000_000)!;
    expect(fit).not.toBeNull();
    expect(Math.abs(fit.aPerS / a - 1)).toBeLessThan(0.1);
    expect(Math.abs(fit.kPerTick / k - 1)).toBeLessThan(0.1);
  });

  it('forgets: after the regime changes, the decayed fit follows the new A and k', () => {
    const est = new TradeIntensity({ halfLifeMs: 300_000, binTicks: 0.5, fitBins: 10, minBinCount: 20 });
    const rng = new Rng(5);
    let t = 0;
    est.start(0);
    const run = (a: number, k: number, untilMs: number): void => {
      for (;;) {
        t += rng.exponential(1000 / a);
        if (t > untilMs) return;
        est.onTrade(rng.exponential(1 / k), t);
      }
    };
    run(1, 0.3, 3_600_000);
    run(4, 1, 10_800_000);
    const fit = est.fit(10_800_000)!;
    expect(Math.abs(fit.aPerS / 4 - 1)).toBeLessThan(0.15);
    expect(Math.abs(fit.kPerTick - 1)).toBeLessThan(0.15);
  });

  it('returns null with too few trades; bounds k with a pseudo-count when every print is at the touch', () => {
    const est = new TradeIntensity({ minTrades: 10, halfLifeMs: 1e12, binTicks: 0.5 });
    for (let i = 0; i < 9; i++) est.onTrade(3.5, i * 1000);
    expect(est.fit(10_000)).toBeNull();
    for (let i = 0; i < 100; i++) est.onTrade(3.5, 10_000 + i * 1000);
    expect(est.trades).toBe(109);
    // 109 prints at 3.5 ticks, a half-trade pseudo-count at 4: weighted fit through both points.
    const fit = est.fit(110_000)!;
    const [c0, c1, x0, x1] = [109, 0.5, 3.5, 4];
    const w = c0 + c1;
    const xm = (c0 * x0 + c1 * x1) / w;
    const ym = (c0 * Math.log(c0 / 110) + c1 * Math.log(c1 / 110)) / w;
    const slope = (c0 * (x0 - xm) * (Math.log(c0 / 110) - ym) + c1 * (x1 - xm) * (Math.log(c1 / 110) - ym)) / (c0 * (x0 - xm) ** 2 + c1 * (x1 - xm) ** 2);
    expect(fit.kPerTick).toBeCloseTo(-slope, 6); // exposure decays (negligibly) with the 1e12 ms half-life
    expect(fit.kPerTick).toBeGreaterThan(10);
    expect(fit.aPerS / Math.exp(ym - slope * xm)).toBeCloseTo(1, 6);
  });

  it('returns null when the counts do not decay with distance', () => {
    const est = new TradeIntensity({ minTrades: 10, halfLifeMs: 1e12, binTicks: 1, minBinCount: 1 });
    // More prints far out than near: cumulative counts are flat, no decay to fit.
    for (let i = 0; i < 60; i++) est.onTrade(i % 2 === 0 ? 0.2 : 5.5, i * 1000);
    for (let i = 0; i < 5; i++) est.onTrade(0.3, 60_000 + i);
    expect(est.fit(100_000)?.kPerTick ?? 0).toBeLessThan(1);
  });

  it('stays finite over long runs (lazy decay rescales before overflow)', () => {
    const est = new TradeIntensity({ halfLifeMs: 1000, minTrades: 10, minBinCount: 0.5 });
    const rng = new Rng(9);
    for (let i = 0; i < 20_000; i++) est.onTrade(rng.exponential(2), i * 100);
    const fit = est.fit(2_000_000)!;
    expect(Number.isFinite(fit.aPerS) && Number.isFinite(fit.kPerTick)).toBe(true);
  });
});
