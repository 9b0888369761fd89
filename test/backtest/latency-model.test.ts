import { describe, expect, it } from 'vitest';
import { LatencyModel } from '../../src/backtest/latency-model.ts';
import { backtestSectionSchema } from '../../src/backtest/settings.ts';

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

  it('the config schema rejects malformed distributions with their path', () => {
    const bad = backtestSectionSchema.safeParse({ order_latency: { entry: { uniform: [5, 1] } } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path.join('.')).toContain('order_latency.entry');
    expect(backtestSectionSchema.safeParse({ order_latency: { response: { gaussian: 3 } } }).success).toBe(false);
    expect(backtestSectionSchema.parse({ order_latency: { entry: { feed_multiple: { multiplier: 1.5 } } } }).order_latency.entry).toEqual({ feed_multiple: { multiplier: 1.5, offset_ms: 0 } });
  });
});
