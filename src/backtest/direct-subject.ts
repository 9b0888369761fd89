import { Observable, type Observer, type Subscriber } from 'rxjs';

/**
 * A hot multicast source like rxjs's `Subject`, for the replay's per-event inputs (market data and
 * order events): `next` hands the value to each subscriber directly. `Subject.next` (rxjs's ES5
 * build) allocates a closure and an iterator per value, a measurable share of the replay's garbage
 * at a million events per second. Subscribers are the ones rxjs builds for `subscribe`, so a
 * throwing handler is reported exactly as with a Subject.
 */
export class DirectSubject<T> implements Observer<T> {
  /** Replaced, never mutated: a subscriber leaving while `next` runs does not disturb the loop. */
  #subscribers: readonly Subscriber<T>[] = [];
  /** Set by `error`/`complete`; later subscribers get the end at once, later values are dropped. */
  #end: { readonly error: unknown } | 'complete' | null = null;

  /** The stream to subscribe to (the engine's input). */
  readonly observable: Observable<T> = new Observable<T>((s) => {
    if (this.#end !== null) {
      if (this.#end === 'complete') s.complete();
      else s.error(this.#end.error);
      return undefined;
    }
    this.#subscribers = [...this.#subscribers, s];
    return () => {
      this.#subscribers = this.#subscribers.filter((x) => x !== s);
    };
  });

  /** Delivers a value to every current subscriber, in subscription order. */
  next(value: T): void {
    if (this.#end !== null) return;
    const subs = this.#subscribers;
    for (let i = 0; i < subs.length; i++) subs[i]!.next(value);
  }

  /** Ends every subscription with `err`. */
  error(err: unknown): void {
    if (this.#end !== null) return;
    this.#end = { error: err };
    for (const s of this.#take()) s.error(err);
  }

  /** Completes every subscription. */
  complete(): void {
    if (this.#end !== null) return;
    this.#end = 'complete';
    for (const s of this.#take()) s.complete();
  }

  #take(): readonly Subscriber<T>[] {
    const subs = this.#subscribers;
    this.#subscribers = [];
    return subs;
  }
}
