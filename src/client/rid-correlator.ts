import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';

interface Pending<R> {
  readonly resolve: (reply: R) => void;
  readonly reject: (err: MmError) => void;
  readonly cancelTimer: () => void;
  readonly what: string;
}

/**
 * Matches WS replies to requests by `rid`. Each request gets a deadline on the injected clock; on
 * expiry it fails with TIMEOUT (the outcome is unknown: the request may have been acted on).
 * rids start at 1: the venue's login reply uses 0.
 */
export class RidCorrelator<R> {
  readonly #clock: Clock;
  readonly #pending = new Map<number, Pending<R>>();
  #nextRid = 1;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Allocates the next rid. */
  nextRid(): number {
    const rid = this.#nextRid;
    // rids are i32 in the venue SDK: wrap well before overflow, skipping 0 (the login reply).
    this.#nextRid = rid >= 2_000_000_000 ? 1 : rid + 1;
    return rid;
  }

  /** The rids awaiting a reply now. */
  pendingRids(): number[] {
    return [...this.#pending.keys()];
  }

  /** True while `rid` awaits its reply. */
  isPending(rid: number): boolean {
    return this.#pending.has(rid);
  }

  /** Number of requests awaiting a reply. */
  get size(): number {
    return this.#pending.size;
  }

  /** Registers `rid` and returns the promise its reply settles. */
  expect(rid: number, timeoutMs: number, what: string): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const cancelTimer = this.#clock.setTimer(timeoutMs, () => {
        if (this.#pending.delete(rid)) {
          reject(new MmError('TIMEOUT', `${what}: no reply within ${timeoutMs} ms (rid ${rid}); the outcome is unknown`, { rid, what }));
        }
      });
      this.#pending.set(rid, { resolve, reject, cancelTimer, what });
    });
  }

  /** Settles the request `rid` with its reply; false when nothing waits for it (late or unknown). */
  resolve(rid: number, reply: R): boolean {
    const p = this.#take(rid);
    p?.resolve(reply);
    return p !== undefined;
  }

  /** Fails the request `rid` (e.g. the send itself failed). */
  reject(rid: number, err: MmError): boolean {
    const p = this.#take(rid);
    p?.reject(err);
    return p !== undefined;
  }

  /** Fails every pending request, e.g. when the socket dropped (their outcome is unknown). */
  rejectAll(make: (rid: number, what: string) => MmError): void {
    const all = [...this.#pending.entries()];
    this.#pending.clear();
    for (const [rid, p] of all) {
      p.cancelTimer();
      p.reject(make(rid, p.what));
    }
  }

  /** Removes `rid` from the pending set with its deadline cancelled; undefined when nothing waits. */
  #take(rid: number): Pending<R> | undefined {
    const p = this.#pending.get(rid);
    if (p) {
      this.#pending.delete(rid);
      p.cancelTimer();
    }
    return p;
  }
}
