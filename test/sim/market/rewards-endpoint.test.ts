import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Decimal } from '../../../src/core/decimal.ts';
import type { PayoutStatus, RewardAccrual } from '../../../src/sim/rewards/ledger.ts';
import { marketVenue, type MarketHarness } from './harness.ts';

const DAY = 86_400_000;
const D0 = Date.parse('2026-09-01T00:00:00Z');

describe('GET /api/mmlp/v2/reward-accruals on a hand-built ledger', () => {
  let h: MarketHarness;
  let n = 0;
  const row = (accountId: string, symbol: string, day: number, final: string, status: PayoutStatus): RewardAccrual => ({
    id: `R-${++n}`,
    accountId,
    symbol,
    epochStartMs: D0 + day * DAY,
    epochEndMs: D0 + (day + 1) * DAY,
    raw: new Decimal(final).plus(1),
    capAdjustment: new Decimal(-1),
    final: new Decimal(final),
    accountShare: 0.125,
    status,
    paidAtMs: status === 'paid' ? Date.parse('2026-09-20T00:00:00Z') : null,
    scoresRetained: true,
  });
  const Q = '/api/mmlp/v2/reward-accruals';

  beforeAll(async () => {
    h = await marketVenue({ market: { enabled: false }, rewards: { enabled: false }, instruments: { only: ['EURUSD-PERP', 'XAU-PERP'] } }, { clock: new VirtualClock(Date.parse('2026-09-25T12:00:00Z')) });
    const [a, b] = h.venue.defaultUser.accountIds as [string, string];
    h.services.rewards.program.ledger.add([
      row(a, 'EURUSD-PERP', 0, '10', 'paid'),
      row(a, 'XAU-PERP', 0, '5', 'paid'),
      row(a, 'EURUSD-PERP', 1, '12', 'approved'),
      row(a, 'EURUSD-PERP', 2, '0.5', 'retained'),
      row(a, 'XAU-PERP', 2, '7', 'awaiting'),
      row(a, 'EURUSD-PERP', 3, '9', 'accrued'),
      row(b, 'XAU-PERP', 5, '100', 'accrued'),
    ]);
  });
  afterAll(async () => h.close());

  it('whole set: newest epoch first, nine fields per accrual, totals, symbols and window', async () => {
    const r = (await h.get(Q, 'reward-accruals')).body;
    expect(r.total_count).toBe(6);
    expect(r.accruals[0]).toEqual({
      id: r.accruals[0].id,
      epoch_start_ts: '2026-09-04T00:00:00.000Z',
      epoch_end_ts: '2026-09-05T00:00:00.000Z',
      symbol: 'EURUSD-PERP',
      raw_reward_usd: '10.000000',
      cap_adjustment_usd: '-1.000000',
      final_accrued_usd: '9.000000',
      account_share: '0.125000000000',
      payout_status: 'accrued',
    });
    const starts = r.accruals.map((x: { epoch_start_ts: string }) => x.epoch_start_ts);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(r.summary).toEqual({ accrued_today_usd: '9.000000', awaiting_approval_usd: '7.000000', paid_this_month_usd: '15.000000', retained_usd: '0.500000' });
    expect(r.symbols).toEqual(['EURUSD-PERP', 'XAU-PERP']);
    expect(r.window).toEqual({ min_day: '2026-09-01', max_day: '2026-09-04' });
  });

  it('filters by symbol, status and date; symbols/window stay whole-ledger', async () => {
    const bySym = (await h.get(`${Q}?symbol=XAU-PERP`, 'reward-accruals')).body;
    expect(bySym.total_count).toBe(2);
    expect(bySym.summary.paid_this_month_usd).toBe('5.000000');
    expect(bySym.trend).toEqual([
      { epoch_day: '2026-09-01', symbol: 'XAU-PERP', accrued_usd: '5.000000', paid_usd: '5.000000' },
      { epoch_day: '2026-09-03', symbol: 'XAU-PERP', accrued_usd: '7.000000', paid_usd: '0.000000' },
    ]);
    expect(bySym.symbols).toEqual(['EURUSD-PERP', 'XAU-PERP']);
    expect(bySym.window).toEqual({ min_day: '2026-09-01', max_day: '2026-09-04' });
    const byStatus = (await h.get(`${Q}?payout_status=retained`, 'reward-accruals')).body;
    expect(byStatus.total_count).toBe(1);
    expect(byStatus.summary).toEqual({ accrued_today_usd: '0.000000', awaiting_approval_usd: '0.000000', paid_this_month_usd: '0.000000', retained_usd: '0.500000' });
    const byDate = (await h.get(`${Q}?start_date=2026-09-02&end_date=2026-09-03`, 'reward-accruals')).body;
    expect(byDate.total_count).toBe(3);
    expect(byDate.accruals.every((x: { epoch_start_ts: string }) => x.epoch_start_ts >= '2026-09-02' && x.epoch_start_ts < '2026-09-04')).toBe(true);
  });

  it('paging does not change summary or trend', async () => {
    const all = (await h.get(Q, 'reward-accruals')).body;
    const pages = await Promise.all([0, 2, 4, 6].map(async (o) => (await h.get(`${Q}?limit=2&offset=${o}`, 'reward-accruals')).body));
    for (const p of pages) {
      expect(p.summary).toEqual(all.summary);
      expect(p.trend).toEqual(all.trend);
      expect(p.total_count).toBe(6);
    }
    expect(pages.flatMap((p) => p.accruals.map((a: { id: string }) => a.id))).toEqual(all.accruals.map((a: { id: string }) => a.id));
    expect(pages[3]!.accruals).toEqual([]);
  });

  it('reads another own account by account_id; empty ledger gives an empty window; bad params 400', async () => {
    const b = h.venue.defaultUser.accountIds[1]!;
    const other = (await h.get(`${Q}?account_id=${b}`, 'reward-accruals')).body;
    expect(other.total_count).toBe(1);
    expect(other.symbols).toEqual(['XAU-PERP']);
    const c = h.venue.accounts.addAccount(h.venue.defaultUser.id, { name: 'empty' }).id;
    const empty = (await h.get(`${Q}?account_id=${c}`, 'reward-accruals')).body;
    expect(empty).toMatchObject({ total_count: 0, accruals: [], trend: [], symbols: [], window: { min_day: '', max_day: '' } });
    expect((await h.get(`${Q}?payout_status=lost`)).status).toBe(400);
    expect((await h.get(`${Q}?start_date=2026-9-1`)).status).toBe(400);
    expect((await h.get(`${Q}?limit=x`)).status).toBe(400);
    const stranger = h.venue.createUser('x', [{ name: 'x' }]).user.accountIds[0]!;
    expect((await h.get(`${Q}?account_id=${stranger}`)).status).toBe(403);
  });
});

