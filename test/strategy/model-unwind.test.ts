import { describe, expect, it } from 'vitest';
import { buildContext, flatPosition, isDesiredQuotes, isStrategyPlan, parseStrategyParams, TakerUnwind, type Strategy } from '../../src/strategy/index.ts';
import { strategy as glft } from '../../strategies/glft/index.ts';
import { book, ctxAt, INSTRUMENT, SYM, warmUp } from './synthetic-market.ts';

describe('TakerUnwind (cost-aware, at the cap)', () => {
  const view = (q: number, bid: number, ask: number, taker = 0) => buildContext({ symbol: SYM, instrument: INSTRUMENT, book: book(bid, ask), position: flatPosition(q), fees: { maker: 0, taker } });
  it('sells a lot at the bid after afterMs at +maxPosition when crossing costs less than the last lot\'s risk premium', () => {
    // 10 lots of 10, γσ²H = 0.5 tick per lot: the last lot is worth (10 − ½)·0.5 = 4.75 ticks of risk.
    const u = new TakerUnwind(5000);
    expect(u.plan(view(100, 996, 1004), 1000, 10, 100, 0.5, 0)).toBeNull(); // at the cap since now
    expect(u.plan(view(100, 996, 1004), 1000, 10, 100, 0.5, 4999)).toBeNull();
    expect(u.plan(view(100, 996, 1004), 1000, 10, 100, 0.5, 5000)).toEqual({ symbol: SYM, side: 'sell', qty: 10, limitTicks: 996 });
    // One per afterMs.
    expect(u.plan(view(100, 996, 1004), 1000, 10, 100, 0.5, 6000)).toBeNull();
  });
  it('does not cross when the half-spread plus the taker fee costs more than keeping the lot', () => {
    const at = (bid: number, taker: number): unknown => {
      const u = new TakerUnwind(1000);
      u.plan(view(100, bid, 2000 - bid, taker), 1000, 10, 100, 0.5, 0);
      return u.plan(view(100, bid, 2000 - bid, taker), 1000, 10, 100, 0.5, 1000);
    };
    expect(at(996, 0.0002)).not.toBeNull(); // 4 + 0.2 < 4.75
    expect(at(996, 0.001)).toBeNull(); // 4 + 1 ≥ 4.75
    expect(at(995, 0)).toBeNull(); // 5 ≥ 4.75
  });
  it('buys at the ask when short at the cap, and resets when the position leaves it', () => {
    const u = new TakerUnwind(1000);
    u.plan(view(-100, 996, 1004), 1000, 10, 100, 0.5, 0);
    expect(u.plan(view(-99, 996, 1004), 1000, 10, 100, 0.5, 500)).toBeNull(); // left the cap: timer reset
    expect(u.plan(view(-100, 996, 1004), 1000, 10, 100, 0.5, 1000)).toBeNull();
    expect(u.plan(view(-100, 996, 1004), 1000, 10, 100, 0.5, 2000)).toEqual({ symbol: SYM, side: 'buy', qty: 10, limitTicks: 1004 });
  });
});

describe('model quoter risk controls', () => {
  const make = (raw: Record<string, unknown>): Strategy => glft.create(parseStrategyParams(glft, raw));
  it('sizes down the side that grows the inventory by default: size·e^(−|q|/maxPosition), rounded', () => {
    const s = make({ size: 10, maxPosition: 100 });
    const { mid, nowMs } = warmUp(s, { sigma: 1, aPerS: 3, k: 0.5, spreadTicks: 2, durationS: 300 });
    const b = Math.floor(mid - 1);
    const long = s.quote(ctxAt(nowMs + 100, book(b, b + 2), 50));
    if (!isDesiredQuotes(long)) throw new Error('quotes expected');
    expect(long.bids[0]!.qty).toBe(Math.round(10 * Math.exp(-0.5))); // 6
    expect(long.asks[0]!.qty).toBe(10);
    const off = make({ size: 10, maxPosition: 100, sizeDecay: 0 });
    warmUp(off, { sigma: 1, aPerS: 3, k: 0.5, spreadTicks: 2, durationS: 300 });
    const o = off.quote(ctxAt(nowMs + 100, book(b, b + 2), 50));
    if (!isDesiredQuotes(o)) throw new Error('quotes expected');
    expect(o.bids[0]!.qty).toBe(10);
  });

  it('unwinds with a taker IOC when stuck at the cap, only when unwindAfterS is set', () => {
    const run = (raw: Record<string, unknown>) => {
      const s = make({ size: 10, maxPosition: 100, ...raw });
      const { mid, nowMs } = warmUp(s, { sigma: 2, aPerS: 1, k: 0.5, spreadTicks: 2, durationS: 300 });
      const b = Math.floor(mid - 1);
      s.quote(ctxAt(nowMs + 100, book(b, b + 2), 100));
      return { out: s.quote(ctxAt(nowMs + 20_200, book(b, b + 2), 100)), b };
    };
    const off = run({});
    expect(isStrategyPlan(off.out)).toBe(false);
    const on = run({ unwindAfterS: 20 });
    expect(isStrategyPlan(on.out) && on.out.hedges).toEqual([{ symbol: SYM, side: 'sell', qty: 10, limitTicks: on.b }]);
  });
});
