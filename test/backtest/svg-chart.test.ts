import { describe, expect, it } from 'vitest';
import { lineChart, niceTicks } from '../../src/backtest/svg-chart.ts';
import { parseSvg } from '../support/svg-parse.ts';

describe('chart axes: round ticks', () => {
  it('covers a range with steps of 1, 2 or 5 × 10^k, at most 7 intervals', () => {
    expect(niceTicks(0, 11.51)).toEqual({ ticks: [0, 2, 4, 6, 8, 10, 12], step: 2, decimals: 0 });
    expect(niceTicks(0, 120).ticks).toEqual([0, 20, 40, 60, 80, 100, 120]);
    expect(niceTicks(-0.38, 24.1).ticks).toEqual([-5, 0, 5, 10, 15, 20, 25]);
    expect(niceTicks(0, 1).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(1.08493, 1.08531)).toEqual({ ticks: [1.0849, 1.085, 1.0851, 1.0852, 1.0853, 1.0854], step: 0.0001, decimals: 4 });
    expect(niceTicks(-1145, 320).ticks).toEqual([-1500, -1000, -500, 0, 500]);
    expect(niceTicks(-0.0909, 0).ticks).toEqual([-0.1, -0.08, -0.06, -0.04, -0.02, 0]);
  });

  it('an inside axis (time) keeps the ticks within the data; a flat series still gets an axis', () => {
    expect(niceTicks(0, 478.84, 7, true).ticks).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(5, 5).ticks).toEqual([4.94, 4.96, 4.98, 5, 5.02, 5.04, 5.06]); // ±1% around a flat value
    expect(niceTicks(0, 0).ticks).toEqual([-1, -0.5, 0, 0.5, 1]);
  });

  it('a chart of 0–11.51 labels its y axis 0, 2, …, 12 and its time axis in round seconds', () => {
    const x = [0, 100_000, 200_000, 478_840];
    const svg = parseSvg(lineChart('t', x, [{ label: 'a', color: '#000', y: [0, 3, 11.51, 7] }]));
    const labels = svg.children.filter((c) => c.name === 'text').map((c) => c.text);
    expect(labels).toEqual(['t', '0', '2', '4', '6', '8', '10', '12', '0s', '100s', '200s', '300s', '400s', 'a']);
  });

  it('long runs label elapsed time in minutes or hours', () => {
    const svg = parseSvg(lineChart('t', [0, 3_600_000], [{ label: 'a', color: '#000', y: [0, 1] }]));
    const labels = svg.children.filter((c) => c.name === 'text').map((c) => c.text);
    expect(labels.filter((l) => l.endsWith('min'))).toEqual(['0min', '10min', '20min', '30min', '40min', '50min', '60min']);
  });
});
