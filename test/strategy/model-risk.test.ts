import { describe, expect, it } from 'vitest';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import { holdingHorizonS, isDesiredQuotes, MarketCalibrator, parseStrategyParams, riskBudgetGamma, type ModelCalibration, type Strategy, type StrategyDefinition } from '../../src/strategy/index.ts';
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
    // edgeGuard off: what the fills still lose past the adverse move is tested on its own (edge-guard.test.ts).
    const add = pickedOffBids(make(def, { size: 200, maxPosition: 1500, toxicityGuard: false, adverseHorizonS: 1, edgeGuard: 'off' }), 4, 3);
    const floor = pickedOffBids(make(def, { size: 200, maxPosition: 1500, toxicityGuard: false, adverseHorizonS: 1, adverseSelection: 'floor', edgeGuard: 'off' }), 4, 3);
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
    // The edge guard keeps its own, longer memory (intensityHalfLifeS; edge-guard.test.ts): off here.
    const s = make(glft, { size: 200, maxPosition: 1500, toxicityGuard: false, adverseHorizonS: 1, volHalfLifeS: 60, edgeGuard: 'off' });
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
  // γ from the risk budget: qMax 8 lots, long-run σ 1 tick/√s, H = 8 lots / 2 per s = 4 s: γ = 1/(8·1·2).
  const base: ModelCalibration = { sigma: 1, sigmaRisk: 1, fit: { aPerS: 2, kPerTick: 0.5, bins: 8 }, qMaxLots: 8, gamma: riskBudgetGamma(1, 8, 1, 4), holdingS: 4, marketHalfSpreadTicks: 1, nowMs: 0 };
  const skewAt = (m: ReturnType<typeof glftModel>, q: number): { shift: number; half: number; bid: number; ask: number } => {
    const out = { bid: 0, ask: 0 };
    m.price(1000, q, 0, out);
    return { shift: 1000 - (out.bid + out.ask) / 2, half: (out.ask - out.bid) / 2, bid: out.bid, ask: out.ask };
  };
  const as = (): ReturnType<typeof glftModel> => avellanedaStoikovModel(avellanedaStoikovParams.parse({ size: 1, maxPosition: 8 }));
  const gl = (): ReturnType<typeof glftModel> => glftModel(glftParams.parse({ size: 1, maxPosition: 8 }));

  it('the risk budget gives γ a meaning: γ = riskAversion / (qMax·σ·√H); A–S at maxPosition then shifts one σ√H', () => {
    expect(riskBudgetGamma(1, 8, 1, 4)).toBeCloseTo(1 / 16, 15);
    expect(riskBudgetGamma(2, 8, 3, 4)).toBeCloseTo(2 / 48, 15);
    expect(holdingHorizonS(8, 2)).toBe(4);
    expect(holdingHorizonS(8, 2, 30)).toBe(30);
    const m = as();
    expect(m.refit({ ...base, sigma: 3, sigmaRisk: 3, gamma: riskBudgetGamma(1, 8, 3, 4) })).toBe(true);
    expect(skewAt(m, 8).shift).toBeCloseTo(3 * Math.sqrt(4), 12);
  });

  it('A–S closed form, checked by hand: s = 1000, q = 2, γ = 0.1, σ = 2, τ = 10 s, k = 1.5', () => {
    // r = 1000 − 2·0.1·4·10 = 992; δᵃ + δᵇ = 0.1·4·10 + (2/0.1)·ln(1 + 0.1/1.5) = 4 + 20·ln(16/15).
    const m = avellanedaStoikovModel(avellanedaStoikovParams.parse({ size: 1, maxPosition: 8, horizonS: 10 }));
    expect(m.refit({ ...base, sigma: 2, sigmaRisk: 2, gamma: 0.1, fit: { aPerS: 7, kPerTick: 1.5, bins: 3 } })).toBe(true);
    const half = (4 + 20 * 0.0645385211375712) / 2; // ln(16/15) = 0.0645385211375712
    const { bid, ask } = skewAt(m, 2);
    expect(bid).toBeCloseTo(992 - half, 12);
    expect(ask).toBeCloseTo(992 + half, 12);
    expect(bid).toBeCloseTo(989.3546147886243, 10);
  });

  it('σ above its long-run level scales the A–S inventory shift by σ² and the GLFT one by σ', () => {
    const a = as();
    const g = gl();
    expect(a.refit(base) && g.refit(base)).toBe(true);
    const as1 = skewAt(a, 3);
    const gl1 = skewAt(g, 3);
    expect(a.refit({ ...base, sigma: 2 }) && g.refit({ ...base, sigma: 2 })).toBe(true);
    expect(skewAt(a, 3).shift / as1.shift).toBeCloseTo(4, 9);
    expect(skewAt(g, 3).shift / gl1.shift).toBeCloseTo(2, 9);
    // So in the spike they no longer quote alike: A–S leans twice as far as before relative to GLFT.
    expect(skewAt(a, 3).shift / skewAt(g, 3).shift).toBeCloseTo((2 * as1.shift) / gl1.shift, 9);
    // The spreads widen too: A–S by its γσ²τ term, GLFT by ½σc₂.
    expect(skewAt(a, 0).half).toBeGreaterThan(as1.half);
    expect(skewAt(g, 0).half).toBeGreaterThan(gl1.half);
  });

  describe.each([
    ['avellaneda-stoikov', as],
    ['glft', gl],
  ] as const)('%s: σ, A, k and γ move the quotes as theory says (strict)', (_n, make) => {
    const at = (c: Partial<ModelCalibration>, q: number) => {
      const m = make();
      expect(m.refit({ ...base, ...c })).toBe(true);
      return skewAt(m, q);
    };
    it('σ up: wider spread, stronger skew', () => {
      expect(at({ sigma: 2 }, 0).half).toBeGreaterThan(at({}, 0).half);
      expect(at({ sigma: 2 }, 3).shift).toBeGreaterThan(at({}, 3).shift);
    });
    it('A up (more flow, shorter holding horizon H = qMax/A, γ from the budget): tighter spread, weaker skew', () => {
      const moreFlow = { fit: { aPerS: 8, kPerTick: 0.5, bins: 8 }, holdingS: 1, gamma: riskBudgetGamma(1, 8, 1, 1) };
      expect(at(moreFlow, 0).half).toBeLessThan(at({}, 0).half);
      expect(at(moreFlow, 3).shift).toBeLessThan(at({}, 3).shift);
    });
    it('k up (flow falls off faster with depth): tighter spread', () => {
      expect(at({ fit: { aPerS: 2, kPerTick: 1.5, bins: 8 } }, 0).half).toBeLessThan(at({}, 0).half);
    });
    it('γ up: stronger skew', () => {
      expect(at({ gamma: base.gamma * 2 }, 3).shift).toBeGreaterThan(at({}, 3).shift);
    });
    it('shift away from the inventory: bid and ask both strictly lower as q grows, the bid farther than the ask when long', () => {
      for (let q = -7; q < 8; q++) {
        const lo = at({}, q);
        const hi = at({}, q + 1);
        expect(hi.bid).toBeLessThan(lo.bid);
        expect(hi.ask).toBeLessThan(lo.ask);
        if (q + 1 > 0) expect(1000 - hi.bid).toBeGreaterThan(hi.ask - 1000);
      }
    });
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

describe.each([
  ['avellaneda-stoikov', avellanedaStoikov],
  ['glft', glft],
] as const)('%s final quotes (the whole quoter, floors off by default): σ, A, k and γ each move them as theory says', (_n, def) => {
  // Calibrated online on the same synthetic market but for one input; then one quote long 5 lots
  // (of 10) on a wide book, so that post-only never clamps: spread = ask − bid, lean = how far the
  // quotes' centre sits below the fair value (ticks).
  const final = (market: Parameters<typeof warmUp>[1], params: Record<string, unknown> = {}): { spread: number; lean: number } => {
    // queueAware off: its join-the-touch would snap the model's prices this test reads.
    const s = make(def, { size: 10, maxPosition: 100, flowAlpha: false, queueAware: false, ...params });
    const { mid, nowMs } = warmUp(s, { sigma: 1, aPerS: 3, k: 0.5, spreadTicks: 2, durationS: 600, seed: 5, ...market });
    const b = Math.floor(mid - 1);
    const out = quotes(s, nowMs + 100, book(b - 20, b + 22), 50);
    return { spread: out.asks[0]!.priceTicks - out.bids[0]!.priceTicks, lean: b + 1 - (out.asks[0]!.priceTicks + out.bids[0]!.priceTicks) / 2 };
  };
  const base = final({});
  it('σ up: wider and leaning further from the inventory', () => {
    const x = final({ sigma: 4 });
    expect(x.spread).toBeGreaterThan(base.spread);
    expect(x.lean).toBeGreaterThan(base.lean);
  });
  it('A up: leaning less, and no wider (GLFT tighter: c₂ ∝ 1/√A; A–S sees A only through τ, a fraction of a tick here)', () => {
    const x = final({ aPerS: 24 });
    expect(x.lean).toBeLessThan(base.lean);
    if (def === glft) expect(x.spread).toBeLessThan(base.spread);
    else expect(x.spread).toBeLessThanOrEqual(base.spread);
  });
  it('k up: tighter', () => expect(final({ k: 1.5 }).spread).toBeLessThan(base.spread));
  it('γ up (riskAversion 4): leaning further', () => expect(final({}, { riskAversion: 4 }).lean).toBeGreaterThan(base.lean));
});

describe.each([
  ['avellaneda-stoikov', avellanedaStoikov],
  ['glft', glft],
] as const)('%s toxicityGuard (on by default)', (_n, def) => {
  it('widens the picked-off side further than the quoter alone, keeps the other side, and keeps the calibration readable', () => {
    const off = pickedOffBids(make(def, { size: 200, maxPosition: 1500, toxicityGuard: false, adverseHorizonS: 1, edgeGuard: 'off' }), 4, 3);
    const s = make(def, { size: 200, maxPosition: 1500, adverseHorizonS: 1, edgeGuard: 'off' });
    const on = pickedOffBids(s, 4, 3);
    // Without: the touch's 3 ticks plus 3 whole ticks of measured adverse move (the test above).
    expect(10_000 - off.bids[0]!.priceTicks).toBe(6);
    // With: the guard's 5 s markouts of the 4-tick move (−4 bps of 10,000 ticks) widen the bid by
    // 4 more ticks, capped at 3 half-spreads of the inner quote.
    expect(10_000 - on.bids[0]!.priceTicks).toBe(10);
    expect(on.asks[0]!.priceTicks).toBe(off.asks[0]!.priceTicks);
    // Readable through the guard (40 fills on a flat book leave σ, A, k uncalibrated: the fallback quotes).
    expect((s as Strategy & { calibrated: () => boolean }).calibrated()).toBe(false);
  });
});
