import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUlid, seededRandomU32 } from '../../src/core/ulid.ts';
import { OpenOrders } from '../../src/sim/accounts/open-orders.ts';
import { VenueIds } from '../../src/sim/ids.ts';
import { OrderIndex } from '../../src/sim/orders/order-index.ts';
import type { SimOrder } from '../../src/sim/index.ts';

/** A minimal order carrying what the index and the open list use. */
function mint(ids: VenueIds, kind: 'order' | 'liquidation' | 'trade'): SimOrder {
  const oid = ids[kind]();
  return { oid, idHead: ids.lastHead, idSlot: ids.lastSlot, acctPrev: null, acctNext: null } as unknown as SimOrder;
}

describe('VenueIds', () => {
  it('mints prefixed, strictly increasing ULIDs across millisecond changes and id families', () => {
    let t = 1_700_000_000_000;
    const ids = new VenueIds(() => t, seededRandomU32(3));
    let prev = '';
    for (let i = 0; i < 5000; i++) {
      if (i % 97 === 0) t += 1;
      const id = i % 3 === 0 ? ids.order() : i % 3 === 1 ? ids.execution() : ids.ulid();
      const bare = id.replace(/^[OE]-/, '');
      expect(isUlid(bare)).toBe(true);
      expect(bare > prev).toBe(true);
      expect(id.slice(0, -1)).toBe(ids.lastHead);
      prev = bare;
    }
  });
});

describe('OrderIndex', () => {
  it('behaves like a Map by id under random adds and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.boolean()), { maxLength: 400 }), fc.integer({ min: 1, max: 2 ** 31 }), (ops, seed) => {
        let t = 1_700_000_000_000;
        const ids = new VenueIds(() => t, seededRandomU32(seed));
        const index = new OrderIndex();
        const model = new Map<string, SimOrder>();
        const gone: string[] = [];
        for (const [add, pick, tick] of ops) {
          if (tick) t += 1;
          if (add || model.size === 0) {
            // Other families consume counter values in between, as trades and events do.
            if (pick % 3 === 0) ids.trade();
            const o = mint(ids, pick % 5 === 0 ? 'liquidation' : 'order');
            index.add(o);
            model.set(o.oid, o);
          } else {
            const victim = [...model.values()][pick % model.size]!;
            expect(index.delete(victim)).toBe(true);
            expect(index.delete(victim)).toBe(false);
            model.delete(victim.oid);
            gone.push(victim.oid);
          }
        }
        expect(index.size).toBe(model.size);
        for (const [oid, o] of model) expect(index.get(oid)).toBe(o);
        // Equal strings that are different objects (as parsed from a request) find the order too.
        for (const oid of model.keys()) expect(index.get(`${oid.slice(0, 5)}${oid.slice(5)}`)?.oid).toBe(oid);
        for (const oid of gone) expect(index.get(oid)).toBeUndefined();
        expect(new Set([...index.values()])).toEqual(new Set(model.values()));
      }),
    );
  });

  it('answers undefined for ids it never minted', () => {
    const ids = new VenueIds(() => 1_700_000_000_000, seededRandomU32(1));
    const index = new OrderIndex();
    const o = mint(ids, 'order');
    index.add(o);
    for (const bad of ['', 'O', 'O-', `${o.oid}0`, o.oid.slice(0, -1), `${o.oid.slice(0, -1)}!`, `${o.oid.slice(0, -1)}é`, o.oid.toLowerCase()]) {
      expect(index.get(bad)).toBeUndefined();
    }
    expect(index.get(o.oid)).toBe(o);
  });
});

describe('OpenOrders', () => {
  it('keeps insertion order, ignores double adds, and tolerates deleting while iterating', () => {
    const ids = new VenueIds(() => 1_700_000_000_000, seededRandomU32(2));
    const open = new OpenOrders();
    const os = Array.from({ length: 6 }, () => mint(ids, 'order'));
    for (const o of os) open.add(o);
    open.add(os[2]!);
    expect(open.size).toBe(6);
    expect(open.delete(os[0]!)).toBe(true);
    expect(open.delete(os[0]!)).toBe(false);
    expect(open.has(os[0]!)).toBe(false);
    expect(open.has(os[1]!)).toBe(true);
    const seen: string[] = [];
    for (const o of open) {
      seen.push(o.oid);
      open.delete(o);
    }
    expect(seen).toEqual(os.slice(1).map((o) => o.oid));
    expect(open.size).toBe(0);
    expect([...open.values()]).toEqual([]);
  });
});
