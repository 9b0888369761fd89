import { describe, expect, it } from 'vitest';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import { isDesiredQuotes, MarketCalibrator, parseStrategyParams, type ModelCalibration, type Strategy, type StrategyDefinition } from '../../src/strategy/index.ts';
import { avellanedaStoikovModel, avellanedaStoikovParams, strategy as avellanedaStoikov } from '../../strategies/avellaneda-stoikov/index.ts';
import { glftModel, glftParams, strategy as glft } from '../../strategies/glft/index.ts';
import { book, ctxAt, SYM, warmUp } from './synthetic-market.ts';

const make = (def: StrategyDefinition, raw: Record<string, unknown>): Strategy => def.create(parseStrategyParams(def, raw));
const quotes = (s: Strategy, ...args: Parameters<typeof ctxAt>): DesiredQuotes => {
  const out = s.quote(ctxAt(...args));
  if (!isDesiredQuotes(out)) throw new Error('expected desired quotes');
  return out;
};

/** Bid-side markouts of `adverseTicks` after each of 40 maker buys at the touch (book mid ± h), then one quote on the original book. */
function pickedOffBids(s: Strategy, adverseTicks: number, h = 1): DesiredQuotes {
  let t = 0;
  const mid = 10_000;
  for (let i = 0; i < 40; i++) {
    quotes(s, t, book(mid - h, mid + h));
    const fill = { symbol: SYM, side: 'buy' as const, priceTicks: mid - h, qty: 200, liquidity: 'maker' as const, tsMs: t + 10, clientOrderId: null };
    quotes(s, t + 20, book(mid - h, mid + h), 0, { fills: [fill] });
    quotes(s, t + 500, book(mid - h - adverseTicks, mid + h - adverseTicks));
    quotes(s, t + 1500, book(mid - h - adverseTicks, mid + h - adverseTicks));
    t += 2000;
  }
  return quotes(s, t + 1000, book(mid - h, mid + h));
}

describe.each([
  ['avellaneda-stoikov', avellanedaStoikov],
  ['glft', glft],
] as const)('%s adverse selection', (_n, def) => {
  it('add (default) puts the measured adverse move on top of the depth; floor only floors the half-spread with it', () => {
    // lossFeedback off: what the fills still lose past the adverse move is tested on its own.
    const add = pickedOffBids(make(def, { size: 200, maxPosition: 1500, adverseHorizonS: 1, lossFeedback: 0 }), 4, 3);
    const floor = pickedOffBids(make(def, { size: 200, maxPosition: 1500, adverseHorizonS: 1, adverseSelection: 'floor', lossFeedback: 0 }), 4, 3);
    // About 4 × 0.79 = 3.1 ticks of shrunk adverse move on the bid (a prior worth 10 fills against
    // ~37 decayed ones) on a ±3-tick book: floor gives a 3.1-tick half-spread (bid 4 below the mid
    // after snapping down), add the touch's 3 ticks plus 3 whole ticks (6).
    expect(10_000 - floor.bids[0]!.priceTicks).toBe(4);
    expect(10_000 - add.bids[0]!.priceTicks).toBe(6);
    // The ask side was never picked off: at the touch either way.
    expect(add.asks[0]!.priceTicks).toBe(10_003);
    expect(floor.asks[0]!.priceTicks).toBe(10_003);
  });
});

describe('adverse selection is forgotten in time, not only by newer fills', () => {
  it('a side no longer filled comes back to the touch after a few volHalfLifeS', () => {
    const s = make(glft, { size: 200, maxPosition: 1500, adverseHorizonS: 1, volHalfLifeS: 60 });
    expect(10_000 - pickedOffBids(s, 4).bids[0]!.priceTicks).toBeGreaterThanOrEqual(3);
    // 81 s of picked-off buys, then 10 minutes (10 half-lives) without a fill.
    const later = quotes(s, 81_000 + 600_000, book(9_999, 10_001));
    expect(later.bids[0]!.priceTicks).toBe(9_999);
  });
});

describe('MarketCalibrator volatility regime', () => {
  it('σ now jumps with the fast estimate and decays with the regular one; the long-run σ barely moves', () => {
    const cal = new MarketCalibrator({ volHalfLifeMs: 300_000, fastVolHalfLifeMs: 30_000, intensityHalfLifeMs: 1_800_000 });
    let mid = 10_000;
    let t = 0;
    // 10 minutes of a ±1-tick alternating mid (σ = 1 tick/√s), then one 40-tick jump.
    for (; t <= 600_000; t += 1000) {
      mid += t % 2000 === 0 ? 1 : -1;
      cal.observe(ctxAt(t, book(mid - 1, mid + 1)), t);
    }
    const before = { now: cal.sigmaNow, reg: cal.sigma, long: cal.sigmaLong };
    expect(before.now).toBeCloseTo(1, 6);
    mid += 40;
    cal.observe(ctxAt(t, book(mid - 1, mid + 1)), t);
    expect(cal.sigmaNow / before.now).toBeGreaterThan(4);
    expect(cal.sigmaNow).toBeGreaterThan(cal.sigma);
    expect(cal.sigmaLong).toBeLessThan(cal.sigma);
    // Seven fast half-lives later the regular estimate carries the widening.
    for (t += 1000; t <= 810_000; t += 1000) {
      mid += t % 2000 === 0 ? 1 : -1;
      cal.observe(ctxAt(t, book(mid - 1, mid + 1)), t);
    }
    expect(cal.sigmaNow).toBeCloseTo(cal.sigma, 12);
    expect(cal.sigma).toBeGreaterThan(1.2);
  });
});

