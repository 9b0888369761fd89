import { BID } from './dense-book.ts';

/**
 * Exact FIFO queues from order-level (L3) recordings, after hftbacktest's L3FIFOQueueModel. A
 * recording with order ids (format version 5: LOBSTER, market-by-order feeds) says which orders
 * stayed, which left (filled or canceled) and which are new, by id. The venue's LEVEL_3 channel gives,
 * per price, the sizes of the resting orders in queue order but no ids, so there consecutive lists of
 * a level are matched by size (fifoDiff). Our (virtual) orders sit in that queue at a position
 * counted in market orders ahead of them: they join at the back, move up when orders ahead leave
 * and never when orders behind them do, and fill when the market trades orders behind them.
 */

const EMPTY: readonly number[] = [];

/**
 * The recording's order pool (columnar.ts): level j's orders are `orderQty[orderStart[j],
 * orderStart[j + 1])`, front first, with their ids in `orderId` when the recording has them.
 */
export interface L3Pool {
  readonly orderStart: Float64Array;
  readonly orderQty: Float64Array;
  readonly orderId?: Float64Array;
}

/** A level's orders held as lists: copied from the pool when first read, or changed by a print. */
interface OwnedLevel {
  readonly orders: readonly number[];
  readonly ids: readonly number[] | null;
}

/**
 * The market's resting orders of one symbol: order sizes per side and price, in queue order, and
 * their ids when the recording has them. A level set from the recording's pool (`setPooled`) is
 * kept as its index there and copied into lists only when read: most levels change again before
 * anything reads them (only the levels of our orders are), so a frame costs no allocation.
 */
export class L3Levels {
  readonly #bids = new Map<number, number | OwnedLevel>();
  readonly #asks = new Map<number, number | OwnedLevel>();

  constructor(readonly pool: L3Pool | null = null) {}

  /** The level's order sizes, front first (empty when the level is empty). */
  get(side: number, priceTicks: number): readonly number[] {
    return this.#owned(side, priceTicks)?.orders ?? EMPTY;
  }

  /** The level's order ids beside `get` (null when the recording has no ids). */
  ids(side: number, priceTicks: number): readonly number[] | null {
    return this.#owned(side, priceTicks)?.ids ?? null;
  }

  /** Replaces a level's orders and their ids (an empty list removes it). */
  set(side: number, priceTicks: number, orders: readonly number[], ids: readonly number[] | null = null): void {
    const m = side === BID ? this.#bids : this.#asks;
    if (orders.length === 0) m.delete(priceTicks);
    else m.set(priceTicks, { orders, ids });
  }

  /** Sets a level to the pool's level `j` (no copy; an empty one removes it). @throws RangeError without a pool. */
  setPooled(side: number, priceTicks: number, j: number): void {
    const pool = this.pool;
    if (pool === null) throw new RangeError('L3Levels.setPooled needs the recording\'s order pool');
    const m = side === BID ? this.#bids : this.#asks;
    if (pool.orderStart[j + 1]! - pool.orderStart[j]! === 0) m.delete(priceTicks);
    else m.set(priceTicks, j);
  }

  #owned(side: number, priceTicks: number): OwnedLevel | undefined {
    const m = side === BID ? this.#bids : this.#asks;
    const v = m.get(priceTicks);
    if (typeof v !== 'number') return v;
    const pool = this.pool!;
    const from = pool.orderStart[v]!;
    const to = pool.orderStart[v + 1]!;
    const owned = { orders: copyRange(pool.orderQty, from, to), ids: pool.orderId ? copyRange(pool.orderId, from, to) : null };
    m.set(priceTicks, owned);
    return owned;
  }

  /**
   * A print of `qty` trades the level's orders from the front (tradeFront), ids kept beside them.
   * Returns how many orders it removed entirely.
   */
  trade(side: number, priceTicks: number, qty: number): number {
    const { orders, removed } = tradeFront(this.get(side, priceTicks), qty);
    const ids = this.ids(side, priceTicks);
    this.set(side, priceTicks, orders, ids ? ids.slice(removed) : null);
    return removed;
  }

  /** Empties the book (before a snapshot). */
  clear(): void {
    this.#bids.clear();
    this.#asks.clear();
  }
}

