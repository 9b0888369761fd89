import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/index.ts';
import { feeFor, PositionLedger } from '../../src/engine/position-ledger.ts';
import { XAU, makeInstrument } from './harness.ts';

const inst = makeInstrument(XAU, '0.1');

describe('PositionLedger', () => {
  it('prices ticks and fees exactly as the grid and feeFor do (same Decimal string), remembered', () => {
    const ten = { ...inst, multiplier: new Decimal(10) };
    fc.assert(
      fc.property(fc.integer({ min: -2_000_000, max: 2_000_000 }), fc.boolean(), fc.integer({ min: 1, max: 10_000 }), fc.constantFrom('0.0002', '-0.0001', '0.00075'), (t, half, qty, r) => {
        const ticks = half ? t + 0.5 : t;
        const rate = new Decimal(r);
        for (const i of [inst, ten]) {
          const l = new PositionLedger(i);
          expect(l.priceOf(ticks).toString()).toBe(i.grid.toDecimal(ticks).toString());
          expect(l.priceOf(ticks)).toBe(l.priceOf(ticks));
          expect(l.feeOf(t, qty, rate).toString()).toBe(feeFor(i, t, qty, rate).toString());
        }
      }),
    );
    expect(new PositionLedger(inst).feeOf(11_380, 5, new Decimal('0.0002')).toString()).toBe('1.138');
  });

  it('averages in, realizes on reduce, flips at the fill price', () => {
    const l = new PositionLedger(inst);
    l.applyFill('buy', 1000, 2, null); // 2 @ 100.0
    l.applyFill('buy', 1010, 2, null); // 2 @ 101.0 → avg 100.5
    expect(l.qty).toBe(4);
    expect(l.avgPrice!.toNumber()).toBe(100.5);
    l.applyFill('sell', 1020, 6, null); // close 4 @ 102 (+6), open short 2 @ 102
    expect(l.realized.toNumber()).toBe(6);
    expect(l.qty).toBe(-2);
    expect(l.avgPrice!.toNumber()).toBe(102);
    expect(l.unrealized(1000).toNumber()).toBe(4); // short 2 from 102 to 100
  });

  it('sessionPnlUsd follows the mark, every fill and every money field, also one set from outside', () => {
    const l = new PositionLedger(inst);
    l.applyFill('buy', 1000, 2, null); // long 2 @ 100.0
    expect(l.sessionPnlUsd(1010)).toBe(2);
    expect(l.sessionPnlUsd(1020)).toBe(4);
    expect(l.sessionPnlUsd(null)).toBe(0); // no mark: no unrealized PnL
    l.applyFill('sell', 1020, 1, null);
    expect(l.sessionPnlUsd(1020)).toBe(4);
    l.addFee(new Decimal('0.5')); // paid
    expect(l.sessionPnlUsd(1020)).toBe(3.5);
    l.realized = new Decimal(10);
    expect(l.sessionPnlUsd(1020)).toBe(11.5);
    l.qty = 0;
    expect(l.sessionPnlUsd(1020)).toBe(9.5);
  });

  it('sessionPnlUsd leaves out the start-up position\'s unrealized PnL at the first mark', () => {
    const l = new PositionLedger(inst);
    l.seed(3, new Decimal(300)); // long 3 @ 100.0 as the venue books it
    l.markOpening();
    expect(l.sessionPnlUsd(null)).toBe(0);
    expect(l.sessionPnlUsd(990)).toBe(0); // the first mark: a loss of 3 made before this session
    expect(l.sessionPnlUsd(1000)).toBe(3);
  });

  it('sessionPnlUsd is the Decimal breakdown total converted, to within 1e-12 of the total', () => {
    const ten = { ...inst, multiplier: new Decimal(10) };
    const fill = fc.record({ buy: fc.boolean(), price: fc.integer({ min: 1, max: 2_000_000 }), qty: fc.integer({ min: 1, max: 5_000 }), mid: fc.option(fc.integer({ min: 2, max: 4_000_000 }).map((x) => x / 2)), fee: fc.constantFrom('0', '0.13', '-0.07') });
    fc.assert(
      fc.property(fc.boolean(), fc.array(fill, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4_000_000 }).map((x) => x / 2), (mult10, fills, mark) => {
        const l = new PositionLedger(mult10 ? ten : inst);
        for (const f of fills) {
          l.applyFill(f.buy ? 'buy' : 'sell', f.price, f.qty, f.mid);
          l.addFee(new Decimal(f.fee));
          const exact = l.breakdown(mark).total.toNumber();
          expect(Math.abs(l.sessionPnlUsd(mark) - exact)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(exact), Math.abs(l.qty * f.price * (mult10 ? 10 : 1))));
        }
      }),
    );
  });

  it('seeds a venue position from its cost basis (multiplier included), and from the first mark without one', () => {
    const gold = { ...inst, multiplier: new Decimal(10) };
    const l = new PositionLedger(gold);
    // Short 3 contracts × 10 oz, cost basis −6,045: entry 201.5.
    l.seed(-3, new Decimal('-6045'));
    expect(l.avgPrice!.toFixed()).toBe('201.5');
    expect(l.costBasis().toFixed()).toBe('-6045');
    l.observeMark(2100); // a seeded entry price is not replaced by the mark
    expect(l.avgPrice!.toFixed()).toBe('201.5');
    l.applyFill('buy', 2000, 1, null); // close 1 @ 200.0: (201.5 − 200) × 10 = +15
    expect(l.realized.toFixed()).toBe('15');
    expect(l.costBasis().toFixed()).toBe('-4030');
    const unpriced = new PositionLedger(gold);
    unpriced.seed(2, null);
    expect(unpriced.costBasis().toFixed()).toBe('0');
    unpriced.observeMark(1995);
    expect(unpriced.avgPrice!.toFixed()).toBe('199.5');
  });

  it('splits trading PnL into spread capture and inventory', () => {
    const l = new PositionLedger(inst);
    l.applyFill('buy', 999, 1, 1000); // bought 0.1 under the mid: +0.1 captured
    l.applyFill('sell', 1011, 1, 1010); // sold 0.1 over the mid: +0.1 captured
    const b = l.breakdown(1010);
    expect(b.spreadCapture.toNumber()).toBeCloseTo(0.2, 12);
    expect(b.realized.toNumber()).toBeCloseTo(1.2, 12);
    expect(b.inventory.toNumber()).toBeCloseTo(1.0, 12); // the mid moved 1.0 while long 1
    l.addFee(new Decimal('0.05'));
    l.addFunding(new Decimal('-0.01'));
    expect(l.breakdown(1010).total.toNumber()).toBeCloseTo(1.2 - 0.05 - 0.01, 12);
  });

  it('prices a seeded position at the first mark', () => {
    const l = new PositionLedger(inst);
    l.seed(3);
    expect(l.unrealized(1000).toNumber()).toBe(0);
    l.observeMark(1000);
    expect(l.unrealized(1010).toNumber()).toBeCloseTo(3, 12);
  });

  it('property: realized + unrealized equals cash flow marked to market', () => {
    const fill = fc.record({ buy: fc.boolean(), px: fc.integer({ min: 900, max: 1100 }), qty: fc.integer({ min: 1, max: 20 }) });
    fc.assert(
      fc.property(fc.array(fill, { minLength: 1, maxLength: 30 }), fc.integer({ min: 900, max: 1100 }), (fills, mark) => {
        const l = new PositionLedger(inst);
        let cash = new Decimal(0);
        let q = 0;
        for (const f of fills) {
          l.applyFill(f.buy ? 'buy' : 'sell', f.px, f.qty, null);
          const px = new Decimal(f.px).mul('0.1');
          cash = f.buy ? cash.minus(px.mul(f.qty)) : cash.plus(px.mul(f.qty));
          q += f.buy ? f.qty : -f.qty;
        }
        expect(l.qty).toBe(q);
        const mtm = cash.plus(new Decimal(mark).mul('0.1').mul(q));
        const b = l.breakdown(mark);
        expect(b.realized.plus(b.unrealized).minus(mtm).abs().toNumber()).toBeLessThan(1e-9);
      }),
      { numRuns: 200 },
    );
  });
});
