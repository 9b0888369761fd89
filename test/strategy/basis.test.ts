import { describe, expect, it } from 'vitest';
import { asSymbol, Decimal } from '../../src/core/index.ts';
import { TickGrid, type Book, type Instrument } from '../../src/domain/index.ts';
import { buildContext, flatPosition, parseStrategyParams, type OwnFill, type StrategyContext, type StrategyPlan, type WorkingOrder } from '../../src/strategy/index.ts';
import { fundingCarryTicks, strategy as basis } from '../../strategies/basis/index.ts';

const F = asSymbol('XAU-2026-DEC');
const P = asSymbol('XAU-PERP');
const inst = (symbol: typeof F): Instrument => ({ symbol, grid: new TickGrid('0.1'), multiplier: new Decimal(1), minOrderSize: 1 }) as unknown as Instrument;
const book = (symbol: typeof F, bid: number, ask: number): Book => ({ symbol, bids: [{ priceTicks: bid, qty: 5 }], asks: [{ priceTicks: ask, qty: 5 }], tsEvent: 0, tsRecv: 0 });
const order = (side: 'buy' | 'sell', priceTicks: number, qty: number, symbol = F): WorkingOrder =>
  ({ clientOrderId: 'c', orderId: null, symbol, side, priceTicks, qty, filledQty: 0, status: 'open', adopted: false, createdMs: 0 }) as unknown as WorkingOrder;

interface State {
  nowMs: number;
  qF?: number;
  qP?: number;
  fMid?: [number, number];
  pMid?: [number, number];
  workingF?: WorkingOrder[];
  workingP?: WorkingOrder[];
  makerFee?: number;
  fills?: OwnFill[];
}
const ctx = (s: State): StrategyContext =>
  buildContext({
    symbol: F,
    instrument: inst(F),
    nowMs: s.nowMs,
    book: book(F, ...(s.fMid ?? [40_480, 40_490])),
    position: flatPosition(s.qF ?? 0),
    workingOrders: s.workingF ?? [],
    fees: { maker: s.makerFee ?? 0, taker: 0.0002 },
    ...(s.fills ? { fills: s.fills } : {}),
    others: [{ symbol: P, instrument: inst(P), book: book(P, ...(s.pMid ?? [40_120, 40_122])), position: flatPosition(s.qP ?? 0), workingOrders: s.workingP ?? [], fees: { maker: 0, taker: 0.0002 } }],
  });
const make = (raw: unknown = { size: 2, maxPosition: 10 }) => basis.create(parseStrategyParams(basis, raw));
/** Feeds a steady market for `n` seconds so the basis estimate is warm; returns the last plan. */
function warm(s: ReturnType<typeof make>, n = 30, st: Partial<State> = {}): StrategyPlan {
  let plan: StrategyPlan | null = null;
  for (let i = 0; i < n; i++) plan = s.quote(ctx({ ...st, nowMs: i * 1000 })) as StrategyPlan;
  return plan!;
}

