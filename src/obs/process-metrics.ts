import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from './metrics.ts';

/** A handle on the process metrics; `stop()` disables the event-loop sampler. */
export interface ProcessMetrics {
  stop(): void;
}

/**
 * Registers event-loop lag and process memory gauges on `registry`. Values are read at scrape time
 * (prom-client `collect`), so no timer is needed; the lag comes from Node's built-in event-loop
 * delay histogram (`perf_hooks.monitorEventLoopDelay`), reset on every scrape so each scrape shows
 * the lag since the previous one.
 */
export function registerProcessMetrics(registry: Registry, options: { resolutionMs?: number } = {}): ProcessMetrics {
  const resolutionMs = options.resolutionMs ?? 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const registers = [registry];
  const p = METRIC_PREFIX;
  // The histogram records the time between sampler wake-ups, which includes the sampling
  // interval itself: subtract it so an idle loop reads ~0 lag.
  const nsToS = (ns: number): number => (Number.isFinite(ns) ? Math.max(0, ns / 1e9 - resolutionMs / 1000) : 0);
  // The first lag gauge (collected first: prom-client collects in registration order) takes a
  // snapshot and resets the histogram; the other two read the same snapshot.
  let snap = { mean: 0, p99: 0, max: 0 };
  new Gauge({
    name: `${p}event_loop_lag_seconds`,
    help: 'Mean event-loop delay since the previous scrape',
    registers,
    collect() {
      snap = histogram.count > 0 ? { mean: nsToS(histogram.mean), p99: nsToS(histogram.percentile(99)), max: nsToS(histogram.max) } : { mean: 0, p99: 0, max: 0 };
      histogram.reset();
      this.set(snap.mean);
    },
  });
  new Gauge({
    name: `${p}event_loop_lag_p99_seconds`,
    help: '99th percentile event-loop delay since the previous scrape',
    registers,
    collect() {
      this.set(snap.p99);
    },
  });
  new Gauge({
    name: `${p}event_loop_lag_max_seconds`,
    help: 'Maximum event-loop delay since the previous scrape',
    registers,
    collect() {
      this.set(snap.max);
    },
  });
  new Gauge({
    name: `${p}process_memory_bytes`,
    help: 'Process memory by kind (rss, heap_total, heap_used, external, array_buffers)',
    labelNames: ['kind'],
    registers,
    collect() {
      const m = process.memoryUsage();
      this.set({ kind: 'rss' }, m.rss);
      this.set({ kind: 'heap_total' }, m.heapTotal);
      this.set({ kind: 'heap_used' }, m.heapUsed);
      this.set({ kind: 'external' }, m.external);
      this.set({ kind: 'array_buffers' }, m.arrayBuffers);
    },
  });
  new Gauge({
    name: `${p}process_uptime_seconds`,
    help: 'Seconds since the process started',
    registers,
    collect() {
      this.set(process.uptime());
    },
  });
  return { stop: () => histogram.disable() };
}
