import { describe, expect, it } from 'vitest';
import { rewardQueryFromFlags } from '../../src/cli/commands/rewards.ts';
import { fetchAllAccruals } from '../../src/rewards/fetch-all.ts';
import { buildRewardReport, formatRewardReport, isIsoDate, renderTable } from '../../src/rewards/report.ts';
import { accrual, FakeSource } from './fixtures.ts';

const rows = [
  accrual('a', 0, 'EURUSD-PERP', '1.5', 'paid'),
  accrual('b', 0, 'XAU-PERP', '0.25', 'retained'),
  accrual('c', 1, 'EURUSD-PERP', '2', 'awaiting'),
  accrual('d', 2, 'EURUSD-PERP', '3', 'accrued'),
];

describe('rewards report', () => {
  it('JSON: totals by status, earned total without retained, per-day trend, every accrual', async () => {
    const ledger = await fetchAllAccruals(new FakeSource(rows), {});
    const r = buildRewardReport(ledger, {});
    expect(r.totalsByStatus).toEqual({ accrued: '3.000000', awaiting: '2.000000', approved: '0.000000', paid: '1.500000', retained: '0.250000' });
    expect(r.totalUsd).toBe('6.500000');
    expect(r.trend.map((d) => [d.day, d.finalUsd, d.count])).toEqual([
      ['2026-01-01', '1.750000', 2],
      ['2026-01-02', '2.000000', 1],
      ['2026-01-03', '3.000000', 1],
    ]);
    expect(r.accruals.map((a) => a.id)).toEqual(['d', 'c', 'a', 'b']);
    expect(r.summary.awaitingApprovalUsd).toBe('2.000000');
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('table: aligned columns, filters in the header, truncation note', async () => {
    const ledger = await fetchAllAccruals(new FakeSource(rows), { symbol: 'EURUSD-PERP' });
    const text = formatRewardReport(buildRewardReport(ledger, { symbol: 'EURUSD-PERP' }), 2);
    expect(text).toContain('Reward accruals: 3 row(s) (symbol=EURUSD-PERP)');
    expect(text).toContain('2026-01-03 00:00:00');
    expect(text).toContain('... 1 more (use --json for all)');
    expect(text).toMatch(/Per-day trend[\s\S]*2026-01-02 +1 +2\.000000/);
    expect(renderTable(['a', 'bb'], [['xxx', '1'], ['y', '22']], new Set([1]))).toBe('a    bb\n---  --\nxxx   1\ny    22');
  });

  it('empty ledger prints a clear line', async () => {
    const text = formatRewardReport(buildRewardReport(await fetchAllAccruals(new FakeSource([]), {}), {}));
    expect(text).toContain('No accruals match.');
    expect(text).toContain('Ledger window: - .. -; symbols: -');
  });

  it('flags: dates, statuses and ranges are validated with messages naming the flag', () => {
    expect(rewardQueryFromFlags({ symbol: 'X', status: 'paid', from: '2026-01-01', to: '2026-01-31' })).toEqual({ symbol: 'X', status: 'paid', startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(() => rewardQueryFromFlags({ status: 'pending' })).toThrow(/--status must be one of accrued, awaiting, approved, paid, retained, got "pending"/);
    expect(() => rewardQueryFromFlags({ from: '2026-02-30' })).toThrow(/--from must be a date YYYY-MM-DD, got "2026-02-30"/);
    expect(() => rewardQueryFromFlags({ from: '2026-03-01', to: '2026-02-01' })).toThrow(/--from \(2026-03-01\) is after --to/);
    expect(isIsoDate('2026-12-31')).toBe(true);
    expect(isIsoDate('2026-1-31')).toBe(false);
  });
});
