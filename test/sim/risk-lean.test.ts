import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import type { Instrument } from '../../src/domain/instrument.ts';
import type { Account, OpenOrderAgg } from '../../src/sim/accounts/account.ts';
import { availableMargin, imOpenOrders, marginCheck, riskSnapshot, type OrderDelta, type RiskContext } from '../../src/sim/accounts/risk.ts';
import { Venue } from '../../src/sim/venue.ts';

/**
 * The lean pre-trade margin (equity − IM without a risk snapshot) against the full snapshot, on
 * randomized accounts: positions, cost bases, open-order aggregates, marks from overrides, recent
 * and stale trades, symbols the venue does not list.
 */
const venue = new Venue();
const symbols = venue.catalog.all().map((i) => i.symbol as string);
const NOW = 1_800_000_000_000;
const STALE_MS = 300_000;
let n = 0;

/** The margin check as it was, on the full snapshot: the reference. */
function marginCheckViaSnapshot(acct: Account, ins: Instrument, add: OrderDelta, remove: OrderDelta | null, ctx: RiskContext) {
  const withDelta = (agg: OpenOrderAgg | undefined, d: OrderDelta, sign: 1 | -1): OpenOrderAgg => {
    const base = agg ?? { buyQty: 0, buyTickQty: 0, sellQty: 0, sellTickQty: 0, count: 0 };
    const q = sign * d.qty;
    return {
      buyQty: base.buyQty + (d.side === 'buy' ? q : 0),
      buyTickQty: base.buyTickQty + (d.side === 'buy' ? q * d.priceTicks : 0),
      sellQty: base.sellQty + (d.side === 'sell' ? q : 0),
      sellTickQty: base.sellTickQty + (d.side === 'sell' ? q * d.priceTicks : 0),
      count: base.count + sign,
    };
  };
  const pos = acct.positions.get(ins.symbol)?.signedQty ?? 0;
  const agg = acct.openAgg.get(ins.symbol);
  const before = imOpenOrders(agg, pos, ins);
  const mid = remove ? withDelta(agg, remove, -1) : agg;
  const delta = imOpenOrders(withDelta(mid, add, 1), pos, ins).minus(before);
  if (delta.lte(0)) return { ok: true, required: delta, available: new Decimal(0) };
  const snap = riskSnapshot(acct, ctx);
  const available = snap.equity.minus(snap.imTotal);
  return { ok: delta.lte(available), required: delta, available };
}

const symbolArb = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...symbols) }, { weight: 1, arbitrary: fc.constant('NOT-LISTED') });
const money = fc.tuple(fc.integer({ min: -5_000_000_000, max: 5_000_000_000 }), fc.integer({ min: 0, max: 6 })).map(([u, d]) => new Decimal(u).div(10 ** d));
const positionArb = fc.record({ symbol: symbolArb, qty: fc.oneof(fc.constant(0), fc.integer({ min: -50_000, max: 50_000 })), cost: money });
const aggArb = fc
  .record({ symbol: symbolArb, buys: fc.array(fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 20_000_000 })), { maxLength: 4 }), sells: fc.array(fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 20_000_000 })), { maxLength: 4 }) })
  .map(({ symbol, buys, sells }) => ({
    symbol,
    agg: {
      buyQty: buys.reduce((a, [q]) => a + q, 0),
      buyTickQty: buys.reduce((a, [q, t]) => a + q * t, 0),
      sellQty: sells.reduce((a, [q]) => a + q, 0),
      sellTickQty: sells.reduce((a, [q, t]) => a + q * t, 0),
      count: buys.length + sells.length,
    },
  }));
const markArb = fc.record({
  symbol: fc.constantFrom(...symbols),
  kind: fc.constantFrom('override', 'recent-trade', 'stale-trade', 'settlement'),
  ticks: fc.integer({ min: 1, max: 50_000_000 }),
});
const deltaArb = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), qty: fc.integer({ min: 1, max: 5_000 }), priceTicks: fc.integer({ min: 1, max: 20_000_000 }) });
const accountArb = fc.record({
  balance: money,
  positions: fc.array(positionArb, { maxLength: 6 }),
  aggs: fc.array(aggArb, { maxLength: 6 }),
  marks: fc.array(markArb, { maxLength: 8 }),
  check: fc.record({ symbol: fc.constantFrom(...symbols), add: deltaArb, remove: fc.option(deltaArb, { nil: null }) }),
});

describe('lean pre-trade margin', () => {
  it('availableMargin and marginCheck equal the full-snapshot results exactly', () => {
    fc.assert(
      fc.property(accountArb, (a) => {
        const acct = venue.accounts.addAccount(venue.defaultUser.id, { name: `r${++n}`, balanceUsd: a.balance.toString() });
        for (const p of a.positions) acct.positions.set(p.symbol, { signedQty: p.qty, costBasis: p.cost, realizedPnl: new Decimal(0), lastFillNs: 0n });
        for (const g of a.aggs) acct.openAgg.set(g.symbol, g.agg);
        for (const m of venue.markets.values()) {
          m.markOverride = null;
          m.lastTradeTicks = null;
        }
        for (const mk of a.marks) {
          const m = venue.markets.get(mk.symbol)!;
          if (mk.kind === 'override') m.markOverride = m.instrument.grid.toDecimal(mk.ticks);
          else if (mk.kind !== 'settlement') {
            m.lastTradeTicks = mk.ticks;
            m.lastTradeMs = mk.kind === 'recent-trade' ? NOW - 1_000 : NOW - STALE_MS - 1;
          }
        }
        const ctx: RiskContext = { markets: venue.markets, nowMs: NOW, markStaleMs: STALE_MS };
        const snap = riskSnapshot(acct, ctx);
        const full = snap.equity.minus(snap.imTotal);
        const lean = availableMargin(acct, ctx);
        expect(lean.toString()).toBe(full.toString());
        expect(lean.isNeg()).toBe(full.isNeg());

        const ins = venue.catalog.get(a.check.symbol)!;
        // A removal must be of an order that exists: only on a symbol with open orders on that side.
        const agg = acct.openAgg.get(a.check.symbol);
        const remove = a.check.remove && agg && (a.check.remove.side === 'buy' ? agg.buyQty : agg.sellQty) > 0 ? a.check.remove : null;
        const got = marginCheck(acct, ins, a.check.add, remove, ctx);
        const want = marginCheckViaSnapshot(acct, ins, a.check.add, remove, ctx);
        expect(got.ok).toBe(want.ok);
        expect(got.required.toString()).toBe(want.required.toString());
        expect(got.available.toString()).toBe(want.available.toString());
      }),
      { numRuns: 500 },
    );
  });

  it('a user order that raises IM beyond equity − IM is refused with the same figures', () => {
    const v = new Venue();
    const acct = v.accounts.addAccount(v.defaultUser.id, { name: 'small', balanceUsd: '1000' });
    const ins = v.catalog.get('EURUSD-PERP')!;
    const ctx = v.riskContext();
    const add: OrderDelta = { side: 'buy', qty: 100_000, priceTicks: 11_400 };
    const got = marginCheck(acct, ins, add, null, ctx);
    expect(got.ok).toBe(false);
    expect(got.required.toString()).toBe('6840');
    expect(got.available.toString()).toBe('1000');
    expect(marginCheck(acct, ins, { ...add, qty: 10_000 }, null, ctx).ok).toBe(true);
  });
});
