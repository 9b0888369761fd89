import { writeSync } from 'node:fs';

/** The line prefix of a heap-probe report on stderr (followed by JSON). */
export const HEAP_PROBE_MARK = '@@heap-probe ';

/**
 * Soak instrumentation: when `MMBOT_HEAP_PROBE=1` and node runs with `--expose-gc`, SIGUSR2 runs a
 * full GC and writes one `@@heap-probe {"heap_used_mb":..,"rss_mb":..}` line to stderr, so a
 * supervisor (test/bench/soak.ts) can read heap-after-GC of a separate process. Off otherwise: a
 * production daemon never forces a GC on a signal. Returns true when installed.
 */
export function installHeapProbe(env: NodeJS.ProcessEnv = process.env): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (env['MMBOT_HEAP_PROBE'] !== '1' || typeof gc !== 'function') return false;
  process.on('SIGUSR2', () => {
    gc();
    const m = process.memoryUsage();
    const mb = (b: number): number => Math.round((b / 1048576) * 1000) / 1000;
    // writeSync: the report must not sit in a stream buffer behind a busy event loop.
    writeSync(2, `${HEAP_PROBE_MARK}${JSON.stringify({ heap_used_mb: mb(m.heapUsed), rss_mb: mb(m.rss), external_mb: mb(m.external), array_buffers_mb: mb(m.arrayBuffers) })}\n`);
  });
  return true;
}
