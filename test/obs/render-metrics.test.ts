import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { renderMetricsYielding } from '../../src/obs/render-metrics.ts';

describe('renderMetricsYielding', () => {
  it('renders exactly what registry.metrics() renders, across several slices, yielding to the event loop', async () => {
    const registry = new Registry();
    for (let i = 0; i < 20; i++) new Counter({ name: `c${i}_total`, help: `counter ${i}`, labelNames: ['s'], registers: [registry] }).inc({ s: 'A' }, i);
    new Gauge({ name: 'g_ratio', help: 'a gauge', registers: [registry] }).set(0.25);
    new Histogram({ name: 'h_seconds', help: 'a histogram', buckets: [0.001, 0.01], registers: [registry] }).observe(0.005);
    // Immediates queued during the render stand for frames waiting on a socket: each yield lets one in.
    let ran = 0;
    const queue = (): void => {
      ran++;
      if (ran < 10) setImmediate(queue);
    };
    setImmediate(queue);
    const text = await renderMetricsYielding(registry);
    const ranDuringRender = ran;
    expect(text).toBe(await registry.metrics());
    expect(text.split('# TYPE ').length - 1).toBe(22);
    // 22 metrics, 8 per slice: 3 yields (registry.metrics() alone gives none: microtasks only).
    expect(ranDuringRender).toBe(3);
  });

  it('leaves an OpenMetrics registry to prom-client', async () => {
    const registry = new Registry();
    registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE as never);
    new Counter({ name: 'x_total', help: 'x', registers: [registry] }).inc(3);
    expect(await renderMetricsYielding(registry)).toBe(await registry.metrics());
  });
});
