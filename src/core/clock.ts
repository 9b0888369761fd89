/**
 * Time and timers, injected everywhere below `cli/` so the same code runs on the wall clock (live,
 * paper) and on a virtual clock (tests, backtests). `nowMs` is epoch milliseconds.
 */
export interface Clock {
  /** Epoch time in milliseconds (may be fractional on a virtual clock). */
  nowMs(): number;
  /** Epoch time in nanoseconds. */
  nowNs(): bigint;
  /** Runs `fn` after `delayMs`; returns a function that cancels it. */
  setTimer(delayMs: number, fn: () => void): () => void;
}

/** The wall clock: `Date.now` plus `process.hrtime` for sub-millisecond resolution. */
export class LiveClock implements Clock {
  readonly #originNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

  nowMs(): number {
    return Date.now();
  }

  nowNs(): bigint {
    return this.#originNs + process.hrtime.bigint();
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    // setTimeout fires at once for delays over 2^31 − 1 ms (~24.8 days), e.g. a dated future's
    // expiry: wait in steps until the due time instead.
    const dueMs = Date.now() + Math.max(0, delayMs);
    let handle: ReturnType<typeof setTimeout>;
    const arm = (): void => {
      const left = dueMs - Date.now();
      handle = setTimeout(left > MAX_TIMEOUT_MS ? arm : fn, Math.min(Math.max(0, left), MAX_TIMEOUT_MS));
      handle.unref?.();
    };
    arm();
    return () => clearTimeout(handle);
  }
}

/** The longest delay setTimeout honours (2^31 − 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

interface PendingTimer {
  readonly atMs: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that only moves when told to. Timers fire in time order (ties in creation order) while
 * `advanceTo`/`advanceBy` moves the clock past them, so tests and replays are deterministic.
 */
export class VirtualClock implements Clock {
  #nowMs: number;
  #seq = 0;
  #timers: PendingTimer[] = [];

  constructor(startMs = 0) {
    this.#nowMs = startMs;
  }

  nowMs(): number {
    return this.#nowMs;
  }

  nowNs(): bigint {
    return BigInt(Math.round(this.#nowMs * 1_000_000));
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    const timer: PendingTimer = { atMs: this.#nowMs + Math.max(0, delayMs), seq: this.#seq++, fn, cancelled: false };
    this.#insert(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Number of timers still waiting to fire. */
  pendingTimers(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }

  /** Time of the next pending timer, or undefined when none. */
  nextTimerMs(): number | undefined {
    // Cancelled timers ahead of the first live one are dropped here (advanceTo would skip them
    // anyway): a replay asks on every step, and request timeouts are cancelled far more often than
    // they fire, so scanning them each time grew with the request rate.
    const timers = this.#timers;
    while (timers.length > 0 && timers[0]!.cancelled) timers.shift();
    return timers.length > 0 ? timers[0]!.atMs : undefined;
  }

  /** Moves the clock forward by `ms`, firing due timers in order. */
  advanceBy(ms: number): void {
    this.advanceTo(this.#nowMs + ms);
  }

  /**
   * Moves the clock to `targetMs`, firing every timer due at or before it (including timers that
   * fired timers schedule). Moving backwards throws: time never goes back.
   * @throws RangeError when `targetMs` is before the current time.
   */
  advanceTo(targetMs: number): void {
    if (targetMs < this.#nowMs) throw new RangeError(`VirtualClock cannot go back from ${this.#nowMs} to ${targetMs}`);
    for (;;) {
      const next = this.#timers[0];
      if (!next || next.atMs > targetMs) break;
      this.#timers.shift();
      if (next.cancelled) continue;
      this.#nowMs = next.atMs;
      next.fn();
    }
    this.#nowMs = targetMs;
  }

  /**
   * Fires the next live timer if it is due at or before `limitMs` (moving the clock to its time)
   * and returns true; returns false, leaving the clock as it is, when none is due. A driver that
   * must let promise jobs run between timers, as the event loop does between two callbacks due at
   * the same instant, steps with this instead of `advanceTo`.
   */
  fireNext(limitMs: number): boolean {
    const at = this.nextTimerMs();
    if (at === undefined || at > limitMs) return false;
    const next = this.#timers.shift()!;
    this.#nowMs = next.atMs;
    next.fn();
    return true;
  }

  #insert(timer: PendingTimer): void {
    // Binary search keeps insertion O(log n) for the search; timers are few in practice.
    let lo = 0;
    let hi = this.#timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.#timers[mid]!;
      if (t.atMs < timer.atMs || (t.atMs === timer.atMs && t.seq < timer.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.#timers.splice(lo, 0, timer);
  }
}
