import { truncate } from '../core/arrays.ts';
import type { QuoteLevel } from '../domain/intents.ts';

/** How the diff reads a working order (accessors, so the hot path builds no wrapper objects). */
export interface DiffAccess<O> {
  /** Effective price/size: a pending or queued replace's target, else what rests at the venue. */
  price(o: O): number;
  qty(o: O): number;
  /** Cannot be touched now (in flight, or younger than the minimum lifetime). */
  locked(o: O): boolean;
  /** May be modified with one request (venue replace, or a still-queued place). */
  replaceable(o: O): boolean;
}

/** The fewest changes that turn `orders` into `levels` for one side. */
export interface SideDiff<O> {
  readonly replace: readonly { readonly order: O; readonly level: QuoteLevel }[];
  readonly cancel: readonly O[];
  readonly place: readonly QuoteLevel[];
}

/** The diff when nothing is to be done (the common case: shared, so the hot path allocates nothing). */
const NO_CHANGES: SideDiff<never> = Object.freeze({ replace: Object.freeze([]), cancel: Object.freeze([]), place: Object.freeze([]) });
/**
 * Nothing to send now, but the orders do not match the levels: every order left over is locked (in
 * flight or too young) and covers a level. Shared like NO_CHANGES, but not a no-change (the answer
 * depends on the time and on replies still to come).
 */
const DEFERRED: SideDiff<never> = Object.freeze({ replace: Object.freeze([]), cancel: Object.freeze([]), place: Object.freeze([]) });
const NO_LEVELS: readonly QuoteLevel[] = Object.freeze([]);

/** True when the diff is the shared no-change one: every level kept its order and no order is left over (no lock was consulted, so the answer does not depend on the time). */
export function isNoChange<O>(d: SideDiff<O>): boolean {
  return d === NO_CHANGES;
}

/** True when the diff is the shared deferred one: nothing to send only because every order left over is locked. */
export function isDeferred<O>(d: SideDiff<O>): boolean {
  return d === DEFERRED;
}

/** Tolerances for keeping an order as is. */
export interface DiffTolerance {
  readonly priceTicks: number;
  /** Fraction of the desired size. */
  readonly size: number;
}

/**
 * Diffs one side. First every level keeps an order within tolerance; then the remaining levels and
 * orders pair up best-first: a locked order defers its level (nothing sent now, retried on the next
 * evaluation), a replaceable one is replaced (one request), otherwise cancel + place. Leftover
 * unlocked orders are cancelled, leftover levels placed. Pure; allocates nothing when every level
 * keeps its order (returns a shared frozen empty diff), at most one small array when the leftovers
 * are all locked (the usual case while a quote is in flight); a diff that sends something is built
 * in `scratch` when one is given (nothing allocated: a quarter of the diffs while the touch moves),
 * else in a new one.
 */