/** `col[from, to)` as a plain array (a loop: `Array.from(col.subarray(...))` allocated a view and an iterator per level). */
function copyRange(col: Float64Array, from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k < to; k++) out.push(col[k]!);
  return out;
}

/**
 * Matches a level's previous orders to its next ones: by id when both lists carry ids (exact: an
 * order whose size changed keeps its place, whatever the change), else by size (fifoDiff).
 */
export function levelDiff(prev: readonly number[], prevIds: readonly number[] | null, next: readonly number[], nextIds: readonly number[] | null): Int32Array {
  if (!prevIds || !nextIds) return fifoDiff(prev, next);
  const at = new Map<number, number>();
  for (let j = 0; j < nextIds.length; j++) at.set(nextIds[j]!, j);
  const map = new Int32Array(prevIds.length);
  for (let i = 0; i < prevIds.length; i++) map[i] = at.get(prevIds[i]!) ?? -1;
  return map;
}

/**
 * Matches a level's previous order list to its next one. Returns, for each previous order, its index
 * in `next`, or −1 when it left. FIFO venue rules decide ambiguous cases:
 *
 * - orders that stayed keep their relative order (the longest common subsequence of sizes, leftmost
 *   first: when one of two equal orders left, it is taken to be the later one, so an order of ours
 *   between them does not move up on a guess);
 * - an order new in `next` after every order that stayed joined at the back;
 * - one that appears *between* orders that stayed is a previous order there whose size changed in
 *   place (the front order partly filled): it keeps that order's identity, paired in order;
 * - after the last kept order, a smaller order where a previous one left is that order partly
 *   canceled in place ([100, 300] → [100, 200]: the 300 is now 200, still ahead of an order of ours
 *   behind it), paired in order while each is smaller (pairShrunkTail).
 */
export function fifoDiff(prev: readonly number[], next: readonly number[]): Int32Array {
  const n = prev.length;
  const m = next.length;
  const map = new Int32Array(n).fill(-1);
  // Common prefix and suffix are the usual case (an order added at the back, one canceled, the
  // front one filled); the longest-common-subsequence table only covers what is left between.
  let pre = 0;
  while (pre < n && pre < m && prev[pre] === next[pre]) {
    map[pre] = pre;
    pre++;
  }
  let suf = 0;
  while (suf < n - pre && suf < m - pre && prev[n - 1 - suf] === next[m - 1 - suf]) {
    map[n - 1 - suf] = m - 1 - suf;
    suf++;
  }
  const pn = n - pre - suf;
  const qn = m - pre - suf;
  if (pn > 0 && qn > 0) {
    if (pn * qn <= 1 << 20) lcs(prev, next, pre, pn, pre, qn, map);
    else greedy(prev, next, pre, pn, pre, qn, map);
  }
  pairChanged(map, m);
  pairShrunkTail(prev, next, map);
  return map;
}

/** Leftmost longest common subsequence of prev[p0, p0+pn) and next[q0, q0+qn), written into map. */
function lcs(prev: readonly number[], next: readonly number[], p0: number, pn: number, q0: number, qn: number, map: Int32Array): void {
  // Suffix table: t[i][j] = LCS length of prev[p0+i..] and next[q0+j..]; walking it from (0, 0)
  // and matching whenever that keeps the optimum gives the leftmost alignment.
  const w = qn + 1;
  const t = new Int32Array((pn + 1) * w);
  for (let i = pn - 1; i >= 0; i--)
    for (let j = qn - 1; j >= 0; j--)
      t[i * w + j] = prev[p0 + i] === next[q0 + j] ? t[(i + 1) * w + j + 1]! + 1 : Math.max(t[(i + 1) * w + j]!, t[i * w + j + 1]!);
  let i = 0;
  let j = 0;
  while (i < pn && j < qn) {
    if (prev[p0 + i] === next[q0 + j] && t[i * w + j] === t[(i + 1) * w + j + 1]! + 1) {
      map[p0 + i] = q0 + j;
      i++;
      j++;
    } else if (t[(i + 1) * w + j]! >= t[i * w + j + 1]!) i++;
    else j++;
  }
}

