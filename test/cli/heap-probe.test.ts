import { describe, expect, it } from 'vitest';
import { heapProbeReport, installHeapProbe } from '../../src/cli/heap-probe.ts';

const MB = 1048576;

describe('heap probe', () => {
  it('reports every part of the memory in MB, including what lies outside the JS heap', () => {
    const spaces = [
      { space_name: 'read_only_space', space_size: 0, physical_space_size: 0 },
      // The young generation reserved at 32 MB, a quarter of it resident.
      { space_name: 'new_space', space_size: 32 * MB, physical_space_size: 8 * MB },
      { space_name: 'old_space', space_size: 20 * MB, physical_space_size: 19.5 * MB },
      { space_name: 'code_space', space_size: 3 * MB, physical_space_size: 2.5 * MB },
      { space_name: 'large_object_space', space_size: 5 * MB, physical_space_size: 5 * MB },
    ];
    const r = heapProbeReport({ rss: 140 * MB, heapTotal: 60 * MB, heapUsed: 22.5 * MB, external: 3.25 * MB, arrayBuffers: 0.125 * MB }, 1.5 * MB + 100, spaces);
    expect(r).toEqual({
      heap_used_mb: 22.5,
      heap_total_mb: 60,
      v8_malloced_mb: 1.5,
      external_mb: 3.25,
      array_buffers_mb: 0.125,
      rss_mb: 140,
      old_space_mb: 20,
      new_space_mb: 32,
      other_spaces_mb: 8,
      heap_resident_mb: 35,
      new_space_resident_mb: 8,
    });
  });

  it('stays off unless MMBOT_HEAP_PROBE=1 and gc is exposed', () => {
    const before = process.listenerCount('SIGUSR2');
    expect(installHeapProbe({})).toBe(false);
    // vitest's workers run without --expose-gc: even when asked, there is no gc to call.
    if (typeof (globalThis as { gc?: unknown }).gc !== 'function') expect(installHeapProbe({ MMBOT_HEAP_PROBE: '1' })).toBe(false);
    expect(process.listenerCount('SIGUSR2')).toBe(before);
  });
});
