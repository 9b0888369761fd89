import { describe, expect, it } from 'vitest';
import { formatHourlySummary, type RealRow } from './real-table.ts';

const row = (window: string, label: string, netUsd: number): RealRow =>
  ({ market: 'amzn', window, label, netUsd, feesPaidUsd: 0, spreadCaptureUsd: 0, inventoryPnlUsd: 0, fills: 1, maxDrawdownUsd: 1, netOverDrawdown: netUsd, markout10sBps: 0, p95AbsInventory: 0, estimatedRewardsUsd: 0, netWithRewardsUsd: netUsd }) as RealRow;

describe('formatHourlySummary', () => {
  it('counts positive hours, sums them, and pairs each hour against the reference', () => {
    const rows = [row('h1', 'a', 10), row('h1', 'b', -5), row('h2', 'a', -3), row('h2', 'b', 4), row('h3', 'a', 2), row('h3', 'b', 1), { ...row('h3', 'c', 0), error: 'failed' }];
    expect(formatHourlySummary(rows, 'a', ['a', 'b', 'c']).split('\n')).toEqual([
      '| strategy | hours | hours net > 0 | sum of hourly net USD | hours a nets more |',
      '|---|---|---|---|---|',
      '| a | 3 | 2 | 9.00 | – |',
      '| b | 3 | 2 | 0.00 | 2/3 |',
      '| c | 0 | 0 | 0.00 | 0/0 |',
    ]);
  });
});
