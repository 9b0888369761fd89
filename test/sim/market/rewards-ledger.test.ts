import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.ts';
import { DEFAULT_REWARD_SCORE_PARAMS } from '../../../src/domain/reward-score.ts';
import { parseRewardQuery, rewardAccruals } from '../../../src/sim/rewards/accruals-query.ts';
import { RewardLedger, type PayoutStatus, type RewardAccrual } from '../../../src/sim/rewards/ledger.ts';
import { RewardProgram } from '../../../src/sim/rewards/program.ts';

const DAY = 86_400_000;
const day0 = Date.parse('2026-09-01T00:00:00Z');
let n = 0;
const row = (symbol: string, dayIdx: number, final: number, status: PayoutStatus, accountId = 'acc'): RewardAccrual => ({
  id: `R${String(++n).padStart(4, '0')}`,
  accountId,
  symbol,
  epochStartMs: day0 + dayIdx * DAY,
  epochEndMs: day0 + (dayIdx + 1) * DAY,
  raw: new Decimal(final),
  capAdjustment: new Decimal(0),
  final: new Decimal(final),
  accountShare: 0.25,
  status,
  paidAtMs: status === 'paid' ? day0 + (dayIdx + 3) * DAY : null,
  scoresRetained: true,
});
const ledger = [
  row('EURUSD-PERP', 0, 10, 'paid'),
  row('XAU-PERP', 0, 5, 'paid'),
  row('EURUSD-PERP', 1, 12, 'approved'),
  row('EURUSD-PERP', 2, 0.5, 'retained'),
  row('XAU-PERP', 2, 7, 'awaiting'),
  row('EURUSD-PERP', 3, 9, 'accrued'),
];
const now = day0 + 10 * DAY;
const q = (s: string) => {
  const r = parseRewardQuery(new URLSearchParams(s));
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('reward accruals report', () => {
  it('unfiltered: newest epoch first, totals over everything, window and symbols from the ledger', () => {
    const r = rewardAccruals(ledger, q(''), now);
    expect(r.total_count).toBe(6);
    expect(r.accruals.map((a) => a.epoch_start_ts.slice(0, 10))).toEqual(['2026-09-04', '2026-09-03', '2026-09-03', '2026-09-02', '2026-09-01', '2026-09-01']);
    expect(r.summary).toEqual({ accrued_today_usd: '9.000000', awaiting_approval_usd: '7.000000', paid_this_month_usd: '15.000000', retained_usd: '0.500000' });
    expect(r.symbols).toEqual(['EURUSD-PERP', 'XAU-PERP']);
    expect(r.window).toEqual({ min_day: '2026-09-01', max_day: '2026-09-04' });
    expect(r.trend[0]).toEqual({ epoch_day: '2026-09-01', symbol: 'EURUSD-PERP', accrued_usd: '10.000000', paid_usd: '10.000000' });
    expect(r.trend).toHaveLength(6);
  });

  it('filters by symbol, status and date range; symbols and window stay whole-ledger', () => {
    const s = rewardAccruals(ledger, q('symbol=XAU-PERP'), now);
    expect(s.total_count).toBe(2);
    expect(s.symbols).toEqual(['EURUSD-PERP', 'XAU-PERP']);
    expect(s.window).toEqual({ min_day: '2026-09-01', max_day: '2026-09-04' });
    expect(s.summary.awaiting_approval_usd).toBe('7.000000');
    expect(s.summary.accrued_today_usd).toBe('0.000000');
    const st = rewardAccruals(ledger, q('payout_status=paid'), now);
    expect(st.total_count).toBe(2);
    expect(st.summary.paid_this_month_usd).toBe('15.000000');
    expect(st.summary.retained_usd).toBe('0.000000');
    const d = rewardAccruals(ledger, q('start_date=2026-09-02&end_date=2026-09-03'), now);
    expect(d.total_count).toBe(3);
    expect(d.trend.map((t) => t.epoch_day)).toEqual(['2026-09-02', '2026-09-03', '2026-09-03']);
  });

  it('paging changes only the page, never total_count, summary or trend', () => {
    const all = rewardAccruals(ledger, q(''), now);
    const p1 = rewardAccruals(ledger, q('limit=2&offset=0'), now);
    const p2 = rewardAccruals(ledger, q('limit=2&offset=2'), now);
    const p9 = rewardAccruals(ledger, q('limit=2&offset=9'), now);
    for (const p of [p1, p2, p9]) {
      expect(p.total_count).toBe(6);
      expect(p.summary).toEqual(all.summary);
      expect(p.trend).toEqual(all.trend);
    }
    expect([...p1.accruals, ...p2.accruals].map((a) => a.id)).toEqual(all.accruals.slice(0, 4).map((a) => a.id));
    expect(p9.accruals).toEqual([]);
    expect(p1.limit).toBe(2);
    expect(p2.offset).toBe(2);
  });

  it('empty ledger gives an empty window and zero summary', () => {
    const r = rewardAccruals([], q(''), now);
    expect(r).toMatchObject({ total_count: 0, accruals: [], trend: [], symbols: [], window: { min_day: '', max_day: '' } });
    expect(r.summary.retained_usd).toBe('0.000000');
  });

  it('rejects bad parameters with a message naming them', () => {
    for (const [s, re] of [
      ['limit=-1', /limit/],
      ['offset=x', /offset/],
      ['payout_status=lost', /payout_status/],
      ['start_date=2026-13-01', /start_date/],
      ['start_date=2026-09-05&end_date=2026-09-01', /after/],
    ] as const) {
      const r = parseRewardQuery(new URLSearchParams(s));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(re);
    }
  });

  it('account_share reads 0 once scores are no longer retained', () => {
    const l = new RewardLedger();
    const r = row('EURUSD-PERP', 0, 10, 'accrued');
    l.add([r]);
    l.advance(day0 + 100 * DAY, { awaitingAfterMs: DAY, approvedAfterMs: 2 * DAY, paidAfterMs: 3 * DAY, scoreRetentionMs: 30 * DAY });
    expect(rewardAccruals(l.all(), q(''), now).accruals[0]!.account_share).toBe('0');
  });
});

describe('reward program', () => {
  const cfg = {
    epochMs: 10 * 60_000,
    score: { ...DEFAULT_REWARD_SCORE_PARAMS, minRestMs: 0 },
    poolsUsd: { 'EURUSD-PERP': 100 },
    defaultPoolUsd: 10,
    capPct: 60,
    capUsd: null,
    minPayoutUsd: 5,
    lifecycle: { awaitingAfterMs: 60_000, approvedAfterMs: 120_000, paidAfterMs: 180_000, scoreRetentionMs: 3_600_000 },
    bonusWindows: [],
  };
  const o = (accountId: string, side: 'buy' | 'sell', price: number, qty: number) => ({ accountId, side, price, qty, multiplier: 1, restedMs: 60_000 });

  it('scores minutes, closes the epoch with the cap and minimum payout, then pays over time', () => {
    let id = 0;
    const prog = new RewardProgram(cfg, () => `R${++id}`);
    const t0 = Date.parse('2026-09-24T10:00:00Z');
    for (let m = 0; m < 10; m++) {
      prog.sampleMinute(t0 + m * 60_000, [
        {
          symbol: 'EURUSD-PERP',
          mid: 1.14,
          open: true,
          orders: [o('big', 'buy', 1.1399, 100_000), o('big', 'sell', 1.1401, 100_000), o('mid', 'buy', 1.1399, 30_000), o('mid', 'sell', 1.1401, 30_000), o('tiny', 'buy', 1.1395, 200)],
        },
      ]);
    }
    expect(prog.closeEpochs(t0 + 9 * 60_000)).toEqual([]);
    const rows = prog.closeEpochs(t0 + 10 * 60_000);
    const by = new Map(rows.map((r) => [r.accountId, r]));
    expect(by.get('big')!.final.toNumber()).toBeCloseTo(60);
    expect(by.get('big')!.capAdjustment.toNumber()).toBeLessThan(0);
    expect(by.get('mid')!.capAdjustment.toNumber()).toBeGreaterThan(0);
    expect(by.get('tiny')!.status).toBe('retained');
    expect(by.get('big')!.status).toBe('accrued');
    const sum = rows.reduce((s, r) => s + r.final.toNumber(), 0);
    expect(sum).toBeCloseTo(100);
    const end = t0 + 10 * 60_000;
    prog.advance(end + 61_000);
    expect(by.get('big')!.status).toBe('awaiting');
    prog.advance(end + 121_000);
    expect(by.get('big')!.status).toBe('approved');
    const paid = prog.advance(end + 181_000);
    expect(paid.map((r) => r.accountId).sort()).toEqual(['big', 'mid']);
    expect(by.get('tiny')!.status).toBe('retained');
  });

  it('skips minutes without a mid or outside OPEN', () => {
    const prog = new RewardProgram(cfg, () => 'x');
    const t0 = Date.parse('2026-09-24T10:00:00Z');
    prog.sampleMinute(t0, [{ symbol: 'EURUSD-PERP', mid: undefined, open: true, orders: [] }]);
    prog.sampleMinute(t0 + 60_000, [{ symbol: 'EURUSD-PERP', mid: 1.14, open: false, orders: [o('a', 'buy', 1.1399, 1000)] }]);
    expect(prog.closeEpochs(t0 + 3_600_000)).toEqual([]);
  });
});
