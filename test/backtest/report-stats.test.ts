import { describe, expect, it } from 'vitest';
import { absPercentile, equityStats, formatRatio, MIN_RATIO_PERIODS, pnlRatios } from '../../src/backtest/report-stats.ts';

describe('report statistics', () => {
  it('Sharpe and Sortino are per-period PnL ratios scaled by √1440 (one day of minutes)', () => {
    const d = Array.from({ length: 6 }, () => [2, -1, 3, 0, 2]).flat(); // 30 changes
    const eq = d.reduce((acc, x) => [...acc, acc.at(-1)! + x], [0]);
    const r = pnlRatios(eq);
    const mean = 36 / 30;
    const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / 29);
    expect(r.periods).toBe(30);
    expect(r.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(1440), 10);
    expect(r.sortino).toBeCloseTo((mean / Math.sqrt(6 / 30)) * Math.sqrt(1440), 10);
    expect(formatRatio(r.sharpe, r.periods)).toBe(((mean / sd) * Math.sqrt(1440)).toFixed(2));
  });

  it('a ratio needs 30 periods: 29 give n/a with the count, not a number scaled by √1440', () => {
    expect(MIN_RATIO_PERIODS).toBe(30);
    const eq = Array.from({ length: 30 }, (_, k) => k * 2 + (k % 2)); // 29 varying changes
    expect(pnlRatios(eq)).toEqual({ sharpe: null, sortino: null, periods: 29 });
    expect(formatRatio(null, 7)).toBe('n/a (7 periods; needs 30)');
    expect(formatRatio(null, 45)).toBe('n/a (PnL never varied, or never lost)');
  });

  it('gives no Sharpe (null, not 0) and no Sortino where they are undefined', () => {
    expect(pnlRatios([1, 1, 1, 1])).toEqual({ sharpe: null, sortino: null, periods: 3 });
    expect(pnlRatios([0, 1])).toEqual({ sharpe: null, sortino: null, periods: 1 });
    expect(pnlRatios([])).toEqual({ sharpe: null, sortino: null, periods: 0 });
    expect(pnlRatios([0, 1, 3, 4]).sortino).toBeNull(); // never lost a period: unbounded
  });

  it('max drawdown lasts from its peak to the recovery of that peak, or to the end', () => {
    const t = [0, 10, 20, 30, 40, 50, 60];
    expect(equityStats([0, 5, 3, 8, 1, 4, 9], t)).toEqual({ maxDrawdown: 7, durationMs: 30, recovered: true }); // peak 8 at 30, back above at 60
    expect(equityStats([0, 5, 3, 8, 1, 4, 7], t)).toEqual({ maxDrawdown: 7, durationMs: 30, recovered: false });
    expect(equityStats([0, 1, 2], [0, 1, 2])).toEqual({ maxDrawdown: 0, durationMs: 0, recovered: true });
    // The deepest fall decides, not the longest: −2 over 40 ms, then −5 over 10 ms.
    expect(equityStats([3, 1, 1, 1, 3.5, -1.5, 4], t)).toEqual({ maxDrawdown: 5, durationMs: 20, recovered: true });
  });

  it('percentiles of |position| use the nearest rank', () => {
    const pos = [-10, 0, 5, -3, 8, 1, 2, -7, 9, 4]; // |.| sorted: 0 1 2 3 4 5 7 8 9 10
    expect(absPercentile(pos, 0.5)).toBe(4);
    expect(absPercentile(pos, 0.95)).toBe(10);
    expect(absPercentile(pos, 0.9)).toBe(9);
    expect(absPercentile([], 0.5)).toBe(0);
  });
});
