import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { JitterClock, marketVenue } from './harness.ts';

/**
 * Settlement timers on a scaled venue clock whose base timers fire 1 ms early (60 venue ms at 60×):
 * each settlement still runs at or after its instant, once, so it sees the positions open then.
 */
describe('funding timers on a scaled clock', () => {
  it('an early timer waits out the rest: every settlement runs at or after its instant, once', async () => {
    const base = new JitterClock(new VirtualClock(Date.parse('2026-09-24T13:50:00Z')), (d) => (d > 1 ? -1 : 0));
    const h = await marketVenue(
      { clock_speed: 60, rewards: { enabled: false }, market: { enabled: false }, liquidation: { enabled: false }, instruments: { only: ['NVDA-PERP', 'EURUSD-PERP'] } },
      { clock: base },
    );
    try {
      const f = h.services.funding;
      const calls: { symbol: string; atMs: number; nowMs: number }[] = [];
      const settle = f.settle.bind(f);
      vi.spyOn(f, 'settle').mockImplementation((ins, inst) => {
        calls.push({ symbol: ins.symbol, atMs: inst.atMs, nowMs: h.venue.clock.nowMs() });
        settle(ins, inst);
      });
      // 13:50Z → 15:10Z of venue time (80 min at 60× = 80 s of base time), in 100 ms base steps.
      for (let i = 0; i < 800; i++) base.inner.advanceBy(100);
      const nvda = calls.filter((c) => c.symbol === 'NVDA-PERP');
      expect(nvda.map((c) => new Date(c.atMs).toISOString().slice(11, 16))).toEqual(['14:00', '14:30', '15:00']);
      expect(calls.filter((c) => c.symbol === 'EURUSD-PERP')).toHaveLength(1);
      for (const c of calls) expect(c.nowMs).toBeGreaterThanOrEqual(c.atMs);
    } finally {
      await h.close();
    }
  });
});
