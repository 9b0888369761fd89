import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';
import { fetchAllAccruals } from '../../src/rewards/fetch-all.ts';
import { RewardTracker } from '../../src/rewards/tracker.ts';
import { accrual, FakeSource } from './fixtures.ts';

const many = (n: number) => Array.from({ length: n }, (_, i) => accrual(`r${i}`, i, i % 2 ? 'A' : 'B', '1.000001', i % 3 ? 'paid' : 'accrued'));
const flush = () => new Promise((r) => setImmediate(r));

describe('fetchAllAccruals', () => {
  it('reads every page and keeps the set-wide figures', async () => {
    const src = new FakeSource(many(23));
    const ledger = await fetchAllAccruals(src, { symbol: 'A' }, { pageSize: 5 });
    expect(ledger.accruals).toHaveLength(11);
    expect(ledger.totalCount).toBe(11);
    expect(src.calls.map((c) => c.offset)).toEqual([0, 5, 10]);
    expect(src.calls.every((c) => c.symbol === 'A' && c.limit === 5)).toBe(true);
    expect(ledger.accruals.map((a) => a.epochStartMs)).toEqual([...ledger.accruals.map((a) => a.epochStartMs)].sort((x, y) => y - x));
  });

  it('restarts when an epoch closes mid-listing, without duplicates', async () => {
    const src = new FakeSource(many(12));
    src.beforePage = (n) => {
      if (n === 2) src.rows.push(accrual('new', 99, 'A', '5', 'accrued'));
    };
    const ledger = await fetchAllAccruals(src, {}, { pageSize: 5 });
    expect(ledger.totalCount).toBe(13);
    expect(new Set(ledger.accruals.map((a) => a.id)).size).toBe(13);
    expect(ledger.accruals[0]!.id).toBe('new');
  });

  it('stops on an empty page even if total_count claims more', async () => {
    const src = new FakeSource(many(3));
    const orig = src.rewardAccruals.bind(src);
    src.rewardAccruals = async (q) => ({ ...(await orig(q)), totalCount: 50 });
    const ledger = await fetchAllAccruals(src, {}, { pageSize: 2 });
    expect(ledger.accruals).toHaveLength(3);
    expect(src.calls).toHaveLength(3);
  });
});

describe('RewardTracker', () => {
  it('polls on the clock, backs off exponentially on errors and resets after a success', async () => {
    const clock = new VirtualClock(0);
    const src = new FakeSource(many(4));
    const errors: number[] = [];
    const tracker = new RewardTracker({
      source: src,
      clock,
      pollIntervalMs: 60_000,
      backoff: { initialMs: 1_000, maxMs: 8_000 },
      random: () => 0.999999, // jitter at its top: delays are the full base
      onError: (_e, next) => errors.push(next),
    });
    src.failNext = 5;
    tracker.start();
    clock.advanceBy(0);
    await flush();
    for (let i = 0; i < 4; i++) {
      clock.advanceBy(errors[errors.length - 1]!);
      await flush();
    }
    expect(errors).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(tracker.state).toBeNull();
    clock.advanceBy(8_000);
    await flush();
    expect(tracker.state).not.toBeNull();
    expect(tracker.failures).toBe(0);
    const calls = src.calls.length;
    clock.advanceBy(59_999);
    await flush();
    expect(src.calls.length).toBe(calls);
    clock.advanceBy(1);
    await flush();
    expect(src.calls.length).toBe(calls + 1);
    tracker.stop();
    clock.advanceBy(600_000);
    await flush();
    expect(src.calls.length).toBe(calls + 1);
  });

  it('publishes totals equal to the summary and the latest share per symbol', async () => {
    const clock = new VirtualClock(0);
    const src = new FakeSource(many(7));
    const tracker = new RewardTracker({ source: src, clock });
    const seen: number[] = [];
    tracker.state$.subscribe((s) => s && seen.push(s.ledger.accruals.length));
    const s = await tracker.pollNow();
    expect(seen).toEqual([7]);
    expect(s.totals.get('accrued')!.eq(s.ledger.summary.accruedTodayUsd)).toBe(true);
    expect(s.totals.get('paid')!.eq(s.ledger.summary.paidThisMonthUsd)).toBe(true);
    expect(s.latestShare.get('B')).toMatchObject({ share: 0.25, epochStartMs: Date.UTC(2026, 0, 7) });
  });

  it('joins a poll already in flight and surfaces a non-retryable error', async () => {
    const clock = new VirtualClock(0);
    const src = new FakeSource(many(2));
    const tracker = new RewardTracker({ source: src, clock });
    const [a, b] = await Promise.all([tracker.pollNow(), tracker.pollNow()]);
    expect(a).toBe(b);
    expect(src.calls).toHaveLength(1);
    src.rewardAccruals = async () => {
      throw new MmError('UNAUTHORIZED', 'bad key');
    };
    await expect(tracker.pollNow()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
