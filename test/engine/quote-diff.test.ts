import { describe, expect, it } from 'vitest';
import type { QuoteLevel } from '../../src/domain/intents.ts';
import { diffSide, DiffScratch, isNoChange, type DiffAccess } from '../../src/engine/quote-diff.ts';

interface O {
  readonly id: string;
  readonly price: number;
  readonly qty: number;
  readonly locked: boolean;
  readonly replaceable: boolean;
}

const acc: DiffAccess<O> = { price: (o) => o.price, qty: (o) => o.qty, locked: (o) => o.locked, replaceable: (o) => o.replaceable };
const tol = { priceTicks: 0, size: 0 };
const lv = (priceTicks: number, qty = 5): QuoteLevel => ({ priceTicks, qty });
const order = (id: string, price: number, locked = false, replaceable = true, qty = 5): O => ({ id, price, qty, locked, replaceable });
const ids = (xs: readonly O[]): string[] => xs.map((o) => o.id);

describe('diffSide', () => {
  it('keeps orders within tolerance: a shared no-change diff', () => {
    const d = diffSide([lv(100), lv(99)], [order('a', 99), order('b', 100)], acc, tol, true, true);
    expect(isNoChange(d)).toBe(true);
    expect(d.replace.length + d.cancel.length + d.place.length).toBe(0);
  });

  it('places every level when there are no orders, cancels every unlocked order when there are no levels', () => {
    const placed = diffSide([lv(100)], [], acc, tol, true, true);
    expect(placed.place).toEqual([lv(100)]);
    const cancelled = diffSide([], [order('a', 100), order('b', 99, true)], acc, tol, true, true);
    expect(ids(cancelled.cancel)).toEqual(['a']);
    expect(isNoChange(cancelled)).toBe(false);
  });

  it('defers levels whose orders are locked: nothing to send, but not a no-change', () => {
    const d = diffSide([lv(101)], [order('a', 100, true)], acc, tol, true, true);
    expect(d.replace.length + d.cancel.length + d.place.length).toBe(0);
    expect(isNoChange(d)).toBe(false);
    // Two locked orders for one new level: still nothing to send (the extra locked one is not cancelled now).
    const d2 = diffSide([lv(101)], [order('a', 100, true), order('b', 99, true)], acc, tol, true, true);
    expect(d2.replace.length + d2.cancel.length + d2.place.length).toBe(0);
    expect(isNoChange(d2)).toBe(false);
  });

  it('places the levels locked orders cannot cover', () => {
    const d = diffSide([lv(102), lv(101)], [order('a', 100, true)], acc, tol, true, true);
    // Best-first pairing: the locked order holds the best unmatched level, the next one is placed.
    expect(d.replace).toEqual([]);
    expect(d.cancel).toEqual([]);
    expect(d.place).toEqual([lv(101)]);
  });

  it('replaces a replaceable order, else cancels and places; pairs best first', () => {
    const d = diffSide([lv(102), lv(101)], [order('a', 98), order('b', 99, false, false)], acc, tol, true, true);
    // Bids: best first, so b (99) pairs with 102 and a (98) with 101.
    expect(ids(d.cancel)).toEqual(['b']);
    expect(d.place).toEqual([lv(102)]);
    expect(d.replace.map((r) => [r.order.id, r.level.priceTicks])).toEqual([['a', 101]]);
    const asks = diffSide([lv(103), lv(104)], [order('c', 106), order('d', 105)], acc, tol, true, false);
    expect(asks.replace.map((r) => [r.order.id, r.level.priceTicks])).toEqual([
      ['d', 103],
      ['c', 104],
    ]);
  });

  it('cancels unlocked leftovers next to locked ones', () => {
    const d = diffSide([lv(101)], [order('a', 100, true), order('b', 99)], acc, tol, true, true);
    // a (best) is paired with 101 and locked; b is left over and cancelled.
    expect(ids(d.cancel)).toEqual(['b']);
    expect(d.place).toEqual([]);
    expect(d.replace).toEqual([]);
  });

  it('builds a diff that sends something in the given scratch, the same as a fresh one, reusing its storage', () => {
    const scratch = new DiffScratch<O>();
    const orders = [order('a', 105), order('b', 104, false, false), order('c', 103), order('d', 102, true), order('e', 90)];
    const levels = [lv(101), lv(100), lv(99)];
    const fresh = diffSide(levels, orders, acc, tol, true, false);
    const d = diffSide(levels, orders, acc, tol, true, false, scratch);
    expect(d).toBe(scratch);
    // Asks best first (lowest first): e (90) pairs with 101, d (102, locked) holds 100, c (103) with 99.
    expect(d.replace.map((r) => [r.order.id, r.level.priceTicks])).toEqual([
      ['e', 101],
      ['c', 99],
    ]);
    expect(ids(d.cancel)).toEqual(['b', 'a']);
    expect(d.place).toEqual([]);
    expect([d.replace.map((r) => [r.order.id, r.level]), ids(d.cancel), d.place]).toEqual([fresh.replace.map((r) => [r.order.id, r.level]), ids(fresh.cancel), fresh.place]);
    const pair = d.replace[0];
    // The next diff empties the scratch and reuses the pair objects.
    const d2 = diffSide([lv(200)], [order('f', 201)], acc, tol, true, false, scratch);
    expect(d2).toBe(scratch);
    expect(d2.replace.map((r) => [r.order.id, r.level.priceTicks])).toEqual([['f', 200]]);
    expect(d2.replace[0]).toBe(pair);
    expect(d2.cancel).toEqual([]);
    // Nothing to send: the shared no-change diff, the scratch untouched.
    expect(isNoChange(diffSide([lv(200)], [order('f', 200)], acc, tol, true, false, scratch))).toBe(true);
  });
});
