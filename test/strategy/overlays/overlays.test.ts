import { describe, expect, it } from 'vitest';
import { asClientOrderId, Decimal } from '../../../src/core/index.ts';
import type { DesiredQuotes, FundingEstimate, FundingSchedule, Instrument } from '../../../src/domain/index.ts';
import { Rng } from '../../../src/sim/market/rng.ts';
import { applyAdjustment, buildContext, flatPosition, isDesiredQuotes, neutralAdjustment, overlayConfigSchema, parseStrategyParams, withOverlays, type Overlay, type OverlayConfig, type OwnFill, type Strategy, type StrategyContext, type StrategyOutput } from '../../../src/strategy/index.ts';
import { strategy as fixedSpread } from '../../../strategies/fixed-spread/index.ts';
import { createGlft, glftParams } from '../../../strategies/glft/index.ts';
import { enteringQty } from '../../../src/strategy/overlays/funding-carry.ts';
import { book, INSTRUMENT, SYM } from '../synthetic-market.ts';

const HOURLY: FundingSchedule = { timezone: 'UTC', times: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23].map((h) => ({ daysOfWeek: [1, 2, 3, 4, 5, 6, 7], hours: h, minutes: 0, seconds: 0 })), exceptions: [] };
const PERP = { ...INSTRUMENT, fundingSchedule: HOURLY } as Instrument;
const T0 = Date.UTC(2026, 10, 18, 12, 0, 0); // a settlement instant: the next one is an hour later
const funding = (rate: number): FundingEstimate => ({ symbol: SYM, status: 'ready', rate: new Decimal(rate), amount: null, benchmarkPrice: null, settlementPrice: null, reason: null, computedMs: 0 });
const quotesOf = (o: StrategyOutput): DesiredQuotes => {
  if (!isDesiredQuotes(o)) throw new Error('expected quotes');
  return o;
};
const fixed = (raw: Record<string, unknown>): Strategy => fixedSpread.create(parseStrategyParams(fixedSpread, raw));
const overlay = (raw: unknown) => overlayConfigSchema.parse(raw);
const ctx = (p: Partial<Parameters<typeof buildContext>[0]> & { nowMs: number }): StrategyContext => buildContext({ symbol: SYM, instrument: PERP, book: book(10_000, 10_002), ...p });

describe('applyAdjustment', () => {
  const inner: DesiredQuotes = { symbol: SYM, bids: [{ priceTicks: 9_998, qty: 10 }, { priceTicks: 9_997, qty: 10 }], asks: [{ priceTicks: 10_004, qty: 10 }, { priceTicks: 10_005, qty: 10 }] };
  const c = ctx({ nowMs: 0 });
  it('shifts, widens (bids floor, asks ceil) and scales sizes without exceeding the inner sizes', () => {
    const a = { ...neutralAdjustment(), shiftTicks: -1.5, bidWidenTicks: 1, askWidenTicks: 0.2, bidSizeMult: 0.55, askSizeMult: 3 };
    expect(applyAdjustment(c, inner, a)).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_995, qty: 5 }, { priceTicks: 9_994, qty: 5 }], asks: [{ priceTicks: 10_003, qty: 10 }, { priceTicks: 10_004, qty: 10 }] });
  });
  it('stays post-only and strictly ordered when a shift reaches the far touch', () => {
    const out = applyAdjustment(c, inner, { ...neutralAdjustment(), shiftTicks: 6 });
    expect(out.bids.map((l) => l.priceTicks)).toEqual([10_001, 10_000]);
    expect(out.asks.map((l) => l.priceTicks)).toEqual([10_010, 10_011]);
  });
  it('holds a best level placed within the distance limit, and floors sizes at the minimum', () => {
    const a = { ...neutralAdjustment(), bidWidenTicks: 5, askWidenTicks: 5, maxBidDistanceTicks: 4, maxAskDistanceTicks: 2, minBidQty: 8, minAskQty: 8, bidSizeMult: 0.1, askSizeMult: 0.1 };
    const out = applyAdjustment(c, inner, a);
    expect(out.bids[0]).toEqual({ priceTicks: 9_997, qty: 8 }); // mid 10001 − 4
    expect(out.asks[0]).toEqual({ priceTicks: 10_009, qty: 8 }); // inner 10004 was outside the 2-tick limit: widened freely
  });
  it('gives back the last ladder itself when the result equals it, a new one otherwise', () => {
    const a = { ...neutralAdjustment(), shiftTicks: -1.5 };
    const first = applyAdjustment(c, inner, a);
    const again = applyAdjustment(c, { ...inner, bids: inner.bids.map((l) => ({ ...l })) }, { ...a, shiftTicks: -1.2 }, first);
    expect(again).toBe(first);
    const moved = applyAdjustment(c, inner, { ...a, shiftTicks: -3 }, first);
    expect(moved).not.toBe(first);
    expect(moved).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_995, qty: 10 }, { priceTicks: 9_994, qty: 10 }], asks: [{ priceTicks: 10_001, qty: 10 }, { priceTicks: 10_002, qty: 10 }] });
    expect(first).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_996, qty: 10 }, { priceTicks: 9_995, qty: 10 }], asks: [{ priceTicks: 10_003, qty: 10 }, { priceTicks: 10_004, qty: 10 }] });
  });
});

