/** Test helper: runs a promise to completion on a VirtualClock by firing timers as it waits. */
import type { VirtualClock } from '../../src/core/clock.ts';

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Settles `p`, advancing `clock` to each next timer whenever the microtask/IO queue is idle.
 * Returns the result and the virtual time it took.
 */
export async function driveClock<T>(clock: VirtualClock, p: Promise<T>, maxSteps = 1_000): Promise<{ value: T; elapsedMs: number }> {
  const start = clock.nowMs();
  let done = false;
  let value: T | undefined;
  let error: unknown;
  let failed = false;
  p.then(
    (v) => {
      done = true;
      value = v;
    },
    (e: unknown) => {
      done = true;
      failed = true;
      error = e;
    },
  );
  for (let i = 0; i < maxSteps && !done; i++) {
    await flush();
    if (done) break;
    const next = clock.nextTimerMs();
    if (next !== undefined) clock.advanceTo(Math.max(next, clock.nowMs()));
  }
  if (!done) throw new Error(`promise did not settle within ${maxSteps} steps`);
  if (failed) throw error;
  return { value: value as T, elapsedMs: clock.nowMs() - start };
}

export { flush };
