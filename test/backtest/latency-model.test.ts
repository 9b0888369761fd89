import { describe, expect, it } from 'vitest';
import { LatencyModel, recordedLatency } from '../../src/backtest/latency-model.ts';
import { backtestSectionSchema, toSettings } from '../../src/backtest/settings.ts';

describe('order latency models', () => {
  it('are reproducible for a seed and differ across seeds', () => {
    const cfg = { entry: { lognormal: { median_ms: 5, sigma: 0.5 } }, response: { uniform: [1, 3] as const } };
    const draw = (seed: number) => {
      const m = new LatencyModel(cfg, seed);
      return Array.from({ length: 20 }, () => [m.entryMs(), m.responseMs()]);
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  it('uniform stays in range; log-normal has the configured median; constant is constant', () => {
    const m = new LatencyModel({ entry: { uniform: [2, 4] }, response: { lognormal: { median_ms: 10, sigma: 0.7 } } }, 7);
    const u = Array.from({ length: 2000 }, () => m.entryMs());
    expect(Math.min(...u)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...u)).toBeLessThanOrEqual(4);
    const l = Array.from({ length: 4001 }, () => m.responseMs()).sort((a, b) => a - b);
    expect(l[2000]!).toBeGreaterThan(9);
    expect(l[2000]!).toBeLessThan(11);
    const c = new LatencyModel({ entry: 3, response: 0 }, 1);
    expect([c.entryMs(), c.entryMs(), c.responseMs()]).toEqual([3, 3, 0]);
  });

  it('feed_multiple follows the current feed latency', () => {
    const m = new LatencyModel({ entry: { feed_multiple: { multiplier: 2, offset_ms: 1 } }, response: 0 }, 1);
    m.feedLatencyMs = 4;
    expect(m.entryMs()).toBe(9);
    m.feedLatencyMs = 0.5;
    expect(m.entryMs()).toBe(2);
  });

  it('says whether it reads the feed latency (the runner tracks it per delivered row only then)', () => {
    const fm = { feed_multiple: { multiplier: 2, offset_ms: 1 } };
    expect(new LatencyModel({ entry: fm, response: 0 }, 1).readsFeedLatency).toBe(true);
    expect(new LatencyModel({ entry: 3, response: fm }, 1).readsFeedLatency).toBe(true);
    expect(new LatencyModel({ entry: { uniform: [1, 4] }, response: { lognormal: { median_ms: 10, sigma: 0.1 } } }, 1).readsFeedLatency).toBe(false);
  });

  it('the config schema rejects malformed distributions with their path', () => {
    const bad = backtestSectionSchema.safeParse({ order_latency: { entry: { uniform: [5, 1] } } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path.join('.')).toContain('order_latency.entry');
    expect(backtestSectionSchema.safeParse({ order_latency: { response: { gaussian: 3 } } }).success).toBe(false);
    expect(backtestSectionSchema.parse({ order_latency: { entry: { feed_multiple: { multiplier: 1.5 } } } }).order_latency.entry).toEqual({ feed_multiple: { multiplier: 1.5, offset_ms: 0 } });
  });
});

describe('recorded order latency', () => {
  const rt = (op: 'place' | 'cancel' | 'status', ms: number) => ({ type: 'round-trip' as const, symbol: null, op, ms, ok: true, tsEvent: 0, tsRecv: ms });

  it('samples each request kind from its own recorded round trips and splits them entry_share / rest', () => {
    const rec = recordedLatency([rt('place', 4), rt('place', 8), rt('cancel', 20)], 0.25)!;
    const m = new LatencyModel({ entry: 99, response: 99 }, 3, rec);
    expect(m.isRecorded).toBe(true);
    const places = Array.from({ length: 200 }, () => m.request('place'));
    for (const l of places) {
      expect([4, 8]).toContain(l.entryMs + l.responseMs!);
      expect(l.entryMs).toBeCloseTo(0.25 * (l.entryMs + l.responseMs!));
    }
    expect(new Set(places.map((l) => l.entryMs)).size).toBe(2); // both recorded values are drawn
    expect(m.request('cancel')).toEqual({ entryMs: 5, responseMs: 15 });
    // A kind with no samples of its own draws from every recorded round trip.
    const pooled = new Set(Array.from({ length: 300 }, () => m.request('status').entryMs * 4));
    expect([...pooled].sort((a, b) => a - b)).toEqual([4, 8, 20]);
    // Events the market causes (resting fills) travel a pooled round trip's response leg.
    for (let k = 0; k < 50; k++) expect([3, 6, 15]).toContain(m.responseMs());
  });

  it('is seeded (same seed, same draws) and absent without round trips', () => {
    const rec = recordedLatency([rt('place', 1), rt('place', 2), rt('place', 3), rt('place', 5)], 0.5)!;
    const draw = (seed: number) => { const m = new LatencyModel({ entry: 0, response: 0 }, seed, rec); return Array.from({ length: 30 }, () => m.request('place').entryMs); };
    expect(draw(4)).toEqual(draw(4));
    expect(draw(4)).not.toEqual(draw(5));
    expect(recordedLatency([], 0.5)).toBeNull();
    const model = new LatencyModel({ entry: 3, response: 1 }, 1);
    expect(model.request('place')).toEqual({ entryMs: 3, responseMs: null });
  });

  it('order_latency: auto unless a distribution is given; entry_share bounded', () => {
    expect(toSettings(backtestSectionSchema.parse({})).orderLatency).toMatchObject({ source: 'auto', entry: 5, response: 5, entryShare: 0.5 });
    expect(toSettings(backtestSectionSchema.parse({ order_latency: { entry: 1 } })).orderLatency).toMatchObject({ source: 'model', entry: 1, response: 5 });
    expect(toSettings(backtestSectionSchema.parse({ order_latency: { source: 'recorded', entry_share: 0.3 } })).orderLatency).toMatchObject({ source: 'recorded', entryShare: 0.3 });
    expect(backtestSectionSchema.safeParse({ order_latency: { entry_share: 1.5 } }).success).toBe(false);
  });
});