describe('funding-carry overlay', () => {
  it('shifts both quotes toward the side that gets paid by f̂·P·e^(−Δt/H), capped', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 4, size: 10 }), [overlay({ kind: 'funding-carry', holdingTimeS: 3600, maxShiftSpreads: 10 })]);
    // f̂ = 1e-4 at P = 10001 ticks: carry 1.0001 ticks; Δt = 1800 s, H = 3600 s → shift −0.6066.
    const q = quotesOf(s.quote(ctx({ nowMs: T0 + 1_800_000, funding: funding(0.0001) })));
    const shift = -10_001 * 0.0001 * Math.exp(-0.5);
    expect(q.bids[0]!.priceTicks).toBe(Math.floor(9_997 + shift));
    expect(q.asks[0]!.priceTicks).toBe(Math.ceil(10_005 + shift));
    const capped = withOverlays(fixed({ halfSpreadTicks: 4, size: 10 }), [overlay({ kind: 'funding-carry', maxShiftSpreads: 0.25 })]);
    expect(quotesOf(capped.quote(ctx({ nowMs: T0 + 1_800_000, funding: funding(-0.01) }))).bids[0]!.priceTicks).toBe(9_998); // +1 tick cap (¼ of 4)
    // No estimate or not ready: no change.
    expect(quotesOf(s.quote(ctx({ nowMs: T0 + 1_800_000 }))).bids[0]!.priceTicks).toBe(9_997);
  });

  it('shrinks the paying side inside the guard window when the carry exceeds a half-spread', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 1, size: 10 }), [overlay({ kind: 'funding-carry', guardWindowS: 60, guardSizeMult: 0.3, maxShiftSpreads: 0.1 })]);
    const q = quotesOf(s.quote(ctx({ nowMs: T0 + 3_570_000, funding: funding(0.001) })));
    expect(q.bids[0]!.qty).toBe(3);
    expect(q.asks[0]!.qty).toBe(10);
  });

  /** Mean signed position of fixed-spread (± the overlay) in a market whose takers hit quotes reaching Exp(1)-tick depths. */
  function meanPosition(rate: number, withFunding: boolean): number {
    const rng = new Rng(42);
    // A price skew keeps the inventory mean-reverting, so the mean position measures the lean.
    const inner = fixed({ halfSpreadTicks: 1, size: 1, maxPosition: 30, priceSkew: 1 });
    const s = withFunding ? withOverlays(inner, [overlay({ kind: 'funding-carry', holdingTimeS: 3600 })]) : inner;
    let mid = 10_000;
    let q = 0;
    let sum = 0;
    let fills: OwnFill[] = [];
    const steps = 8000;
    for (let i = 0; i < steps; i++) {
      const now = T0 + 1000 + i * 500;
      if (rng.chance(0.05)) mid += rng.chance(0.5) ? 1 : -1;
      const out = quotesOf(s.quote(ctx({ nowMs: now, book: book(mid - 1, mid + 1), position: flatPosition(q), funding: funding(rate), fills })));
      fills = [];
      if (rng.chance(0.3)) {
        const buy = rng.chance(0.5);
        const reach = mid + (buy ? 1 : -1) * (1 + rng.exponential(1.5));
        const l = buy ? out.asks[0] : out.bids[0];
        if (l && (buy ? l.priceTicks <= reach : l.priceTicks >= reach)) {
          q += buy ? -l.qty : l.qty;
          fills = [{ symbol: SYM, side: buy ? 'sell' : 'buy', priceTicks: l.priceTicks, qty: l.qty, liquidity: 'maker', tsMs: now, clientOrderId: asClientOrderId('1') }];
        }
      }
      sum += q;
    }
    return sum / steps;
  }

  it('changes the sign-weighted average position when the estimated funding rate is large', () => {
    const base = meanPosition(0.002, false);
    const longsPay = meanPosition(0.002, true);
    const shortsPay = meanPosition(-0.002, true);
    expect(longsPay).toBeLessThan(base - 3);
    expect(longsPay).toBeLessThan(0);
    expect(shortsPay).toBeGreaterThan(base + 3);
    expect(shortsPay).toBeGreaterThan(0);
  });
});

