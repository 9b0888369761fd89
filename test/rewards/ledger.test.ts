import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { epochDay, filterAccruals, impliedPoolUsd, latestBySymbol, totalsBySymbolStatus, totalsByStatus, trendByDay } from '../../src/rewards/ledger.ts';
import { PAYOUT_STATUSES } from '../../src/rewards/types.ts';
import { accrual } from './fixtures.ts';

const rows = [
  accrual('a', 0, 'EURUSD-PERP', '1.5', 'paid'),
  accrual('b', 0, 'XAU-PERP', '0.25', 'retained'),
  accrual('c', 1, 'EURUSD-PERP', '2.000001', 'approved'),
  accrual('d', 2, 'EURUSD-PERP', '3', 'accrued'),
  accrual('e', 2, 'XAU-PERP', '4', { unknown: 'frozen' }),
];

describe('reward ledger math', () => {
  it('totals by status keep every known status and unknown ones by name, exactly', () => {
    const t = totalsByStatus(rows);
    expect([...t.keys()]).toEqual([...PAYOUT_STATUSES, 'frozen']);
    expect(t.get('paid')!.toString()).toBe('1.5');
    expect(t.get('approved')!.toString()).toBe('2.000001');
    expect(t.get('awaiting')!.toString()).toBe('0');
    expect(t.get('frozen')!.toString()).toBe('4');
  });

  it('totals by symbol and status are sorted and counted', () => {
    expect(totalsBySymbolStatus(rows).map((r) => `${r.symbol}/${r.status}/${r.finalUsd}/${r.count}`)).toEqual([
      'EURUSD-PERP/accrued/3/1',
      'EURUSD-PERP/approved/2.000001/1',
      'EURUSD-PERP/paid/1.5/1',
      'XAU-PERP/retained/0.25/1',
      'XAU-PERP/frozen/4/1',
    ]);
  });

  it('per-day trend is oldest first, keyed by the UTC day of the epoch start', () => {
    const t = trendByDay(rows);
    expect(t.map((d) => [d.day, d.finalUsd.toString(), d.count])).toEqual([
      ['2026-01-01', '1.75', 2],
      ['2026-01-02', '2.000001', 1],
      ['2026-01-03', '7', 2],
    ]);
    expect(t[0]!.byStatus.get('retained')!.toString()).toBe('0.25');
  });

  it('filters like the endpoint: inclusive dates on the epoch day, symbol and status', () => {
    expect(filterAccruals(rows, { startDate: '2026-01-02', endDate: '2026-01-02' }).map((r) => r.id)).toEqual(['c']);
    expect(filterAccruals(rows, { symbol: 'XAU-PERP', status: 'retained' }).map((r) => r.id)).toEqual(['b']);
    expect(filterAccruals(rows, { startDate: '2026-01-03' }).map((r) => r.id)).toEqual(['d', 'e']);
    expect(epochDay(rows[0]!)).toBe('2026-01-01');
  });

  it('latest per symbol and the implied pool (raw / share)', () => {
    expect(latestBySymbol(rows).get('EURUSD-PERP')!.id).toBe('d');
    expect(impliedPoolUsd(rows, 'EURUSD-PERP')!.toString()).toBe('12');
    expect(impliedPoolUsd([accrual('z', 0, 'Q', '1', 'paid', '0')], 'Q')).toBeNull();
  });

  it('property: status totals always sum to the sum of finals', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ cents: fc.integer({ min: 0, max: 10_000_000 }), st: fc.constantFrom(...PAYOUT_STATUSES), day: fc.integer({ min: 0, max: 60 }) }), { maxLength: 40 }),
        (xs) => {
          const list = xs.map((x, i) => accrual(String(i), x.day, 'S', new Decimal(x.cents).div(100).toString(), x.st));
          const sum = list.reduce((a, r) => a.plus(r.finalUsd), new Decimal(0));
          const byStatus = [...totalsByStatus(list).values()].reduce((a, b) => a.plus(b), new Decimal(0));
          const byDay = trendByDay(list).reduce((a, d) => a.plus(d.finalUsd), new Decimal(0));
          return byStatus.eq(sum) && byDay.eq(sum);
        },
      ),
    );
  });
});
