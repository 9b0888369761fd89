import { encodeUlidTime, ulidTimeMs, type Ulid } from '../core/ulid.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import { ORDER_STATES } from '../domain/order-state.ts';
import { RetiredOrder, type XOrder } from './exchange-order.ts';

/**
 * The replay exchange's done orders (filled, canceled, replaced, rejected, expired), which the venue
 * still answers for (a status query; a cancel or replace of one is refused as terminated, not as
 * unknown), in columns rather than one object and one id string each: a day's replay makes tens of
 * thousands of orders (every replace is a new one), ~50 bytes each here against ~250 as objects in
 * a Map, so the exchange's memory barely grows with the day's length.
 *
 * An order is found by its id's counter: the replay's ids are `O-<time>000000<counter>`, the counter
 * counting up from `ReplayIds.start` over every id issued (orders, executions, trades), so the
 * counter indexes a dense table; the id is rebuilt from the stored time and compared, so a foreign
 * id is never mistaken for one of ours.
 */
export class RetiredOrders {
  #n = 0;
  /** slot + 1 per id counter − start (0 = not a retired order). */
  #slotOf = new Int32Array(1024);
  #timeMs = new Float64Array(256);
  #counter = new Float64Array(256);
  #qty = new Float64Array(256);
  #filled = new Float64Array(256);
  #state = new Uint8Array(256);
  #sym = new Uint16Array(256);
  readonly #cid: (ClientOrderId | null)[] = [];
  /** Reject reason and text of the few orders that have them (and the symbol of one for an unknown symbol), by slot. */
  readonly #notes = new Map<number, { readonly reason: string | null; readonly text: string | null; readonly symbol: Symbol }>();

  constructor(
    private readonly idStart: number,
    private readonly symbols: readonly Symbol[],
  ) {}

  /** Done orders held. */
  get size(): number {
    return this.#n;
  }

  /** Records `x`, which must be done (its state and figures final) and carry one of the replay's order ids. */
  add(x: XOrder): void {
    const c = ulidTimeMs(x.id.slice(18) as Ulid);
    const at = c - this.idStart;
    if (at >= this.#slotOf.length) this.#slotOf = grow(this.#slotOf, at + 1, (n) => new Int32Array(n));
    if (this.#n === this.#qty.length) {
      const n = this.#n + 1;
      this.#timeMs = grow(this.#timeMs, n, (k) => new Float64Array(k));
      this.#counter = grow(this.#counter, n, (k) => new Float64Array(k));
      this.#qty = grow(this.#qty, n, (k) => new Float64Array(k));
      this.#filled = grow(this.#filled, n, (k) => new Float64Array(k));
      this.#state = grow(this.#state, n, (k) => new Uint8Array(k));
      this.#sym = grow(this.#sym, n, (k) => new Uint16Array(k));
    }
    const k = this.#n++;
    this.#slotOf[at] = k + 1;
    this.#timeMs[k] = ulidTimeMs(x.id.slice(2, 12) as Ulid);
    this.#counter[k] = c;
    this.#qty[k] = x.qty;
    this.#filled[k] = x.filled;
    this.#state[k] = ORDER_STATES.indexOf(x.state);
    this.#sym[k] = Math.max(0, x.sym);
    this.#cid.push(x.cid);
    if (x.rejectReason !== null || x.text !== null || x.sym < 0) this.#notes.set(k, { reason: x.rejectReason, text: x.text, symbol: x.symbol });
  }

  /** The done order with venue id `id`, or undefined. */
  get(id: string): RetiredOrder | undefined {
    if (id.length !== 28 || !id.startsWith('O-')) return undefined;
    const at = ulidTimeMs(id.slice(18) as Ulid) - this.idStart;
    const k = at >= 0 && at < this.#slotOf.length ? this.#slotOf[at]! - 1 : -1;
    if (k < 0 || id !== `O-${encodeUlidTime(this.#timeMs[k]!)}000000${encodeUlidTime(this.#counter[k]!)}`) return undefined;
    return this.#record(k, id as VenueOrderId);
  }

  /** The done order created last (highest id counter) with client id `cid`, or undefined. */
  lastWithCid(cid: ClientOrderId): RetiredOrder | undefined {
    let best = -1;
    for (let k = 0; k < this.#n; k++) if (this.#cid[k] === cid && (best < 0 || this.#counter[k]! > this.#counter[best]!)) best = k;
    return best < 0 ? undefined : this.#record(best, `O-${encodeUlidTime(this.#timeMs[best]!)}000000${encodeUlidTime(this.#counter[best]!)}` as VenueOrderId);
  }

  #record(k: number, id: VenueOrderId): RetiredOrder {
    const note = this.#notes.get(k);
    return new RetiredOrder(id, this.#cid[k]!, note?.symbol ?? this.symbols[this.#sym[k]!]!, ORDER_STATES[this.#state[k]!]!, this.#qty[k]!, this.#filled[k]!, note?.reason ?? null, note?.text ?? null);
  }
}

/** `a` copied into a new array of at least `need` (doubling) elements. */
function grow<T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(a: T, need: number, make: (n: number) => T): T {
  const next = make(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}
