import { Observable } from 'rxjs';

/**
 * Watchers off the hot path. A market-data frame must reach the order socket before anything that
 * only watches it (metrics, the reward score estimator, markouts, the console's history) runs: those
 * subscribed first would otherwise run first, inside the frame's callback, before the engine.
 *
 * `defer(source$)` re-emits `source$` from one queue flushed by `setImmediate`: after the I/O
 * callback that produced the values, and any other I/O already due, has returned. Values keep their
 * order across every stream deferred by the same instance (a fill after the book it follows), so a
 * watcher sees exactly the sequence it would have seen synchronously, a few microseconds later.
 * Errors and completion queue behind the values before them.
 */
export class AfterHotPath {
  /** Pairs (deliver, value), flat: no object per queued value. */
  #queue: unknown[] = [];
  #armed = false;
  readonly #flush = (): void => {
    this.#armed = false;
    const q = this.#queue;
    this.#queue = [];
    // An rxjs subscriber reports its own handler's errors (asynchronously): delivering cannot throw.
    for (let i = 0; i < q.length; i += 2) (q[i] as (v: unknown) => void)(q[i + 1]);
  };

  defer<T>(source$: Observable<T>): Observable<T> {
    return new Observable<T>((sub) => {
      const next = (v: unknown): void => sub.next(v as T);
      const error = (e: unknown): void => sub.error(e);
      const complete = (): void => sub.complete();
      return source$.subscribe({
        next: (v) => this.#push(next, v),
        error: (e: unknown) => this.#push(error, e),
        complete: () => this.#push(complete, undefined),
      });
    });
  }

  /** Delivers everything queued now (tests; a scrape that must see the latest values). */
  flushNow(): void {
    if (this.#queue.length > 0) this.#flush();
  }

  #push(deliver: (v: unknown) => void, v: unknown): void {
    this.#queue.push(deliver, v);
    if (!this.#armed) {
      this.#armed = true;
      setImmediate(this.#flush);
    }
  }
}