export function diffSide<O>(
  levels: readonly QuoteLevel[],
  orders: readonly O[],
  acc: DiffAccess<O>,
  tol: DiffTolerance,
  useReplace: boolean,
  descending: boolean,
  scratch: DiffScratch<O> | null = null,
): SideDiff<O> {
  if (orders.length === 0) return levels.length === 0 ? NO_CHANGES : { replace: [], cancel: [], place: levels };
  // Matched orders: a bit mask for the usual handful, bytes beyond 31 orders.
  const wide = orders.length > 31 ? new Uint8Array(orders.length) : null;
  let mask = 0;
  // Levels no order kept: in the scratch's working array when there is one (even a deferred diff fills it).
  let unmatched: QuoteLevel[] | null = null;
  if (scratch !== null) truncate(scratch.unmatched, 0);
  for (const l of levels) {
    let hit = -1;
    for (let j = 0; j < orders.length; j++) {
      if (wide ? wide[j] !== 0 : (mask & (1 << j)) !== 0) continue;
      const o = orders[j]!;
      if (Math.abs(acc.price(o) - l.priceTicks) <= tol.priceTicks && Math.abs(acc.qty(o) - l.qty) <= tol.size * l.qty) {
        hit = j;
        break;
      }
    }
    if (hit < 0) {
      if (unmatched !== null) unmatched.push(l);
      else if (scratch !== null) (unmatched = scratch.unmatched).push(l);
      else unmatched = [l];
    } else if (wide) wide[hit] = 1;
    else mask |= 1 << hit;
  }
  // Orders no level kept. When all of them are locked and there are at least as many as unmatched
  // levels, every pair below is skipped and no level is left to place: nothing to build.
  let restCount = 0;
  let restLocked = true;
  for (let j = 0; j < orders.length; j++) {
    if (wide ? wide[j] !== 0 : (mask & (1 << j)) !== 0) continue;
    restCount++;
    if (restLocked && !acc.locked(orders[j]!)) restLocked = false;
  }
  const um = unmatched ?? NO_LEVELS;
  if (restCount === 0 && um.length === 0) return NO_CHANGES;
  if (restLocked && um.length <= restCount) return DEFERRED;
  const out = scratch === null ? new DiffScratch<O>() : scratch.reset();
  if (restCount === 0) {
    for (let k = 0; k < um.length; k++) out.place.push(um[k]!);
    return out;
  }
  const rest = out.rest;
  for (let j = 0; j < orders.length; j++) if (wide ? wide[j] === 0 : (mask & (1 << j)) === 0) rest.push(orders[j]!);
  if (rest.length > 1) sortByPrice(rest, acc, descending);
  const n = Math.min(rest.length, um.length);
  for (let k = 0; k < n; k++) {
    const o = rest[k]!;
    const l = um[k]!;
    if (acc.locked(o)) continue;
    if (useReplace && acc.replaceable(o)) out.addReplace(o, l);
    else {
      out.cancel.push(o);
      out.place.push(l);
    }
  }
  for (let k = n; k < rest.length; k++) if (!acc.locked(rest[k]!)) out.cancel.push(rest[k]!);
  for (let k = n; k < um.length; k++) out.place.push(um[k]!);
  return out;
}

/** Best first (bids: highest price first), stable: an insertion sort, the orders left over are a handful. */
function sortByPrice<O>(xs: O[], acc: DiffAccess<O>, descending: boolean): void {
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i]!;
    const px = acc.price(x);
    let j = i - 1;
    while (j >= 0 && (descending ? acc.price(xs[j]!) < px : acc.price(xs[j]!) > px)) {
      xs[j + 1] = xs[j]!;
      j--;
    }
    xs[j + 1] = x;
  }
}

/**
 * A diff built in place: the caller owns one per side and passes it to every `diffSide` call, so a
 * diff that sends something allocates nothing once the arrays have grown (the replace pairs are
 * reused objects). What `diffSide` returned in it is valid until the next call with the same scratch.
 */
export class DiffScratch<O> implements SideDiff<O> {
  readonly replace: { order: O; level: QuoteLevel }[] = [];
  readonly cancel: O[] = [];
  readonly place: QuoteLevel[] = [];
  /** Orders no level kept, and levels no order kept (working space). */
  readonly rest: O[] = [];
  readonly unmatched: QuoteLevel[] = [];
  /** Pair objects kept for reuse, `replace` holds the first `replace.length` of them. */
  readonly #pairs: { order: O; level: QuoteLevel }[] = [];

  /** Empties the diff, keeping the storage. */
  reset(): this {
    truncate(this.replace, 0);
    truncate(this.cancel, 0);
    truncate(this.place, 0);
    truncate(this.rest, 0);
    return this;
  }

  addReplace(order: O, level: QuoteLevel): void {
    const k = this.replace.length;
    let p = this.#pairs[k];
    if (p === undefined) this.#pairs.push((p = { order, level }));
    else {
      p.order = order;
      p.level = level;
    }
    this.replace.push(p);
  }
}