describe('funding-carry holding time (Little\'s law per side)', () => {
  it('counts only the fills that open or grow |position|: H is the time a contract is held', () => {
    // Long 10 for a second, flat for a second, again and again: each contract is held 1 s, E|q| = 5,
    // 10 contracts enter every 2 s. (Both sides' fills, 10/s, would give H = 0.5 s.)
    const s = withOverlays(fixed({ halfSpreadTicks: 4, size: 10, maxPosition: 100 }), [overlay({ kind: 'funding-carry', maxShiftSpreads: 10 })]);
    let q = 0;
    let out: DesiredQuotes | null = null;
    for (let k = 1; k <= 3599; k++) {
      const side = k % 2 === 1 ? ('buy' as const) : ('sell' as const);
      q += side === 'buy' ? 10 : -10;
      const fill: OwnFill = { symbol: SYM, side, priceTicks: 10_000, qty: 10, liquidity: 'maker', tsMs: T0 + k * 1000, clientOrderId: asClientOrderId('1') };
      out = quotesOf(s.quote(ctx({ nowMs: T0 + k * 1000, position: flatPosition(q), fills: [fill], funding: funding(0.001) })));
    }
    // 1 s before settlement, carry 10.001 ticks: shift −10.001·e^(−1/H) = −3.68 at H = 1 s (−1.35 at 0.5 s).
    expect(out!.bids[0]!.priceTicks).toBe(Math.floor(9_997 - 10.001 * Math.exp(-1)));
    expect(out!.bids[0]!.priceTicks).toBe(9_993);
  });

  it('enteringQty walks the fills from the position before them', () => {
    const f = (side: 'buy' | 'sell', qty: number): OwnFill => ({ symbol: SYM, side, priceTicks: 1, qty, liquidity: 'maker', tsMs: 0, clientOrderId: asClientOrderId('1') });
    // Ending at −1 after buy 5, buy 1, sell 4: it started at −3. Buy 5 closes 3 and opens 2 long, buy 1
    // grows it to 3, sell 4 closes 3 and opens 1 short: 2 + 1 + 1 entered.
    expect(enteringQty({ symbol: SYM, position: flatPosition(-1), fills: [f('buy', 5), f('buy', 1), f('sell', 4)] })).toBe(4);
    expect(enteringQty({ symbol: SYM, position: flatPosition(0), fills: [f('sell', 2), f('buy', 2)] })).toBe(2);
  });
});

