import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asClientOrderId } from '../../src/core/index.ts';
import type { DesiredQuotes, TradePrinted } from '../../src/domain/index.ts';
import { isDesiredQuotes, parseStrategyParams, type ModelCalibration, type Strategy, type StrategyDefinition, type WorkingOrder } from '../../src/strategy/index.ts';
import { strategy as avellanedaStoikov } from '../../strategies/avellaneda-stoikov/index.ts';
import { strategy as fixedSpread } from '../../strategies/fixed-spread/index.ts';
import { strategy as glft } from '../../strategies/glft/index.ts';
import { FlowStateMarkouts } from '../../src/strategy/estimators/flow-state-markouts.ts';
import { book, ctxAt, SYM, warmUp } from './synthetic-market.ts';

const defs: readonly StrategyDefinition[] = [avellanedaStoikov, glft];
const make = (def: StrategyDefinition, raw: Record<string, unknown>): Strategy => def.create(parseStrategyParams(def, raw));
const quotes = (s: Strategy, ...args: Parameters<typeof ctxAt>): DesiredQuotes => {
  const out = s.quote(ctxAt(...args));
  if (!isDesiredQuotes(out)) throw new Error('expected desired quotes');
  return out;
};
const inflight = (side: 'buy' | 'sell', qty: number, status: WorkingOrder['status']): WorkingOrder => ({
  clientOrderId: asClientOrderId('1'),
  orderId: null,
  symbol: SYM,
  side,
  priceTicks: 1,
  qty,
  filledQty: 0,
  status,
  adopted: false,
  createdMs: 0,
});
const sum = (ls: DesiredQuotes['bids']): number => ls.reduce((a, l) => a + l.qty, 0);

