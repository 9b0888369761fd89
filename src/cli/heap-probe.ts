import { writeSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics, type HeapSpaceInfo } from 'node:v8';

/** The line prefix of a heap-probe report on stderr (followed by JSON). */
export const HEAP_PROBE_MARK = '@@heap-probe ';

/** One heap-probe report, all in MB (taken right after a full GC). */
export interface HeapProbeReport {
  /** Live JS objects. */
  readonly heap_used_mb: number;
  /** Memory V8 holds for the JS heap (live objects + free space in its pages). */
  readonly heap_total_mb: number;
  /** Memory V8 itself allocated with malloc (outside the JS heap pages: zones, compiler...). */
  readonly v8_malloced_mb: number;
  /** C++ objects bound to JS objects (Buffers, ArrayBuffers, sockets' native state...). */
  readonly external_mb: number;
  /** ArrayBuffers and Buffers (part of external). */
  readonly array_buffers_mb: number;
  /** Resident set size. */
  readonly rss_mb: number;
  /** Of heap_total: V8's old space (long-lived objects), new space (young objects) and the rest (code, large objects...). */
  readonly old_space_mb: number;
  readonly new_space_mb: number;
  readonly other_spaces_mb: number;
  /**
   * Of the heap, the pages actually resident (V8's physical sizes). heap_total counts the new
   * space at its reserved size while only part of it may be resident (V8 grows and shrinks the
   * young generation), so RSS minus heap_total charged up to ~16 MB of young-generation pages
   * coming and going to "outside the heap".
   */
  readonly heap_resident_mb: number;
  readonly new_space_resident_mb: number;
}

/**
 * Builds a report from `process.memoryUsage()`, V8's malloced memory and its heap spaces (bytes in,
 * MB out, 3 decimals).
 */
export function heapProbeReport(
  m: NodeJS.MemoryUsage,
  v8MallocedBytes: number,
  spaces: readonly Pick<HeapSpaceInfo, 'space_name' | 'space_size' | 'physical_space_size'>[],
): HeapProbeReport {
  const mb = (b: number): number => Math.round((b / 1048576) * 1000) / 1000;
  const size = (name: string): number => spaces.find((s) => s.space_name === name)?.space_size ?? 0;
  const spacesTotal = spaces.reduce((a, s) => a + s.space_size, 0);
  const resident = spaces.reduce((a, s) => a + s.physical_space_size, 0);
  return {
    heap_used_mb: mb(m.heapUsed),
    heap_total_mb: mb(m.heapTotal),
    v8_malloced_mb: mb(v8MallocedBytes),
    external_mb: mb(m.external),
    array_buffers_mb: mb(m.arrayBuffers),
    rss_mb: mb(m.rss),
    old_space_mb: mb(size('old_space')),
    new_space_mb: mb(size('new_space')),
    other_spaces_mb: mb(spacesTotal - size('old_space') - size('new_space')),
    heap_resident_mb: mb(resident),
    new_space_resident_mb: mb(spaces.find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0),
  };
}

/**
 * Soak instrumentation: when `MMBOT_HEAP_PROBE=1` and node runs with `--expose-gc`, SIGUSR2 runs a
 * full GC and writes one `@@heap-probe {"heap_used_mb":..,"external_mb":..,...}` line (a
 * `HeapProbeReport`) to stderr, so a supervisor (test/bench/soak.ts) can read heap-after-GC and
 * the memory outside the JS heap of a separate process. Off otherwise: a production daemon never
 * forces a GC on a signal. Returns true when installed.
 */
export function installHeapProbe(env: NodeJS.ProcessEnv = process.env): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (env['MMBOT_HEAP_PROBE'] !== '1' || typeof gc !== 'function') return false;
  process.on('SIGUSR2', () => {
    gc();
    const report = heapProbeReport(process.memoryUsage(), getHeapStatistics().malloced_memory, getHeapSpaceStatistics());
    // writeSync: the report must not sit in a stream buffer behind a busy event loop.
    writeSync(2, `${HEAP_PROBE_MARK}${JSON.stringify(report)}\n`);
  });
  return true;
}
