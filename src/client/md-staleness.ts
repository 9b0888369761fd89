import type { Clock } from '../core/clock.ts';
import type { BookSubscription } from './md-subscriptions.ts';

/** What the staleness watch needs from the market-data client. */
export interface StaleWatchDeps {
  readonly clock: Clock;
  /** A subscribed symbol with no frame for this long is stale, ms (0 = off). */
  readonly afterMs: number;
  /** The current book subscriptions (their `lastFrameMs` is kept by the registry). */
  readonly books: () => Iterable<BookSubscription>;
  /** A subscription turned stale or fresh (its `stale` flag is already updated). */
  readonly onChange: (sub: BookSubscription, stale: boolean, nowMs: number) => void;
}

/**
 * Per-symbol staleness of the market-data feed, on the injected clock: while connected, every
 * quarter of `afterMs` each subscription silent for `afterMs` turns stale; its next frame turns it
 * fresh again. The socket-wide idle timeout is separate (it reconnects; this only reports).
 */
export class StaleWatch {
  readonly #d: StaleWatchDeps;
  #cancel: (() => void) | undefined;

  constructor(deps: StaleWatchDeps) {
    this.#d = deps;
  }

  /** Starts checking (on connect). */
  start(): void {
    this.stop();
    const after = this.#d.afterMs;
    if (!(after > 0)) return;
    const every = Math.max(1, after / 4);
    const tick = (): void => {
      const now = this.#d.clock.nowMs();
      for (const sub of this.#d.books()) {
        if (!sub.stale && now - sub.lastFrameMs >= after) this.#set(sub, true, now);
      }
      this.#cancel = this.#d.clock.setTimer(every, tick);
    };
    this.#cancel = this.#d.clock.setTimer(every, tick);
  }

  /** Stops checking (on disconnect and stop). */
  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  /** A frame for `sub` arrived at `nowMs`: a stale subscription is fresh again. */
  frame(sub: BookSubscription, nowMs: number): void {
    if (sub.stale) this.#set(sub, false, nowMs);
  }

  #set(sub: BookSubscription, stale: boolean, now: number): void {
    sub.stale = stale;
    this.#d.onChange(sub, stale, now);
  }
}