describe('reward program on the live venue', () => {
  it('scores every account each minute (synthetic makers included), closes short epochs and pays over time', async () => {
    const clock = new VirtualClock(Date.parse('2026-09-24T10:00:00Z'));
    const h = await marketVenue(
      {
        instruments: { only: ['EURUSD-PERP'] },
        rewards: { epoch_ms: 120_000, min_rest_ms: 0, default_pool_usd: 100, cap_pct: 50, min_payout_usd: 0.01, awaiting_after_ms: 60_000, approved_after_ms: 120_000, paid_after_ms: 180_000 },
      },
      { clock },
    );
    try {
      const me = h.account;
      const act = { userId: h.venue.defaultUser.id, accountId: me };
      clock.advanceBy(1_000);
      const book = h.venue.books.get('EURUSD-PERP')!;
      const grid = h.venue.catalog.get('EURUSD-PERP')!.grid;
      h.venue.placeNow(act, { symbol: 'EURUSD-PERP', side: 'buy', qty: 5_000, price: grid.toPrice(book.bestBid()!), tif: 'GTC', postOnly: false });
      h.venue.placeNow(act, { symbol: 'EURUSD-PERP', side: 'sell', qty: 5_000, price: grid.toPrice(book.bestAsk()!), tif: 'GTC', postOnly: false });
      clock.advanceBy(125_000);
      const r = (await h.get('/api/mmlp/v2/reward-accruals', 'reward-accruals')).body;
      expect(r.total_count).toBe(1);
      expect(r.accruals[0]).toMatchObject({ symbol: 'EURUSD-PERP', payout_status: 'accrued', epoch_start_ts: '2026-09-24T10:00:00.000Z', epoch_end_ts: '2026-09-24T10:02:00.000Z' });
      expect(Number(r.accruals[0].account_share)).toBeGreaterThan(0);
      const makerRows = h.services.rewards.program.ledger.all().filter((x) => x.accountId !== me);
      expect(makerRows.length).toBeGreaterThanOrEqual(1);
      const total = h.services.rewards.program.ledger.all().reduce((s, x) => s + x.final.toNumber(), 0);
      expect(total).toBeLessThanOrEqual(100.000001);
      clock.advanceBy(60_000);
      expect((await h.get('/api/mmlp/v2/reward-accruals?symbol=EURUSD-PERP&start_date=2026-09-24&end_date=2026-09-24', 'reward-accruals')).body.accruals.at(-1).payout_status).toBe('awaiting');
      clock.advanceBy(120_000);
      const paid = (await h.get('/api/mmlp/v2/reward-accruals?payout_status=paid', 'reward-accruals')).body;
      expect(paid.total_count).toBeGreaterThanOrEqual(1);
      const credited = paid.accruals.reduce((s: number, a: { final_accrued_usd: string }) => s + Number(a.final_accrued_usd), 0);
      expect(Number(paid.summary.paid_this_month_usd)).toBeCloseTo(credited, 6);
      const postings = h.venue.accounts.account(me)!.ledger.filter((e) => e.referenceId.startsWith('mmlp://'));
      expect(postings.reduce((s, e) => s + e.amount.toNumber(), 0)).toBeCloseTo(credited, 6);
    } finally {
      await h.close();
    }
  });
});