describe('A–S and GLFT follow their own formulas', () => {
  const base: ModelCalibration = { sigma: 1, sigmaRisk: 1, fit: { aPerS: 2, kPerTick: 0.5, bins: 8 }, qMaxLots: 8, marketHalfSpreadTicks: 1, nowMs: 0 };
  const skewAt = (m: ReturnType<typeof glftModel>, q: number): { shift: number; half: number } => {
    const out = { bid: 0, ask: 0 };
    m.price(1000, q, 0, out);
    return { shift: 1000 - (out.bid + out.ask) / 2, half: (out.ask - out.bid) / 2 };
  };
  it('σ above its long-run level scales the A–S inventory shift by σ² and the GLFT one by σ', () => {
    const as = avellanedaStoikovModel(avellanedaStoikovParams.parse({ size: 1, maxPosition: 8 }));
    const gl = glftModel(glftParams.parse({ size: 1, maxPosition: 8 }));
    expect(as.refit(base) && gl.refit(base)).toBe(true);
    const as1 = skewAt(as, 3);
    const gl1 = skewAt(gl, 3);
    expect(as.refit({ ...base, sigma: 2 }) && gl.refit({ ...base, sigma: 2 })).toBe(true);
    expect(skewAt(as, 3).shift / as1.shift).toBeCloseTo(4, 9);
    expect(skewAt(gl, 3).shift / gl1.shift).toBeCloseTo(2, 9);
    // The spreads widen too: A–S by its γσ²τ term, GLFT by ½σc₂.
    expect(skewAt(as, 0).half).toBeGreaterThan(as1.half);
    expect(skewAt(gl, 0).half).toBeGreaterThan(gl1.half);
  });

  it('the inventory shift at maxPosition is inventorySkew × max(half-spread, σ√(qMax/A))', () => {
    // σ = 3 ticks/√s, τ = 8 lots / 2 per s = 4 s: σ√τ = 6 ticks, above the half-spreads here.
    const c = { ...base, sigma: 3, sigmaRisk: 3 };
    for (const m of [avellanedaStoikovModel(avellanedaStoikovParams.parse({ size: 1, maxPosition: 8 })), glftModel(glftParams.parse({ size: 1, maxPosition: 8 }))]) {
      expect(m.refit(c)).toBe(true);
      const { shift, half } = skewAt(m, 8);
      expect(shift).toBeCloseTo(6, 9);
      expect(half).toBeLessThan(6);
    }
    // inventoryRisk: false: the half-spread scale only (market half 1 + the model's half).
    for (const m of [avellanedaStoikovModel(avellanedaStoikovParams.parse({ size: 1, maxPosition: 8, inventoryRisk: false })), glftModel(glftParams.parse({ size: 1, maxPosition: 8, inventoryRisk: false }))]) {
      expect(m.refit(c)).toBe(true);
      const flat = skewAt(m, 0);
      const { shift } = skewAt(m, 8);
      expect(shift).toBeCloseTo(1 + flat.half, 9);
      expect(shift).toBeLessThan(6);
    }
  });
});

describe('glft inventoryModel: bounded', () => {
  it('quotes the exact bounded solution: the growing side stops where a fill would pass maxPosition', () => {
    const s = make(glft, { size: 10, maxPosition: 100, inventoryModel: 'bounded' }) as Strategy & { calibrated(): boolean };
    const { mid, nowMs } = warmUp(s, { sigma: 1, aPerS: 3, k: 0.4, spreadTicks: 2, durationS: 300 });
    expect(s.calibrated()).toBe(true);
    const bid = Math.floor(mid - 1);
    const flat = quotes(s, nowMs + 1000, book(bid, bid + 2), 0);
    expect(flat.bids).toHaveLength(1);
    expect(flat.asks).toHaveLength(1);
    // 95 contracts = 9.5 lots of 10: one more bid lot would pass the 10-lot bound.
    const top = quotes(s, nowMs + 1000, book(bid, bid + 2), 95);
    expect(top.bids).toHaveLength(0);
    expect(top.asks).toHaveLength(1);
    const bottom = quotes(s, nowMs + 1000, book(bid, bid + 2), -95);
    expect(bottom.asks).toHaveLength(0);
    expect(bottom.bids).toHaveLength(1);
  });
});