describe('volatility overlay', () => {
  it('does not widen a strategy whose quotes already widen with a fast σ (no double count)', () => {
    const plain = fixed({ halfSpreadTicks: 2, size: 10 });
    const aware: Strategy = { quote: (c) => plain.quote(c), widensOnFastVolatility: true };
    const run = (inner: Strategy): number => {
      const s = withOverlays(inner, [overlay({ kind: 'volatility', fastHalfLifeS: 10, slowHalfLifeS: 600, maxWidenSpreads: 3 })]);
      const rng = new Rng(1);
      let mid = 10_000;
      let t = 0;
      let last: DesiredQuotes | null = null;
      for (; t < 600_000; t += 1000) last = quotesOf(s.quote(ctx({ nowMs: t, book: book((mid += rng.chance(0.5) ? 1 : -1) - 1, mid + 1) })));
      for (let i = 0; i < 30; i++, t += 1000) last = quotesOf(s.quote(ctx({ nowMs: t, book: book((mid += rng.chance(0.5) ? 6 : -6) - 1, mid + 1) })));
      return last!.asks[0]!.priceTicks - last!.bids[0]!.priceTicks;
    };
    expect(run(plain)).toBeGreaterThanOrEqual(14);
    expect(run(aware)).toBe(4);
    expect(createGlft(glftParams.parse({ size: 1, maxPosition: 10 })).widensOnFastVolatility).toBe(true);
  });


  it('widens when the fast σ runs above the slow baseline, and not in a steady market', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), [overlay({ kind: 'volatility', fastHalfLifeS: 10, slowHalfLifeS: 600, maxWidenSpreads: 3 })]);
    const rng = new Rng(1);
    let mid = 10_000;
    let t = 0;
    let last: DesiredQuotes | null = null;
    for (; t < 600_000; t += 1000) {
      mid += rng.chance(0.5) ? 1 : -1;
      last = quotesOf(s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1) })));
    }
    expect(last!.asks[0]!.priceTicks - last!.bids[0]!.priceTicks).toBeLessThanOrEqual(8);
    for (let i = 0; i < 30; i++, t += 1000) {
      mid += rng.chance(0.5) ? 6 : -6;
      last = quotesOf(s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1) })));
    }
    expect(last!.asks[0]!.priceTicks - last!.bids[0]!.priceTicks).toBeGreaterThanOrEqual(14);
  });
});

describe('toxicity overlay', () => {
  it('widens, then steps back, the side whose fills mark out against us, and only that side', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), [overlay({ kind: 'toxicity', horizonMs: 1000, minFills: 3, stepBackSpreads: 1, stepBackSizeMult: 0.5 })]);
    let mid = 10_000;
    let t = 0;
    // Every buy of ours is followed by the mid dropping 3 ticks (adverse).
    for (let i = 0; i < 6; i++) {
      const fill: OwnFill = { symbol: SYM, side: 'buy', priceTicks: mid - 2, qty: 10, liquidity: 'maker', tsMs: t, clientOrderId: asClientOrderId('1') };
      s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1), fills: [fill] }));
      mid -= 3;
      s.quote(ctx({ nowMs: t + 500, book: book(mid - 1, mid + 1) }));
      t += 2000;
      s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1) }));
    }
    const q = quotesOf(s.quote(ctx({ nowMs: t + 2000, book: book(mid - 1, mid + 1) })));
    // −3 bps per buy: the bid widens 3 ticks (of a mid near 9982) and halves; the ask is untouched.
    expect(q.bids[0]).toEqual({ priceTicks: mid - 2 - 3, qty: 5 });
    expect(q.asks[0]).toEqual({ priceTicks: mid + 2, qty: 10 });
  });

  it('marks a fill against the mid before it: a sweep that filled us and moved the book in the same event is adverse', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), [overlay({ kind: 'toxicity', horizonMs: 1000, minFills: 1 })]);
    s.quote(ctx({ nowMs: 0, book: book(9_999, 10_001) }));
    const fill: OwnFill = { symbol: SYM, side: 'buy', priceTicks: 9_999, qty: 10, liquidity: 'maker', tsMs: 100, clientOrderId: asClientOrderId('1') };
    s.quote(ctx({ nowMs: 100, book: book(9_996, 9_998), fills: [fill] }));
    // Markout −3 bps from the pre-fill mid 10000 (0 from the post-fill mid 9997): bid 9995 − 3.
    expect(quotesOf(s.quote(ctx({ nowMs: 2000, book: book(9_996, 9_998) }))).bids[0]!.priceTicks).toBe(9_992);
  });

  it('weights each fill\'s markout by its size (partial fills of one order count as their total)', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), [overlay({ kind: 'toxicity', horizonMs: 1000, minFills: 2 })]);
    const buy = (qty: number, t: number): OwnFill => ({ symbol: SYM, side: 'buy', priceTicks: 9_999, qty, liquidity: 'maker', tsMs: t, clientOrderId: asClientOrderId('1') });
    s.quote(ctx({ nowMs: 0, book: book(9_999, 10_001) }));
    s.quote(ctx({ nowMs: 10, book: book(9_999, 10_001), fills: [buy(9, 10)] })); // marks out 0
    s.quote(ctx({ nowMs: 2000, book: book(9_999, 10_001), fills: [buy(1, 2000)] }));
    s.quote(ctx({ nowMs: 2500, book: book(9_989, 9_991) })); // −10 bps for the 1-lot fill
    // Size-weighted mean (9·0 − 1·10)/10 = −1 bps: one tick of 9990 (unweighted −5 bps would be five).
    expect(quotesOf(s.quote(ctx({ nowMs: 4000, book: book(9_989, 9_991) }))).bids[0]!.priceTicks).toBe(9_987);
  });
});

