import type { Side } from '../domain/enums.ts';
import type { OrderEvent } from '../domain/events.ts';
import type { Order } from '../domain/order.ts';

/** One stretch of one of our orders resting unchanged, on the venue's timeline (epoch ms). */
interface Segment {
  readonly id: string;
  readonly symbol: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  /** When the order started resting (venue time of the order): the reward model's rest origin. */
  readonly restingSinceMs: number;
  readonly fromMs: number;
  untilMs: number | null;
}

/**
 * Our resting orders over time, built from the venue's order events alone: which orders rested
 * at a past instant, at what price and size, and since when (the venue's own order timestamp,
 * kept across partial fills, restarted by a replace). Lets a sample taken a moment after the
 * minute see our book as of the minute, including orders cancelled in between.
 */
export class OwnOrderTimeline {
  readonly #open = new Map<string, Segment>();
  #closed: Segment[] = [];
  readonly #keepMs: number;
  readonly #sinceByKey = new Map<string, number>();
  /** Venue order id → venue time of its latest event (pruned with the closed stretches). */
  readonly #seen = new Map<string, number>();
  #newestMs = -Infinity;

  /** `keepMs`: how long closed stretches are kept for as-of lookups (venue ms, default 10 min). */
  constructor(keepMs = 600_000) {
    this.#keepMs = keepMs;
  }

  /** Applies one order event. */
  apply(e: OrderEvent): void {
    switch (e.type) {
      case 'accepted':
        this.#start(e.order, e.tsEvent);
        return;
      case 'filled':
        this.#end(e.order, e.tsEvent);
        if (e.partial) this.#start(e.order, e.tsEvent, this.#sinceOf(e.order));
        return;
      case 'canceled':
      case 'expired':
      case 'done-for-day':
      case 'rejected':
        this.#end(e.order, e.tsEvent);
        return;
      case 'replaced':
        this.#end(e.original, e.tsEvent);
        if (e.replacement) this.#start(e.replacement, e.tsEvent);
        return;
      default:
        return;
    }
  }

  /** Our orders on `symbol` resting at `atMs` (venue time). */
  at(symbol: string, atMs: number): { id: string; side: Side; priceTicks: number; qty: number; restingSinceMs: number }[] {
    const out: { id: string; side: Side; priceTicks: number; qty: number; restingSinceMs: number }[] = [];
    const live = (s: Segment): boolean => s.symbol === symbol && s.fromMs <= atMs && (s.untilMs === null || s.untilMs > atMs) && s.restingSinceMs <= atMs;
    for (const s of this.#closed) if (live(s)) out.push(view(s));
    for (const s of this.#open.values()) if (live(s)) out.push(view(s));
    return out;
  }

  /** True when the timeline has seen events for this venue order id. */
  knows(orderId: string): boolean {
    return this.#seen.has(orderId);
  }

  /** How many order ids the timeline remembers (bounded by `prune`). */
  get knownCount(): number {
    return this.#seen.size;
  }

  /**
   * Drops stretches that ended before `nowMs − keepMs`, and forgets orders no longer resting whose
   * last event is that old (a long run would otherwise remember every order id it ever saw).
   */
  prune(nowMs: number): void {
    // Event times are the venue's: measured from the newest one too, so a caller clock behind the
    // venue's (skew, or a local venue at clock_speed > 1 seen remotely) cannot keep everything.
    const horizon = Math.max(nowMs, this.#newestMs) - this.#keepMs;
    this.#closed = this.#closed.filter((s) => s.untilMs! > horizon);
    for (const [id, lastMs] of this.#seen) {
      if (lastMs <= horizon && !this.#open.has(id)) {
        this.#seen.delete(id);
        this.#sinceByKey.delete(id);
      }
    }
  }

  #sinceOf(o: Order): number {
    return this.#sinceByKey.get(keyOf(o)) ?? o.createdMs;
  }

  #start(o: Order, tsMs: number, since = o.createdMs): void {
    const id = keyOf(o);
    this.#seen.set(id, tsMs);
    if (tsMs > this.#newestMs) this.#newestMs = tsMs;
    if (o.remainingQty <= 0) return;
    this.#sinceByKey.set(id, since);
    // An order may be re-announced (resync); the newest description wins.
    const prev = this.#open.get(id);
    if (prev) this.#close(prev, tsMs);
    this.#open.set(id, { id, symbol: o.symbol, side: o.side, priceTicks: o.priceTicks, qty: o.remainingQty, restingSinceMs: since, fromMs: Math.min(tsMs, since), untilMs: null });
  }

  #end(o: Order, tsMs: number): void {
    this.#seen.set(keyOf(o), tsMs);
    if (tsMs > this.#newestMs) this.#newestMs = tsMs;
    const s = this.#open.get(keyOf(o));
    if (s) this.#close(s, tsMs);
    if (o.remainingQty <= 0 || o.state !== 'PARTIALLY_FILLED') this.#sinceByKey.delete(keyOf(o));
  }

  #close(s: Segment, tsMs: number): void {
    s.untilMs = tsMs;
    this.#open.delete(s.id);
    this.#closed.push(s);
  }
}

const keyOf = (o: Order): string => o.orderId;
const view = (s: Segment): { id: string; side: Side; priceTicks: number; qty: number; restingSinceMs: number } => ({
  id: s.id,
  side: s.side,
  priceTicks: s.priceTicks,
  qty: s.qty,
  restingSinceMs: s.restingSinceMs,
});
