/**
 * Lets promise continuations (engine code after `await gateway.place(...)`) run before virtual time
 * moves on. Neither way reads a clock, so replays stay deterministic:
 * - usually a tick queued from inside a microtask (after `await null`): Node runs the tick queue only
 *   once the microtask queue is empty, chained continuations included (0.4 µs);
 * - every `YIELD_EVERY`th time a real yield to the event loop (setImmediate, 3.3 µs), so signals,
 *   worker messages and a sweep's lock renewals are not starved by a long replay.
 * Nothing the engine runs in a replay uses ticks, immediates or real timers (its clock is virtual).
 */
const YIELD_EVERY = 256;
let settles = 0;
const drainTick = (r: () => void): void => void process.nextTick(r);
export async function settle(): Promise<void> {
  if (++settles % YIELD_EVERY === 0) return new Promise((r) => setImmediate(r));
  await null;
  return new Promise(drainTick);
}
