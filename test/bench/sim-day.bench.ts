/**
 * A venue day of `mmbot sim` defaults: all 29 instruments with synthetic makers and takers, funding,
 * rewards and market data, at clock_speed 60 on a virtual base clock driven as fast as the CPU
 * allows. Reports the heap the running venue holds after the day (after GC, minus the heap before
 * it started) and how long the day took to simulate. Before the funding series were bounded this
 * was ~660 MB.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { VirtualClock } from '../../src/core/clock.ts';
import { startVenue } from '../../src/sim/index.ts';
import type { Bench } from './bench-kit.ts';

const SPEED = 60;
const VENUE_HOURS = 24;

function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

export const benches: Bench[] = [
  {
    name: 'sim venue day (29 instruments, synthetic market, 60x, virtual time)',
    async run() {
      const gc = collector();
      gc();
      const heap0 = process.memoryUsage().heapUsed;
      const clock = new VirtualClock(Date.parse('2026-09-21T00:00:00Z'));
      const v = await startVenue({ clock, config: { clock_speed: SPEED } });
      try {
        const t0 = performance.now();
        const baseMs = (VENUE_HOURS * 3_600_000) / SPEED;
        for (let done = 0; done < baseMs; done += 50) {
          clock.advanceBy(50);
          // Let sockets and the md hub's coalescing turns run now and then.
          if (done % 10_000 === 0) await new Promise((r) => setImmediate(r));
        }
        const secs = (performance.now() - t0) / 1000;
        gc();
        const heapMb = (process.memoryUsage().heapUsed - heap0) / 1048576;
        return {
          'sim.venue_day_heap_mb': { value: Math.round(heapMb), unit: 'MB held after a venue day', target: '< 200' },
          'sim.venue_day_sim_s': { value: Math.round(secs * 10) / 10, unit: 's to simulate the day' },
        };
      } finally {
        await v.stop();
      }
    },
  },
];
