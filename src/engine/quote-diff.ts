import type { QuoteLevel } from '../domain/intents.ts';

/** What the diff needs to know about a working order. */
export interface DiffOrder {
  /** Effective price/size: a pending or queued replace's target, else what rests at the venue. */
  readonly priceTicks: number;
  readonly qty: number;
  /** Cannot be touched now (in flight, or younger than the minimum lifetime). */
  readonly locked: boolean;
  /** May be modified with one request (venue replace, or a still-queued place). */
  readonly replaceable: boolean;
}

/** The fewest changes that turn `orders` into `levels` for one side. */
export interface SideDiff<O> {
  readonly replace: { readonly order: O; readonly level: QuoteLevel }[];
  readonly cancel: O[];
  readonly place: QuoteLevel[];
}

/** Tolerances for keeping an order as is. */
export interface DiffTolerance {
  readonly priceTicks: number;
  /** Fraction of the desired size. */
  readonly size: number;
}

const within = (o: DiffOrder, l: QuoteLevel, tol: DiffTolerance): boolean =>
  Math.abs(o.priceTicks - l.priceTicks) <= tol.priceTicks && Math.abs(o.qty - l.qty) <= tol.size * l.qty;

/**
 * Diffs one side. First every level keeps an order within tolerance; then the remaining levels and
 * orders pair up best-first: a locked order defers its level (nothing sent now, retried on the next
 * evaluation), a replaceable one is replaced (one request), otherwise cancel + place. Leftover
 * unlocked orders are cancelled, leftover levels placed. With `force`, locks from the minimum
 * lifetime are ignored by the caller (risk pulls). Pure; allocates only small arrays.
 */
export function diffSide<O extends DiffOrder>(
  levels: readonly QuoteLevel[],
  orders: readonly O[],
  tol: DiffTolerance,
  useReplace: boolean,
  descending: boolean,
): SideDiff<O> {
  const out: SideDiff<O> = { replace: [], cancel: [], place: [] };
  const used = new Uint8Array(orders.length);
  const isUsed = (j: number): boolean => used[j] === 1;
  const markUsed = (j: number): void => {
    used[j] = 1;
  };
  const unmatched: QuoteLevel[] = [];
  for (const l of levels) {
    let hit = -1;
    for (let j = 0; j < orders.length; j++) {
      if (!isUsed(j) && within(orders[j]!, l, tol)) {
        hit = j;
        break;
      }
    }
    if (hit >= 0) markUsed(hit);
    else unmatched.push(l);
  }
  const rest: O[] = [];
  for (let j = 0; j < orders.length; j++) if (!isUsed(j)) rest.push(orders[j]!);
  if (rest.length === 0) {
    for (const l of unmatched) out.place.push(l);
    return out;
  }
  rest.sort(descending ? (a, b) => b.priceTicks - a.priceTicks : (a, b) => a.priceTicks - b.priceTicks);
  const n = Math.min(rest.length, unmatched.length);
  for (let k = 0; k < n; k++) {
    const o = rest[k]!;
    const l = unmatched[k]!;
    if (o.locked) continue;
    if (useReplace && o.replaceable) out.replace.push({ order: o, level: l });
    else {
      out.cancel.push(o);
      out.place.push(l);
    }
  }
  for (let k = n; k < rest.length; k++) if (!rest[k]!.locked) out.cancel.push(rest[k]!);
  for (let k = n; k < unmatched.length; k++) out.place.push(unmatched[k]!);
  return out;
}
