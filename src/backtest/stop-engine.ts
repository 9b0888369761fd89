import type { VirtualClock } from '../core/clock.ts';
import type { Engine } from '../engine/index.ts';
import type { ActionQueue } from './action-queue.ts';
import { settle } from './settle.ts';

/**
 * The replay's last stage: stops the engine like the daemon does (cancel everything, bounded wait)
 * on the virtual clock, running exchange actions (`step`: cancels arriving, their answers) and
 * engine timers until it has stopped or `timeoutMs` (+ 1 s) of virtual time passed. Bounded even if
 * the engine keeps re-arming zero-delay timers. Resolves with whether the stop was confirmed.
 */
export async function stopEngine(engine: Engine, clock: VirtualClock, actions: ActionQueue, step: (t: number) => void, timeoutMs: number): Promise<boolean> {
  const endMs = clock.nowMs();
  let stopConfirmed = false;
  let stopped = false;
  const stopping = engine.stop({ timeoutMs, reason: 'backtest finished' }).then(
    (r) => {
      stopConfirmed = r.confirmed;
      stopped = true;
    },
    () => {
      stopped = true;
    },
  );
  await settle();
  const hardEnd = endMs + timeoutMs + 1_000;
  for (let guard = 0; !stopped && guard < 1_000_000; guard++) {
    const tA = actions.peekTime();
    const tC = clock.nextTimerMs() ?? Infinity;
    const t = Math.max(clock.nowMs(), Math.min(tA, tC, hardEnd));
    clock.advanceTo(t);
    if (tA === t) step(t);
    await settle();
    if (t >= hardEnd) break;
  }
  await Promise.race([stopping, settle()]);
  return stopConfirmed;
}