describe('reward-aware overlay', () => {
  const rewards = { estimatedShare: 0.2, maxSpreadBps: 5, minNotionalUsd: 5 };
  it('keeps a qualifying quote inside the spread limit against other overlays and floors its size', () => {
    // A stand-in overlay that widens by 10 ticks and cuts sizes to 10 %.
    const widen: Overlay = {
      kind: 'test-widen',
      adjust: (_c, _q, adj) => {
        adj.bidWidenTicks += 10;
        adj.askWidenTicks += 10;
        adj.bidSizeMult *= 0.1;
        adj.askSizeMult *= 0.1;
      },
    };
    const run = (list: (Overlay | OverlayConfig)[], r: typeof rewards | null) => quotesOf(withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), list).quote(ctx({ nowMs: 0, rewards: r })));
    expect(run([widen], rewards)).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_989, qty: 1 }], asks: [{ priceTicks: 10_013, qty: 1 }] });
    // 5 bps of mid 10001 = 5.0005 ticks; 5 USD at 1.0001 USD a contract = 5 contracts.
    const kept = run([widen, overlay({ kind: 'reward-aware', poolUsdPerDay: 1000 })], rewards);
    expect(kept).toEqual({ symbol: SYM, bids: [{ priceTicks: 9_996, qty: 5 }], asks: [{ priceTicks: 10_006, qty: 5 }] });
    expect(run([widen, overlay({ kind: 'reward-aware', poolUsdPerDay: 1000 })], null).bids[0]!.priceTicks).toBe(9_989);
  });

  it('steps aside when the expected adverse selection beats the expected reward', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), [
      { kind: 'test-widen', adjust: (_c, _q, adj) => void (adj.bidWidenTicks += 10) } satisfies Overlay,
      overlay({ kind: 'reward-aware', poolUsdPerDay: 0.001, markoutHorizonMs: 1000 }),
    ]);
    let mid = 10_000;
    let t = 0;
    for (let i = 0; i < 20; i++) {
      const fill: OwnFill = { symbol: SYM, side: 'buy', priceTicks: mid - 2, qty: 100, liquidity: 'maker', tsMs: t, clientOrderId: asClientOrderId('1') };
      s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1), fills: [fill], rewards }));
      mid -= 5;
      s.quote(ctx({ nowMs: t + 500, book: book(mid - 1, mid + 1), rewards }));
      t += 10_000;
    }
    // Tiny pool, heavy adverse markouts: the widening is not held back.
    expect(quotesOf(s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1), rewards }))).bids[0]!.priceTicks).toBe(mid - 1 - 1 - 10);
  });

  it('marks fills against the mid before them: a fill delivered with the book that already moved against it is adverse', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 2, size: 10 }), [
      { kind: 'test-widen', adjust: (_c, _q, adj) => void (adj.bidWidenTicks += 10) } satisfies Overlay,
      overlay({ kind: 'reward-aware', poolUsdPerDay: 0.001, markoutHorizonMs: 1000 }),
    ]);
    let mid = 10_000;
    let t = 0;
    s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1), rewards }));
    for (let i = 0; i < 20; i++) {
      const fill: OwnFill = { symbol: SYM, side: 'buy', priceTicks: mid - 2, qty: 100, liquidity: 'maker', tsMs: t + 100, clientOrderId: asClientOrderId('1') };
      mid -= 5;
      s.quote(ctx({ nowMs: t + 100, book: book(mid - 1, mid + 1), fills: [fill], rewards }));
      t += 10_000;
      s.quote(ctx({ nowMs: t, book: book(mid - 1, mid + 1), rewards }));
    }
    // Each buy lost 5 ticks against the pre-fill mid (none against the post-fill one): not held back.
    expect(quotesOf(s.quote(ctx({ nowMs: t + 1, book: book(mid - 1, mid + 1), rewards }))).bids[0]!.priceTicks).toBe(mid - 1 - 1 - 10);
  });

  it('pulls in and holds a quote for minRestMs; does nothing without ctx.rewards', () => {
    const s = withOverlays(fixed({ halfSpreadTicks: 8, size: 10 }), [overlay({ kind: 'reward-aware', poolUsdPerDay: 1000, pullIn: true, minRestMs: 3000 })]);
    expect(quotesOf(s.quote(ctx({ nowMs: 0 }))).bids[0]!.priceTicks).toBe(9_993);
    const a = quotesOf(s.quote(ctx({ nowMs: 1000, rewards })));
    expect(a.bids[0]!.priceTicks).toBe(9_996); // mid 10001 − 5 ticks
    expect(a.asks[0]!.priceTicks).toBe(10_006);
    // The book moves a tick down 1 s later: the bid, still qualifying, rests until 3 s have passed.
    expect(quotesOf(s.quote(ctx({ nowMs: 2000, book: book(9_999, 10_001), rewards }))).bids[0]!.priceTicks).toBe(9_996);
    expect(quotesOf(s.quote(ctx({ nowMs: 4500, book: book(9_999, 10_001), rewards }))).bids[0]!.priceTicks).toBe(9_995);
    // A move that takes it out of the limit is followed at once.
    expect(quotesOf(s.quote(ctx({ nowMs: 5000, book: book(10_003, 10_005), rewards }))).bids[0]!.priceTicks).toBe(9_999);
  });
});

