import type { Clock, VirtualClock } from '../../core/clock.ts';

/** What a lock-step driver steps and waits for. */
export interface LockstepParts {
  /** The venue's clock (the client side reads it through `client`). */
  readonly clock: VirtualClock;
  /** The client side's view of the same clock: its timers may start asynchronous work. */
  readonly client: ClientClock;
  /** Delivers queued in-process frames; false when nothing was queued. */
  pump(): boolean;
  /** Requests started so far (an in-process REST transport's counter). */
  started(): number;
  /** Requests not yet answered. */
  inFlight(): number;
}

/** Timers fired and event-loop turns taken by a lock-step run. */
export interface LockstepStats {
  timers: number;
  turns: number;
}

/**
 * The venue clock as the client side (REST client, pollers, market-data client, recorder) sees it:
 * the same time, but a fired timer is noted, because client code is asynchronous (a poll awaits
 * REST answers) while the venue's own timers run to completion synchronously.
 */
export class ClientClock implements Clock {
  /** A timer of this clock fired since the driver last looked. */
  fired = false;

  constructor(private readonly base: Clock) {}

  nowMs(): number {
    return this.base.nowMs();
  }

  nowNs(): bigint {
    return this.base.nowNs();
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    return this.base.setTimer(delayMs, () => {
      this.fired = true;
      fn();
    });
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Let the event loop run (file writes, gzip) every this many timers, so buffers stay small. */
const YIELD_EVERY = 2_000;

/**
 * Runs the venue's clock to `untilMs` one timer at a time, as fast as the CPU allows. After each
 * timer everything it set off completes before the clock moves on, as if CPU and network were
 * infinitely fast: promise jobs run (the market-data hub flushes its coalesced book frames in one),
 * queued in-process frames are delivered both ways until none is left, and what a client timer
 * started (a poll's REST requests, a token refresh) is answered. Waiting for asynchronous client
 * work takes event-loop turns, which cost far more than a venue timer, so they are taken only after
 * a client timer or while a request is pending. Every state change happens in a timer, a promise
 * job or a pumped frame, in an order that depends only on the clock: the same inputs give the same run.
 */
export async function runLockstep(p: LockstepParts, untilMs: number, signal?: AbortSignal, stats: LockstepStats = { timers: 0, turns: 0 }): Promise<LockstepStats> {
  await settle(p, stats);
  while (p.clock.fireNext(untilMs)) {
    stats.timers++;
    await settle(p, stats);
    if (stats.timers % YIELD_EVERY === 0) {
      await turn();
      // Stopped early (Ctrl-C): the recording ends at the current venue time, complete.
      if (signal?.aborted) return stats;
    }
  }
  p.clock.advanceTo(untilMs);
  await settle(p, stats);
  return stats;
}

/** Runs promise jobs and pumps frames until quiet, taking event-loop turns while client work may be pending. */
export async function settle(p: LockstepParts, stats: LockstepStats): Promise<void> {
  let seen = p.started();
  let full = false;
  for (;;) {
    if (full || p.client.fired) {
      p.client.fired = false;
      stats.turns++;
      await turn();
    } else {
      await Promise.resolve();
    }
    const moved = p.pump();
    full = p.started() !== seen || p.inFlight() > 0;
    seen = p.started();
    if (!moved && !full && !p.client.fired) return;
  }
}

/** Waits for `promise` (a client's stop, a file's close) while pumping frames, without moving the clock. */
export async function settleWhile<T>(p: LockstepParts, promise: Promise<T>): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  while (outcome === undefined) {
    p.pump();
    await turn();
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
