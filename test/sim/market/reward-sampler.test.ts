import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { parseVenueConfig } from '../../../src/sim/config/venue-config.ts';
import { parseMarketConfig } from '../../../src/sim/market/market-config.ts';
import { RewardService } from '../../../src/sim/rewards/reward-service.ts';
import { Venue } from '../../../src/sim/venue.ts';
import { JitterClock } from './harness.ts';

/**
 * The per-minute reward sampler on a scaled venue clock whose base timers fire early or late (as
 * Node's do by ~1 ms, which `clock_speed` multiplies): every minute boundary is scored exactly
 * once and attributed to its boundary.
 */
const MIN = 60_000;
const T0 = Date.parse('2026-09-24T10:00:20Z');

function sampler(speed: number, jitter: (delayMs: number) => number, rewards: Record<string, unknown> = {}) {
  const base = new JitterClock(new VirtualClock(T0), jitter);
  const config = parseVenueConfig({ clock_speed: speed, instruments: { only: ['EURUSD-PERP'] }, market: { enabled: false } });
  const venue = new Venue({ config, clock: base });
  const cfg = parseMarketConfig({ rewards });
  const svc = new RewardService(venue, cfg.rewards);
  const scored: number[] = [];
  const spy = vi.spyOn(svc.program, 'sampleMinute').mockImplementation((ts) => void scored.push(ts));
  /** Runs `venueMs` of venue time in small base steps. */
  const run = (venueMs: number, stepBaseMs = 1): void => {
    const endBase = base.nowMs() + venueMs / speed;
    while (base.nowMs() < endBase) base.inner.advanceTo(Math.min(endBase, base.nowMs() + stepBaseMs));
  };
  return { svc, venue, base, scored, spy, run };
}

/** Node-like slack: a timer fires 1 ms early (a timer of 1 ms or less cannot fire early). */
const early1ms = (d: number): number => (d > 1 ? -1 : 0);
const boundaries = (first: number, n: number): number[] => Array.from({ length: n }, (_, i) => first + i * MIN);
const firstBoundary = Math.ceil(T0 / MIN) * MIN;

describe('reward sampler on a scaled clock', () => {
  it('timers firing 1 base ms early at 60x score every minute once, at its boundary', () => {
    const s = sampler(60, early1ms);
    s.run(10 * MIN + 30_000);
    expect(s.scored).toEqual(boundaries(firstBoundary, 10));
    expect(s.svc.stats).toEqual({ samples: 10, earlyRearms: 0, lateSamples: 0, skippedMinutes: 0 });
    s.svc.close();
  });

  it('timers firing 1 base ms early at 3600x (3.6 s of venue time) still score each minute once', () => {
    const s = sampler(3600, () => -1);
    s.run(10 * MIN + 30_000, 0.25);
    expect(s.scored).toEqual(boundaries(firstBoundary, 10));
    s.svc.close();
  });

  it('a fire earlier than the tolerance waits out the rest instead of scoring', () => {
    const s = sampler(60, (d) => (d >= 100 ? -20 : 0)); // 1.2 s of venue time early, then on time
    s.run(10 * MIN + 30_000);
    expect(s.scored).toEqual(boundaries(firstBoundary, 10));
    expect(s.svc.stats.earlyRearms).toBeGreaterThan(0);
    s.svc.close();
  });

  it('late fires are attributed to the boundary they were armed for', () => {
    const s = sampler(60, () => 100); // 6 s of venue time late, every time
    s.run(8 * MIN);
    expect(s.scored).toEqual(boundaries(firstBoundary, 8));
    expect(s.svc.stats.lateSamples).toBe(8);
    s.svc.close();
  });

  it('a stall longer than a minute scores the armed boundary once and skips the missed ones', () => {
    const box: { s?: ReturnType<typeof sampler>; stalled?: boolean } = {};
    // The timer armed after the second sample fires 150 s of venue time late.
    const s = (box.s = sampler(60, () => (box.s?.scored.length === 2 && !box.stalled ? ((box.stalled = true), 2_500) : 0)));
    s.run(10 * MIN);
    const third = firstBoundary + 2 * MIN;
    // The late fire (at third + 150 s) scores `third`; third + 1 and + 2 min are gone; then on time.
    expect(s.scored.slice(0, 3)).toEqual(boundaries(firstBoundary, 3));
    expect(s.scored.slice(3)).toEqual(boundaries(third + 3 * MIN, s.scored.length - 3));
    expect(s.svc.stats.skippedMinutes).toBe(2);
    expect(new Set(s.scored).size).toBe(s.scored.length);
    s.svc.close();
  });

  it('random early/late jitter never scores a minute twice nor goes back in time', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const s = sampler(600, () => (rnd() < 0.5 ? -1 : rnd() * 50));
    s.run(60 * MIN, 0.5);
    for (let i = 1; i < s.scored.length; i++) expect(s.scored[i]!).toBeGreaterThan(s.scored[i - 1]!);
    for (const t of s.scored) expect(t % MIN).toBe(0);
    expect(s.scored.length + s.svc.stats.skippedMinutes).toBe(60);
    s.svc.close();
  });

  it('sampleNow and the timer never score the same minute', () => {
    const s = sampler(60, () => 0);
    s.run(90_000); // first boundary scored
    s.svc.sampleNow(); // the same minute: ignored
    s.run(MIN);
    expect(s.scored).toEqual(boundaries(firstBoundary, 2));
    s.svc.close();
  });

  it('an early fire at an epoch boundary scores into the new epoch (real program)', () => {
    const s = sampler(60, early1ms, { epoch_ms: 2 * MIN });
    s.spy.mockRestore();
    const acc = s.venue.createInternalAccount('mm');
    const actor = { userId: acc.userId, accountId: acc.id };
    s.venue.placeNow(actor, { symbol: 'EURUSD-PERP', side: 'buy', qty: 100_000, price: '1.1400', tif: 'GTC', postOnly: false });
    s.venue.placeNow(actor, { symbol: 'EURUSD-PERP', side: 'sell', qty: 100_000, price: '1.1402', tif: 'GTC', postOnly: false });
    s.run(6 * MIN + 30_000);
    const rows = s.svc.program.ledger.all().filter((r) => r.accountId === acc.id);
    // Epochs [10:00,10:02) (partial: 10:01 only), [10:02,10:04), [10:04,10:06): each closed with the maker's whole share.
    expect(rows.map((r) => new Date(r.epochStartMs).toISOString().slice(11, 16))).toEqual(['10:00', '10:02', '10:04']);
    for (const r of rows) expect(r.accountShare).toBeCloseTo(1, 9);
    expect(s.svc.stats.samples).toBe(6);
    s.svc.close();
  });
});