/** A bounded fallback for huge levels: match each previous order to the next equal size ahead. */
function greedy(prev: readonly number[], next: readonly number[], p0: number, pn: number, q0: number, qn: number, map: Int32Array): void {
  let j = 0;
  for (let i = 0; i < pn && j < qn; i++) {
    let k = j;
    while (k < qn && next[q0 + k] !== prev[p0 + i]) k++;
    if (k < qn) {
      map[p0 + i] = q0 + k;
      j = k + 1;
    }
  }
}

/**
 * An order of `next` that matches nothing but sits before a kept order cannot be new (new orders
 * join at the back): it is a previous order of the same stretch between kept orders whose size
 * changed in place (the front order partly filled), paired in order. Unmatched orders after the
 * last kept one are new. When no order was kept, a different front order is taken as the old front
 * partly filled (the conservative reading for an order of ours behind it).
 */
function pairChanged(map: Int32Array, m: number): void {
  const n = map.length;
  const taken = new Uint8Array(m);
  for (let i = 0; i < n; i++) if (map[i]! >= 0) taken[map[i]!] = 1;
  let lastKept = -1; // index in next of the last kept order
  for (let i = 0; i < n; i++) if (map[i]! > lastKept) lastKept = map[i]!;
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (map[i]! >= 0) {
      j = map[i]! + 1;
      i++;
      continue;
    }
    // prev[i] left or changed: pair it with the next unmatched order of `next` in the same stretch.
    if (taken[j]) {
      i++;
      continue;
    }
    const inStretch = j < lastKept || (lastKept < 0 && j === 0 && i === 0);
    if (!inStretch) break;
    map[i] = j;
    taken[j] = 1;
    i++;
    j++;
  }
}

/**
 * Orders of `prev` after the last kept one that left, facing orders of `next` after the last kept one
 * that are new: a smaller one at the same place is the old order partly canceled in place (sizes
 * shrink in place; a cancel and a new order in one frame is the rarer reading, and taking it would
 * move an order of ours behind them up on a guess), paired in order while each is smaller. A larger
 * one is new (an order does not grow in place), and so is everything after it.
 */
function pairShrunkTail(prev: readonly number[], next: readonly number[], map: Int32Array): void {
  let lastPrev = -1;
  let lastNext = -1;
  for (let i = 0; i < map.length; i++)
    if (map[i]! >= 0) {
      lastPrev = i;
      if (map[i]! > lastNext) lastNext = map[i]!;
    }
  let j = lastNext + 1;
  for (let i = lastPrev + 1; i < map.length && j < next.length; i++, j++) {
    if (next[j]! >= prev[i]!) return;
    map[i] = j;
  }
}

/** Market orders ahead of one of ours after a level changed: those ahead that are still there. */
export function aheadAfter(map: Int32Array, ahead: number): number {
  let a = 0;
  for (let i = 0; i < ahead && i < map.length; i++) if (map[i]! >= 0 && map[i]! + 1 > a) a = map[i]! + 1;
  return a;
}

/** Total size of the first `n` orders of a level. */
export function sizeAhead(orders: readonly number[], n: number): number {
  let q = 0;
  for (let i = 0; i < n && i < orders.length; i++) q += orders[i]!;
  return q;
}

/**
 * A print of `qty` at a level trades its orders from the front: returns the level after it and how
 * many orders it removed entirely (the next one may be partly filled).
 */
export function tradeFront(orders: readonly number[], qty: number): { readonly orders: number[]; readonly removed: number } {
  let i = 0;
  let left = qty;
  while (i < orders.length && orders[i]! <= left) left -= orders[i++]!;
  const out = orders.slice(i);
  if (out.length > 0 && left > 0) out[0] = out[0]! - left;
  return { orders: out, removed: i };
}