describe.each(defs.map((d) => [d.name, d] as const))('%s', (_name, def) => {
  it('runs with only size and maxPosition: before calibration it joins the touch with an inventory skew, never crashes', () => {
    const s = make(def, { size: 200, maxPosition: 1500 });
    expect(quotes(s, 0, null)).toEqual({ symbol: SYM, bids: [], asks: [] });
    expect(quotes(s, 1, { ...book(100, 104), asks: [] })).toEqual({ symbol: SYM, bids: [], asks: [] });
    // Fallback: half-spread = half the observed spread (2 ticks) around mid 102: the touch.
    expect(quotes(s, 2, book(100, 104))).toEqual({ symbol: SYM, bids: [{ priceTicks: 100, qty: 200 }], asks: [{ priceTicks: 104, qty: 200 }] });
    // Long 750 of 1500: the fallback shifts both quotes down by ½ × 2 ticks.
    expect(quotes(s, 3, book(100, 104), 750)).toMatchObject({ bids: [{ priceTicks: 99 }], asks: [{ priceTicks: 103 }] });
    // A one-tick book (fresh instance: the observed spread is an average): at the touch.
    expect(quotes(make(def, { size: 200, maxPosition: 1500 }), 4, book(100, 101))).toMatchObject({ bids: [{ priceTicks: 100 }], asks: [{ priceTicks: 101 }] });
    // fallbackWidth 2 quotes one full spread from the fair value.
    expect(quotes(make(def, { size: 200, maxPosition: 1500, fallbackWidth: 2 }), 4, book(100, 104))).toMatchObject({ bids: [{ priceTicks: 98 }], asks: [{ priceTicks: 106 }] });
  });

  it('floors the half-spread at the maker fee (in ticks of the fair value)', () => {
    // Mid 10 000 ticks, maker 2 bps = 2 ticks: a one-tick book is quoted 2 ticks from the mid, not at the touch.
    const s = make(def, { size: 200, maxPosition: 1500 });
    const fees = { maker: 0.0002, taker: 0.0005 };
    expect(quotes(s, 0, book(9999, 10001), 0, { fees })).toMatchObject({ bids: [{ priceTicks: 9998 }], asks: [{ priceTicks: 10002 }] });
    // A rebate (negative maker fee) never pulls the quotes inside the market's floor.
    expect(quotes(make(def, { size: 200, maxPosition: 1500 }), 0, book(9999, 10001), 0, { fees: { maker: -0.0002, taker: 0.0005 } })).toMatchObject({ bids: [{ priceTicks: 9999 }], asks: [{ priceTicks: 10001 }] });
  });

  it('backs off the side whose flow state loses on the public prints: widen by the loss in whole ticks, pull, or off', () => {
    // Every 20 s a burst of three 1-lot sells hits the bids at 9998 and the book then sits 4 ticks
    // lower for 10 s: every print's resting buyer lost 2 ticks at the 10 s horizon. An estimator fed
    // the same prints and mids says what a bid in the state after a burst loses; widen moves the bid
    // out by that loss rounded to whole ticks, pull takes it away, and the asks (never hit) stay.
    const sell = (t: number): TradePrinted => ({ type: 'trade', symbol: SYM, priceTicks: 9998, qty: 200, aggressor: 'sell', tsEvent: t, tsRecv: t });
    const run = (flowState: string, witness?: FlowStateMarkouts): DesiredQuotes => {
      const s = make(def, { size: 200, maxPosition: 1500, toxicityGuard: false, flowAlpha: false, flowState });
      const at = (t: number, bid: number, ask: number, trades: TradePrinted[] = []): DesiredQuotes => {
        for (const x of trades) witness?.onTrade(x.priceTicks, x.qty, false, t);
        witness?.updateMid(t, (bid + ask) / 2);
        return quotes(s, t, book(bid, ask), 0, { trades });
      };
      let t = 0;
      for (let i = 0; i < 60; i++, t += 20_000) {
        for (const dt of [0, 100, 200]) at(t + dt, 9998, 10_002, [sell(t + dt)]);
        for (let k = 300; k < 10_500; k += 500) at(t + k, 9994, 9998);
        for (let k = 10_500; k < 20_000; k += 500) at(t + k, 9998, 10_002);
      }
      at(t, 9998, 10_002, [sell(t)]);
      at(t + 100, 9998, 10_002, [sell(t + 100)]);
      return at(t + 200, 9998, 10_002, [sell(t + 200)]);
    };
    const witness = new FlowStateMarkouts({ flowHalfLifeMs: 5000, horizonMs: 10_000, halfLifeMs: 1_800_000, lotSize: 200 });
    const off = run('off', witness);
    const loss = Math.round(-witness.expectedTicks(1, 60 * 20_000 + 200));
    expect(loss).toBeGreaterThanOrEqual(1);
    expect(witness.expectedTicks(-1, 60 * 20_000 + 200)).toBe(0);
    const widen = run('widen');
    const pull = run('pull');
    expect(off.bids).toHaveLength(1);
    expect(widen.bids[0]!.priceTicks).toBe(off.bids[0]!.priceTicks - loss);
    expect(widen.asks).toEqual(off.asks);
    expect(pull.bids).toEqual([]);
    expect(pull.asks).toEqual(off.asks);
  });

  it('widens the side whose own fills are picked off by the adverse move they measure', () => {
    const s = make(def, { size: 200, maxPosition: 1500, toxicityGuard: false, adverseHorizonS: 1 });
    let t = 0;
    const mid = 10_000;
    // Every 2 s one of our bids is filled at the touch and the mid then falls 4 ticks for a while.
    for (let i = 0; i < 40; i++) {
      quotes(s, t, book(mid - 1, mid + 1));
      const fill = { symbol: SYM, side: 'buy' as const, priceTicks: mid - 1, qty: 200, liquidity: 'maker' as const, tsMs: t + 10, clientOrderId: null };
      quotes(s, t + 20, book(mid - 1, mid + 1), 0, { fills: [fill] });
      quotes(s, t + 500, book(mid - 5, mid - 3));
      quotes(s, t + 1500, book(mid - 5, mid - 3));
      t += 2000;
    }
    const out = quotes(s, t + 1000, book(mid - 1, mid + 1));
    // About 4 ticks of adverse move per buy (shrunk toward 0 by the prior): the bid is well off the
    // touch; no sell was picked off, so the ask stays at the touch.
    expect(mid - out.bids[0]!.priceTicks).toBeGreaterThanOrEqual(3);
    expect(out.asks[0]!.priceTicks).toBe(mid + 1);
  });

  it('calibrates σ, A, k and γ online to the market it sees, then quotes from the model', () => {
    const s = make(def, { size: 10, maxPosition: 100, flowAlpha: false }) as Strategy & { calibrated(): boolean; calibration(): ModelCalibration | null };
    // Prints of 10 contracts (1 lot) at 3/s over both sides, δ = 1 (the touch) + Exp(k = 0.4) from the mid.
    const { mid, nowMs } = warmUp(s, { sigma: 1, aPerS: 3, k: 0.4, spreadTicks: 2, durationS: 1200, qty: 10 });
    expect(s.calibrated()).toBe(true);
    const c = s.calibration()!;
    // Per side, 1.5 lots/s reach the touch (δ = 1): A = 1.5·e^(0.4·1) = 2.24 lots/s at the mid.
    expect(c.fit.kPerTick).toBeGreaterThan(0.4 * 0.85);
    expect(c.fit.kPerTick).toBeLessThan(0.4 * 1.15);
    expect(c.fit.aPerS).toBeGreaterThan(1.5 * Math.exp(0.4) * 0.8);
    expect(c.fit.aPerS).toBeLessThan(1.5 * Math.exp(0.4) * 1.2);
    expect(c.sigmaRisk).toBeGreaterThan(0.8);
    expect(c.sigmaRisk).toBeLessThan(1.2);
    // H = 10 lots ÷ A, γ = 1/(10·σ·√H): the risk budget of the calibrated inputs, exactly.
    expect(c.holdingS).toBeCloseTo(10 / c.fit.aPerS, 12);
    expect(c.gamma).toBeCloseTo(1 / (10 * c.sigmaRisk * Math.sqrt(c.holdingS)), 12);
    const bidTicks = Math.floor(mid - 1);
    const q = quotes(s, nowMs + 1000, book(bidTicks, bidTicks + 2));
    expect(q.bids).toHaveLength(1);
    expect(q.asks).toHaveLength(1);
    expect(q.asks[0]!.priceTicks).toBeGreaterThan(q.bids[0]!.priceTicks);
  });

  describe('properties after calibration', () => {
    // queueAware off: the properties are the model's, before the queue-aware first level snaps to the touch.
    const s = make(def, { size: 10, maxPosition: 100, levels: 3, queueAware: false }) as Strategy & { calibrated(): boolean };
    const { nowMs } = warmUp(s, { sigma: 0.8, aPerS: 2, k: 0.6, spreadTicks: 1, durationS: 240, seed: 3 });
    it('are model quotes (calibrated)', () => expect(s.calibrated()).toBe(true));
    const arbBook = fc.record({ bid: fc.integer({ min: 9_000, max: 11_000 }), spread: fc.integer({ min: 1, max: 12 }), bq: fc.integer({ min: 1, max: 500 }), aq: fc.integer({ min: 1, max: 500 }) });

    it('never cross the book and never exceed maxPosition counting in-flight orders', () => {
      fc.assert(
        fc.property(arbBook, fc.integer({ min: -130, max: 130 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.constantFrom<WorkingOrder['status']>('pending-cancel', 'unknown', 'pending-replace', 'open'), (b, qty, inB, inA, status) => {
          const wo = [inflight('buy', inB, status), inflight('sell', inA, status)];
          const out = quotes(s, nowMs, book(b.bid, b.bid + b.spread, b.bq, b.aq), qty, { workingOrders: wo });
          const counted = status === 'open' ? 0 : 1;
          for (const l of out.bids) expect(l.priceTicks).toBeLessThan(b.bid + b.spread);
          for (const l of out.asks) expect(l.priceTicks).toBeGreaterThan(b.bid);
          if (out.bids[0] && out.asks[0]) expect(out.bids[0].priceTicks).toBeLessThan(out.asks[0].priceTicks);
          expect(qty + counted * inB + sum(out.bids)).toBeLessThanOrEqual(Math.max(100, qty + counted * inB));
          expect(-qty + counted * inA + sum(out.asks)).toBeLessThanOrEqual(Math.max(100, -qty + counted * inA));
        }),
        { numRuns: 300 },
      );
    });

    it('are symmetric around the fair value when flat (no drift, no funding)', () => {
      fc.assert(
        fc.property(arbBook, (b) => {
          const out = quotes(s, nowMs, book(b.bid, b.bid + b.spread, b.bq, b.aq), 0);
          const fair = b.bid + b.spread / 2;
          expect(out.bids.map((l) => fair - l.priceTicks)).toEqual(out.asks.map((l) => l.priceTicks - fair));
        }),
        { numRuns: 200 },
      );
    });

    it('shift away from the side of the inventory as it grows (strictly, where post-only does not clamp)', () => {
      // dq ≥ 5 lots moves the model's prices by more than a tick, so snapping cannot hide the shift.
      fc.assert(
        fc.property(arbBook, fc.integer({ min: -99, max: 49 }), fc.integer({ min: 50, max: 148 }), (b, q1, dq) => {
          const ask = b.bid + b.spread;
          const bk = book(b.bid, ask, b.bq, b.aq);
          const q2 = Math.min(99, q1 + dq);
          const lo = quotes(s, nowMs, bk, q1);
          const hi = quotes(s, nowMs, bk, q2);
          if (lo.bids[0] && hi.bids[0] && lo.bids[0].priceTicks < ask - 1) expect(hi.bids[0].priceTicks).toBeLessThan(lo.bids[0].priceTicks);
          if (lo.asks[0] && hi.asks[0] && hi.asks[0].priceTicks > b.bid + 1) expect(hi.asks[0].priceTicks).toBeLessThan(lo.asks[0].priceTicks);
          // Long 5 lots or more: the bid is strictly farther from the fair value than the ask (unless the ask is clamped).
          const fair = b.bid + b.spread / 2;
          if (q2 >= 50 && hi.bids[0] && hi.asks[0] && hi.asks[0].priceTicks > b.bid + 1) expect(fair - hi.bids[0].priceTicks).toBeGreaterThan(hi.asks[0].priceTicks - fair);
        }),
        { numRuns: 200 },
      );
    });
  });
});

describe('fixed-spread price skew', () => {
  it('is off by default and shifts both quotes against the inventory when set, staying post-only', () => {
    const plain = make(fixedSpread, { halfSpreadTicks: 4, size: 10, maxPosition: 100 });
    expect(quotes(plain, 0, book(100, 104), 50)).toMatchObject({ bids: [{ priceTicks: 98 }], asks: [{ priceTicks: 106 }] });
    const skew = make(fixedSpread, { halfSpreadTicks: 4, size: 10, maxPosition: 100, priceSkew: 1 });
    expect(quotes(skew, 0, book(100, 104), 50)).toMatchObject({ bids: [{ priceTicks: 96 }], asks: [{ priceTicks: 104 }] });
    expect(quotes(skew, 0, book(100, 104), -100)).toMatchObject({ bids: [{ priceTicks: 102 }], asks: [] });
    const strong = make(fixedSpread, { halfSpreadTicks: 1, size: 10, maxPosition: 100, priceSkew: 4 });
    expect(quotes(strong, 0, book(100, 104), 90)).toMatchObject({ asks: [{ priceTicks: 101 }] });
    expect(() => make(fixedSpread, { priceSkew: 1 })).toThrow(/priceSkew/);
  });

  it('counts in-flight orders in the hard cap', () => {
    const s = make(fixedSpread, { size: 50, levels: 2, maxPosition: 100 });
    expect(sum(quotes(s, 0, book(100, 104), 0, { workingOrders: [inflight('buy', 30, 'pending-cancel')] }).bids)).toBe(70);
    expect(sum(quotes(s, 0, book(100, 104), 0, { workingOrders: [inflight('buy', 30, 'open')] }).bids)).toBe(100);
  });
});
