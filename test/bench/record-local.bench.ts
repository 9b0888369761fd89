/**
 * `mmbot record --local` on the virtual clock: how many venue minutes a second it records, on the
 * strategy benchmark's scenario (normal preset, seed 11, 60×, EURUSD-PERP, XAU-PERP and
 * XAU-2026-DEC, the whole 29-instrument venue running). The wall-clock socket path records
 * `clock_speed` venue seconds per wall second by construction (1 venue minute a second at 60×).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { recordVirtual } from '../../src/app/virtual-venue/record-virtual.ts';
import type { Bench } from './bench-kit.ts';

const VENUE_MINUTES = 10;

export const benches: Bench[] = [
  {
    name: `record --local on the virtual clock (${VENUE_MINUTES} venue minutes, normal preset, 60×, 3 symbols)`,
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'mmbot-bench-vrec-'));
      try {
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const r = await recordVirtual({
          config: { clock_speed: 60, seed: 11, market: { preset: 'normal' } },
          seed: 11,
          startMs: Date.UTC(2026, 10, 16, 12),
          durationMs: VENUE_MINUTES * 60_000,
          symbols: ['EURUSD-PERP', 'XAU-PERP', 'XAU-2026-DEC'],
          out: join(dir, 'bench.jsonl.gz'),
        });
        const wallS = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        const cpuS = (cpu.user + cpu.system) / 1e6;
        return {
          'record.local_virtual_venue_min_per_s': { value: Number((VENUE_MINUTES / wallS).toFixed(2)), unit: 'venue minutes per wall second (wall-clock path at 60×: 1)', target: '> 5' },
          'record.local_virtual_venue_min_per_cpu_s': { value: Number((VENUE_MINUTES / cpuS).toFixed(2)), unit: 'venue minutes per CPU second of the process' },
          'record.local_virtual_events': { value: r.stats.events, unit: `events written (${r.timers} clock timers)` },
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
