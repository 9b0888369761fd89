import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import {
  DEFAULT_REWARD_SCORE_PARAMS as P,
  capUsdFor,
  combineSides,
  epochShares,
  orderScore,
  scoreMinute,
  waterFillCap,
  type ScoredOrder,
} from '../../src/domain/reward-score.ts';

const o = (accountId: string, side: 'buy' | 'sell', price: number, qty: number, restedMs = 10_000): ScoredOrder => ({
  accountId,
  side,
  price,
  qty,
  multiplier: 1,
  restedMs,
});

describe('reward score model (docs/venue-rules.md §12.3)', () => {
  it('quadratic weighting: half the max spread scores a quarter', () => {
    const mid = 100;
    const at0 = orderScore(o('a', 'buy', 100, 10), mid, P);
    const atHalf = orderScore(o('a', 'buy', 100 - 0.25, 10), mid, P); // 25 bps of 50
    expect(at0).toBeCloseTo(1000);
    expect(atHalf / (99.75 * 10)).toBeCloseTo(0.25);
  });

  it('orders outside max spread, below min notional or too fresh do not count', () => {
    expect(orderScore(o('a', 'buy', 99.4, 10), 100, P)).toBe(0);
    expect(orderScore(o('a', 'buy', 99.9, 1), 100, P)).toBe(0);
    expect(orderScore(o('a', 'buy', 99.9, 10, 1_000), 100, P)).toBe(0);
  });

  it('dydx and exp curves decay with distance', () => {
    const dydx = { ...P, curve: 'dydx' as const };
    expect(orderScore(o('a', 'buy', 99.9, 10), 100, dydx)).toBeGreaterThan(orderScore(o('a', 'buy', 99.8, 10), 100, dydx));
    const ex = { ...P, curve: 'exp' as const };
    expect(orderScore(o('a', 'buy', 99.9, 10), 100, ex)).toBeGreaterThan(orderScore(o('a', 'buy', 99.8, 10), 100, ex));
  });

  it('one-sided quoting scores max/c; two-sided scores the min', () => {
    expect(combineSides(30, 0, P)).toBe(10);
    expect(combineSides(30, 20, P)).toBe(20);
  });

  it('per-minute shares sum to 1 across accounts, 0 without a mid', () => {
    const orders = [o('a', 'buy', 99.95, 10), o('a', 'sell', 100.05, 10), o('b', 'buy', 99.9, 10)];
    const m = scoreMinute(orders, 100, P);
    const total = [...m.values()].reduce((s, x) => s + x.share, 0);
    expect(total).toBeCloseTo(1);
    expect(m.get('a')!.share).toBeGreaterThan(m.get('b')!.share);
    expect(scoreMinute(orders, undefined, P).size).toBe(0);
  });

  it('epoch share is the weighted average of minute shares; unquoted minutes count as 0', () => {
    const minutes = [
      { weight: 1, shares: new Map([['a', 1]]) },
      { weight: 1, shares: new Map([['b', 1]]) },
      { weight: 2, shares: new Map([['a', 0.5], ['b', 0.5]]) },
    ];
    const s = epochShares(minutes, P);
    expect(s.get('a')).toBeCloseTo(0.5);
    expect(s.get('b')).toBeCloseTo(0.5);
    const harsh = epochShares([{ weight: 1, shares: new Map([['a', 1]]) }, { weight: 1, shares: new Map() }], { uptimeExponent: 5 });
    expect(harsh.get('a')).toBeCloseTo(0.5 * 0.5 ** 4);
  });

  it('water-fill caps an account and redistributes the excess pro rata', () => {
    const shares = new Map([['a', 0.7], ['b', 0.2], ['c', 0.1]]);
    const out = waterFillCap(shares, new Decimal(1000), new Decimal(400));
    expect(out.get('a')!.final.toNumber()).toBe(400);
    expect(out.get('a')!.capAdjustment.toNumber()).toBe(-300);
    expect(out.get('b')!.final.toNumber()).toBeCloseTo(400);
    expect(out.get('c')!.final.toNumber()).toBeCloseTo(200);
    expect(out.get('c')!.capAdjustment.toNumber()).toBeCloseTo(100);
  });

  it('cap from pct and absolute: tighter wins', () => {
    expect(capUsdFor(new Decimal(1000), 30, 250)!.toNumber()).toBe(250);
    expect(capUsdFor(new Decimal(1000), 20, null)!.toNumber()).toBe(200);
    expect(capUsdFor(new Decimal(1000), null, null)).toBeNull();
  });

  it('property: water-fill never exceeds the cap, never pays more than the pool, and adj = final − raw', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 1000 }), (ws, cap) => {
        const sum = ws.reduce((s, x) => s + x, 0) || 1;
        const shares = new Map(ws.map((w, i) => [`a${i}`, w / sum] as const));
        const out = waterFillCap(shares, new Decimal(1000), new Decimal(cap));
        let total = new Decimal(0);
        for (const v of out.values()) {
          expect(v.final.lte(new Decimal(cap).plus(1e-9))).toBe(true);
          expect(v.final.minus(v.raw).minus(v.capAdjustment).abs().lt(1e-9)).toBe(true);
          total = total.plus(v.final);
        }
        expect(total.lte(1000.000001)).toBe(true);
      }),
    );
  });
});