describe('basis', () => {
  it('runs with only size and maxPosition and quotes nothing until the basis estimate has evidence', () => {
    const s = make();
    const first = s.quote(ctx({ nowMs: 0 })) as StrategyPlan;
    expect(first.quotes).toEqual([{ symbol: F, bids: [], asks: [] }]);
  });

  it('flat: quotes symmetric around perp mid + basis, at least one tick wide, floored at half the leg’s own half-spread', () => {
    const plan = warm(make());
    // perp mid 40121, basis 40485 − 40121 = 364 → fair 40485; leg spread 10 → floor 0.5 × 5 = 2.5 ticks
    expect(plan.quotes[0]).toEqual({ symbol: F, bids: [{ priceTicks: 40_482, qty: 2 }], asks: [{ priceTicks: 40_488, qty: 2 }] });
    expect(plan.hedges).toEqual([]);
  });

  it('never quotes an edge smaller than the maker fee', () => {
    // 2 bps of 40485 ticks = 8.1 ticks: the half-spread floor is 8.6 ticks, not the 2.5 of the book.
    const q = warm(make(), 30, { makerFee: 0.0002 }).quotes[0]!;
    expect(q.bids[0]!.priceTicks).toBe(Math.floor(40_485 - 8.097 - 0.5));
    expect(q.asks[0]!.priceTicks).toBe(Math.ceil(40_485 + 8.097 + 0.5));
  });

  it('moves with the market: both legs up 20 ticks moves the quotes 20 ticks', () => {
    const s = make();
    warm(s);
    const plan = s.quote(ctx({ nowMs: 30_000, pMid: [40_140, 40_142], fMid: [40_500, 40_510] })) as StrategyPlan;
    expect(plan.quotes[0]).toEqual({ symbol: F, bids: [{ priceTicks: 40_502, qty: 2 }], asks: [{ priceTicks: 40_508, qty: 2 }] });
  });

  it('a basis jump widens the quotes (the residual risk is the basis, not the perp)', () => {
    const s = make();
    warm(s);
    const plan = s.quote(ctx({ nowMs: 30_000, pMid: [40_140, 40_142] })) as StrategyPlan;
    const q = plan.quotes[0]!;
    expect(q.asks[0]!.priceTicks - q.bids[0]!.priceTicks).toBeGreaterThan(20);
  });

  it('backs off the side whose quoted-leg fills keep losing (lossFeedback), not the other', () => {
    // Every 2 s our ask on the future is filled at 40 488, then both legs rise 12 ticks for a
    // while (the basis is unchanged): each sale loses ~9 ticks at the 1 s horizon.
    const run = (lossFeedback: number) => {
      const s = make({ size: 2, maxPosition: 10, horizonS: 1, lossFeedback });
      warm(s);
      let t = 30_000;
      for (let i = 0; i < 20; i++) {
        const fill: OwnFill = { symbol: F, side: 'sell', priceTicks: 40_488, qty: 2, liquidity: 'maker', tsMs: t + 10, clientOrderId: null };
        s.quote(ctx({ nowMs: t + 20, fills: [fill] }));
        s.quote(ctx({ nowMs: t + 500, fMid: [40_492, 40_502], pMid: [40_132, 40_134] }));
        s.quote(ctx({ nowMs: t + 1500, fMid: [40_492, 40_502], pMid: [40_132, 40_134] }));
        t += 2000;
      }
      return (s.quote(ctx({ nowMs: t })) as StrategyPlan).quotes[0]!;
    };
    const off = run(0);
    const on = run(0.1);
    expect(on.asks[0]!.priceTicks).toBeGreaterThan(off.asks[0]!.priceTicks);
    expect(on.bids[0]!.priceTicks).toBe(off.bids[0]!.priceTicks);
  });

  it('skews on the net delta of both legs, not the quoted leg alone (the basis-leg skew is 0 in a still basis: σ_b = 0)', () => {
    const flat = warm(make()).quotes[0]!;
    const longF = warm(make(), 30, { qF: 4 }).quotes[0]!;
    const hedged = warm(make(), 30, { qF: 4, qP: -4 }).quotes[0]!;
    expect(longF.asks[0]!.priceTicks).toBeLessThan(flat.asks[0]!.priceTicks);
    expect(hedged).toEqual(flat);
  });

  it('mean-reverts the quoted leg even when hedged: q·γ_b·σ_b²·H, i.e. (q/maxPosition)·σ_b·√H ticks', () => {
    // The future's mid alternates by a tick every second: σ_b = 1 tick/√s; H = basisHalfLifeS = 120 s.
    const run = (qF: number, qP: number, raw: Record<string, unknown> = {}): { bid: number; ask: number } => {
      const s = make({ size: 2, maxPosition: 10, ...raw });
      let plan: StrategyPlan | null = null;
      for (let i = 0; i < 40; i++) plan = s.quote(ctx({ nowMs: i * 1000, qF, qP, fMid: i % 2 === 0 ? [40_480, 40_490] : [40_481, 40_491] })) as StrategyPlan;
      const q = plan!.quotes[0]!;
      return { bid: q.bids[0]!.priceTicks, ask: q.asks[0]!.priceTicks };
    };
    const flat = run(0, 0);
    const hedgedLong = run(5, -5); // net delta 0: only the basis risk skews
    const shift = 0.5 * Math.sqrt(120); // 5.48 ticks
    expect(Math.abs(flat.ask - hedgedLong.ask - shift)).toBeLessThan(1);
    expect(Math.abs(flat.bid - hedgedLong.bid - shift)).toBeLessThan(1);
    expect(run(5, -5, { basisRiskAversion: 0 })).toEqual(flat);
    expect(run(-5, 5).ask - flat.ask).toBeGreaterThan(shift - 1);
  });

  it('the fair basis includes the carry the hedge leg\'s funding implies to expiry: P·f̂·(settlements left)', () => {
    const HOURLY = { timezone: 'UTC', times: Array.from({ length: 24 }, (_, h) => ({ daysOfWeek: [1, 2, 3, 4, 5, 6, 7], hours: h, minutes: 0, seconds: 0 })), exceptions: [] };
    const T0 = Date.UTC(2026, 10, 18, 12, 0, 0);
    const fut = { ...inst(F), expirationMs: T0 + 7_200_000 } as Instrument;
    const perp = { ...inst(P), fundingSchedule: HOURLY } as Instrument;
    const rate = (r: number) => ({ symbol: P, status: 'ready' as const, rate: new Decimal(r), amount: null, benchmarkPrice: null, settlementPrice: null, reason: null, computedMs: 0 });
    const view = (nowMs: number, r: number, fMid: [number, number]) =>
      buildContext({ symbol: F, instrument: fut, nowMs, book: book(F, ...fMid), others: [{ symbol: P, instrument: perp, book: book(P, 40_120, 40_122), funding: rate(r) }] });
    // Two hours to expiry at one settlement an hour, f̂ = 0.1 %: 40121 × 0.001 × 2 = 80.242 ticks.
    expect(fundingCarryTicks(view(T0, 0.001, [40_480, 40_490]).view(F), view(T0, 0.001, [40_480, 40_490]).view(P), 40_121, T0)).toBeCloseTo(80.242, 9);
    // The market's basis shrinks with the carry as expiry nears (a tick per 90 s here): with the carry
    // term the quotes stay centred on it; the EWMA alone lags behind.
    const centre = (carry: 'funding' | 'none'): number => {
      const s = make({ size: 2, maxPosition: 10, carry });
      let plan: StrategyPlan | null = null;
      let m = 0;
      for (let t = 0; t <= 1_800_000; t += 1000) {
        m = Math.round(40_121 + 200 + 40_121 * 0.001 * ((7_200_000 - t) / 3_600_000));
        plan = s.quote(view(T0 + t, 0.001, [m - 5, m + 5])) as StrategyPlan;
      }
      const q = plan!.quotes[0]!;
      return (q.bids[0]!.priceTicks + q.asks[0]!.priceTicks) / 2 - m;
    };
    expect(Math.abs(centre('funding'))).toBeLessThanOrEqual(1);
    expect(centre('none')).toBeGreaterThan(1);
  });

  it('hedges outside the band with an IOC on the liquid leg back to half the band, priced through the touch', () => {
    const s = make({ size: 2, maxPosition: 12, hedgeBandContracts: 4 });
    warm(s, 29);
    const plan = s.quote(ctx({ nowMs: 29_500, qF: 9 })) as StrategyPlan;
    // delta 9 > band 4 → sell down to 2: 7 contracts, limit best bid 40120 − 2 ticks
    expect(plan.hedges).toEqual([{ symbol: P, side: 'sell', qty: 7, limitTicks: 40_118 }]);
    // In flight (working on the hedge leg) or within the cooldown: no second hedge.
    expect((s.quote(ctx({ nowMs: 30_000, qF: 9, workingP: [order('sell', 40_118, 7, P)] })) as StrategyPlan).hedges).toEqual([]);
    expect((s.quote(ctx({ nowMs: 30_500, qF: 9 })) as StrategyPlan).hedges).toEqual([]);
    // Inside the band: nothing.
    expect((s.quote(ctx({ nowMs: 40_000, qF: 9, qP: -7 })) as StrategyPlan).hedges).toEqual([]);
  });

  it('stops hedging when the rolling hour’s cost budget is spent', () => {
    // A tiny budget: 0.5 bps of 12 × 4048 USD ≈ 2.4 USD per hour; one 7-lot hedge costs ~0.7 + 5.6 USD.
    const s = make({ size: 2, maxPosition: 12, hedgeBandContracts: 4, hedgeBudgetBpsPerHour: 0.5 });
    warm(s, 29);
    expect((s.quote(ctx({ nowMs: 29_500, qF: 9 })) as StrategyPlan).hedges).toEqual([]);
  });

  it('never lets the quoted leg exceed maxPosition counting working orders', () => {
    const s = make({ size: 5, maxPosition: 10 });
    warm(s, 29);
    const plan = s.quote(ctx({ nowMs: 29_500, qF: 7, qP: -7, workingF: [order('buy', 40_470, 2)] })) as StrategyPlan;
    expect(plan.quotes[0]!.bids.reduce((a, l) => a + l.qty, 0)).toBe(1); // 10 − 7 − 2 working
    expect(plan.quotes[0]!.asks[0]!.qty).toBe(5);
  });

  it('asks for a wake-up so hedges are re-checked without market events', () => {
    const plan = warm(make());
    expect(plan.wakeAtMs).toBe(29_000 + 2_000);
  });

  it('names what it needs when given one symbol', () => {
    const s = make();
    expect(() => s.quote(buildContext({ symbol: F, instrument: inst(F) }))).toThrow(/basis needs two symbols/);
  });
});
