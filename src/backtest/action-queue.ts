/** A scheduled exchange-side action. */
interface Action {
  readonly t: number;
  readonly seq: number;
  readonly fn: () => void;
}

/**
 * The replay exchange's own timeline (order arrivals at the matching engine, replies and events
 * reaching the bot): a binary min-heap on (time, insertion order), so ties resolve in the order the
 * actions were scheduled and a replay is deterministic. Kept apart from the engine's VirtualClock
 * timers so the runner can settle promises between two actions due at the same instant.
 */
export class ActionQueue {
  readonly #heap: Action[] = [];
  #seq = 0;

  /** Number of pending actions. */
  get size(): number {
    return this.#heap.length;
  }

  /** Time of the next action, Infinity when none. */
  peekTime(): number {
    return this.#heap.length > 0 ? this.#heap[0]!.t : Infinity;
  }

  /** Schedules `fn` at time `t` (epoch ms). */
  push(t: number, fn: () => void): void {
    const h = this.#heap;
    const a: Action = { t, seq: this.#seq++, fn };
    h.push(a);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = a;
  }

  /** Removes and runs the next action. */
  runNext(): void {
    const h = this.#heap;
    const top = h[0];
    if (!top) return;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && less(h[r]!, h[l]!) ? r : l;
        if (!less(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    top.fn();
  }
}

function less(a: Action, b: Action): boolean {
  return a.t < b.t || (a.t === b.t && a.seq < b.seq);
}