describe('withOverlays', () => {
  it('returns the inner strategy without overlays, re-adjusts the last ladder on null, passes intents through', () => {
    const inner = fixed({ size: 1 });
    expect(withOverlays(inner, [])).toBe(inner);
    let n = 0;
    const lazy: Strategy = { quote: () => (n++ === 0 ? { symbol: SYM, bids: [{ priceTicks: 9_990, qty: 1 }], asks: [{ priceTicks: 10_010, qty: 1 }] } : null) };
    // H at its bound (one week; it was 1e9 before parameters had ranges, issue 35 #8): the 3-tick
    // carry decays a little to the settlement, so the re-adjusted bid is 9,987 (9,986 undecayed).
    const s = withOverlays(lazy, [overlay({ kind: 'funding-carry', holdingTimeS: 604_800, maxShiftSpreads: 100 })]);
    expect(quotesOf(s.quote(ctx({ nowMs: T0 + 1000 }))).bids[0]!.priceTicks).toBe(9_990);
    expect(quotesOf(s.quote(ctx({ nowMs: T0 + 2000, funding: funding(0.0003) }))).bids[0]!.priceTicks).toBe(9_987);
    const raw: Strategy = { quote: () => ({ intents: [] }) };
    expect(withOverlays(raw, [overlay({ kind: 'toxicity' })]).quote(ctx({ nowMs: 0 }))).toEqual({ intents: [] });
  });
});
