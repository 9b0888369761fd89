import { describe, expect, it } from 'vitest';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import { isDesiredQuotes, parseStrategyParams, type Strategy, type StrategyDefinition } from '../../src/strategy/index.ts';
import { EdgeGuard } from '../../src/strategy/edge-guard.ts';
import { strategy as avellanedaStoikov } from '../../strategies/avellaneda-stoikov/index.ts';
import { strategy as glft } from '../../strategies/glft/index.ts';
import { book, ctxAt, SYM } from './synthetic-market.ts';

const H = 1000;

/**
 * Drives a guard through `n` bid fills at its own quote (a base bid at 1000 backed off by the
 * guard), each marked when the mid is `lossTicks` under the base bid: the base quote loses
 * `lossTicks` a fill. Returns the extra depth before each fill. Each quote follows a move of the
 * mid, so every fill is filed under "mid moved < 100 ms ago".
 */
function driveBids(g: EdgeGuard, n: number, lossTicks: number, spreadTicks = 2, flowState = 2, fillAtBase = false): number[] {
  const extras: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    g.updateMid(t, 1001);
    const px = { bid: 1000, ask: 1002 };
    g.apply(t, spreadTicks, flowState, 2, 0, 10, 0, 1000, px);
    extras.push(g.bidTicks);
    // A pulled bid is still filled at the base price when `fillAtBase` (a fill racing the cancel).
    g.fill({ tsMs: t + 10, side: 'buy', priceTicks: fillAtBase ? 1000 : px.bid }, 1, t + 10);
    g.updateMid(t + 10 + H, 1000 - lossTicks);
    t += 2 * H;
  }
  return extras;
}

describe('EdgeGuard', () => {
  it('settles on the base quote\'s loss instead of oscillating: the depth it adds is taken off the marks', () => {
    const extras = driveBids(new EdgeGuard('widen', H, 1e12), 200, 2);
    expect(extras[0]).toBe(0);
    // A fill at the widened bid earns `extra − 2`; the estimate stays the base quote's −2 (shrunk), so
    // once the evidence outweighs the prior the bid sits 2 ticks out, fill after fill.
    expect(new Set(extras.slice(-100))).toEqual(new Set([2]));
  });

  it('leaves a side whose fills earn where it is, and adds nothing to the other side', () => {
    const g = new EdgeGuard('widen', H, 1e12);
    expect(new Set(driveBids(g, 100, -3))).toEqual(new Set([0]));
    expect(g.askTicks).toBe(0);
  });

  it('backs off by regime: losses in wide spreads widen wide spreads most; a regime never seen takes the side\'s shrunk mean', () => {
    const g = new EdgeGuard('widen', H, 1e12);
    driveBids(g, 200, 6, 20);
    // Queried as the fills were quoted: just after a move of the mid.
    const at = (g: EdgeGuard, nowMs: number, spread: number) => {
      g.updateMid(nowMs, 1001);
      const px = { bid: 1000, ask: 1002 };
      g.apply(nowMs, spread, 2, 2, 0, 10, 0, 1000, px);
      return g.bidTicks;
    };
    expect(at(g, 400 * H, 20)).toBe(6);
    // 200 lots at −6 on the side, against 10 lots of no edge: −5.7, 6 ticks.
    expect(at(g, 400 * H, 1)).toBe(6);
    const h = new EdgeGuard('widen', H, 1e12);
    driveBids(h, 8, 6, 20);
    // Eight fills: the side −48/18 = −2.7 (3 ticks), the regime they came from (−48 − 26.7)/18 = −4.1 (4).
    expect(at(h, 40 * H, 20)).toBe(4);
    expect(at(h, 40 * H, 1)).toBe(3);
  });

  it('takes the maker fee off each mark: fills that earn less than the fee back off', () => {
    const g = new EdgeGuard('widen', H, 1e12);
    let t = 0;
    for (let i = 0; i < 200; i++) {
      g.updateMid(t, 1001);
      const px = { bid: 1000, ask: 1002 };
      // The base bid's fills earn 1 tick before a 3-tick fee.
      g.apply(t, 2, 2, 2, 3, 10, 0, 1000, px);
      g.fill({ tsMs: t + 10, side: 'buy', priceTicks: px.bid }, 1, t + 10);
      g.updateMid(t + 10 + H, 1001);
      t += 2 * H;
    }
    expect(g.bidTicks).toBe(2);
  });

  it('pull leaves a losing side unquoted, but never the side that reduces the inventory', () => {
    const g = new EdgeGuard('pull', H, 1e12);
    driveBids(g, 100, 3, 2, 2, true);
    const quote = (q: number) => {
      g.updateMid(300 * H, 1001);
      const px = { bid: 1000, ask: 1002 };
      g.apply(300 * H, 2, 2, 2, 0, 10, q, 1000, px);
      return px.bid;
    };
    // 100 lots at −3 against 10 of no edge: −2.7 a fill, 3 ticks.
    expect(quote(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(quote(400)).toBe(Number.NEGATIVE_INFINITY);
    // Short 500 of 1,000: the bid is the exit, widened by half the loss (1.5 → 2 ticks), not pulled; at −1,000 not at all.
    expect(quote(-500)).toBe(998);
    expect(quote(-1000)).toBe(1000);
  });

  it('comes back when its evidence ages: a pulled side, no longer filled, quotes again after a few half-lives', () => {
    const g = new EdgeGuard('pull', H, 60_000);
    driveBids(g, 30, 3, 2, 2, true);
    const quote = (nowMs: number) => {
      g.updateMid(nowMs, 1001);
      const px = { bid: 1000, ask: 1002 };
      g.apply(nowMs, 2, 2, 2, 0, 10, 0, 1000, px);
      return px.bid;
    };
    expect(quote(60 * H)).toBe(Number.NEGATIVE_INFINITY);
    expect(quote(60 * H + 10 * 60_000)).toBe(1000);
  });

  it('shrink quotes less instead of wider: e^(−loss / one market spread) of its size, at the base depth; the exit shrinks less', () => {
    const g = new EdgeGuard('shrink', H, 1e12);
    // Quoted at the base depth throughout, the fills mark the base quote: −3 a fill, 200 of them.
    const extras = driveBids(g, 200, 3);
    expect(new Set(extras)).toEqual(new Set([0]));
    // The side: 200 lots at −3 against 10 of no edge; the regime the fills came from: shrunk toward that.
    const side = (-3 * 200) / 210;
    const loss = -(200 * -3 + 10 * side) / 210;
    const quote = (q: number) => {
      g.updateMid(500 * H, 1001);
      const px = { bid: 1000, ask: 1002 };
      g.apply(500 * H, 2, 2, 2, 0, 10, q, 1000, px);
      return px;
    };
    expect(quote(0).bid).toBe(1000);
    expect(g.bidSizeShare).toBeCloseTo(Math.exp(-loss / 10), 5);
    expect(g.askSizeShare).toBe(1);
    quote(-500);
    expect(g.bidSizeShare).toBeCloseTo(1 - (1 - Math.exp(-loss / 10)) * 0.5, 5);
    quote(-1000);
    expect(g.bidSizeShare).toBe(1);
  });

  it('caps the widening at one observed market spread', () => {
    const g = new EdgeGuard('widen', H, 1e12);
    driveBids(g, 200, 50);
    expect(g.bidTicks).toBe(10);
  });
});

const make = (def: StrategyDefinition, raw: Record<string, unknown>): Strategy => def.create(parseStrategyParams(def, raw));
const quotes = (s: Strategy, ...args: Parameters<typeof ctxAt>): DesiredQuotes => {
  const out = s.quote(ctxAt(...args));
  if (!isDesiredQuotes(out)) throw new Error('expected desired quotes');
  return out;
};

/** 40 bid fills at the model's own bid on a ±3-tick book, the mid then `lossTicks` under the bid for a while; then one quote at position `q`. */
function losingBids(s: Strategy, lossTicks: number, q = 0): DesiredQuotes {
  let t = 0;
  const mid = 10_000;
  for (let i = 0; i < 40; i++) {
    const out = quotes(s, t, book(mid - 3, mid + 3));
    const bid = out.bids[0]?.priceTicks;
    const fills = bid === undefined ? [] : [{ symbol: SYM, side: 'buy' as const, priceTicks: bid, qty: 200, liquidity: 'maker' as const, tsMs: t + 10, clientOrderId: null }];
    quotes(s, t + 20, book(mid - 3, mid + 3), 0, { fills });
    const after = (bid ?? mid - 3) - lossTicks;
    quotes(s, t + 500, book(after - 3, after + 3));
    quotes(s, t + 1500, book(after - 3, after + 3));
    t += 2000;
  }
  return quotes(s, t + 1000, book(mid - 3, mid + 3), q);
}

describe.each([
  ['glft', glft],
  ['avellaneda-stoikov', avellanedaStoikov],
] as const)('%s edgeGuard', (_n, def) => {
  const run = (edgeGuard: string, q = 0) => losingBids(make(def, { size: 200, maxPosition: 1500, toxicityGuard: false, adverseHorizonS: 1, edgeGuard }), 8, q);

  it('widen backs the losing bid off past where the adverse term alone puts it; the ask stays', () => {
    const off = run('off');
    const widen = run('widen');
    expect(widen.bids[0]!.priceTicks).toBeLessThan(off.bids[0]!.priceTicks);
    expect(widen.asks[0]!.priceTicks).toBe(off.asks[0]!.priceTicks);
  });

  it('shrink quotes a smaller losing bid at the same kind of depth; the ask keeps its size', () => {
    const off = run('off');
    const shrink = run('shrink');
    expect(off.bids[0]!.qty).toBe(200);
    expect(shrink.bids[0]!.qty).toBeLessThan(200);
    expect(shrink.bids[0]!.qty).toBeGreaterThanOrEqual(1);
    expect(shrink.asks[0]!.qty).toBe(200);
  });

  it('pull leaves the losing bid unquoted while flat, and keeps it as the exit of a short inventory at the cap', () => {
    expect(run('pull').bids).toEqual([]);
    expect(run('pull').asks.length).toBeGreaterThan(0);
    expect(run('pull', -1500).bids.length).toBeGreaterThan(0);
  });
});

describe('edgeGuard and flowState settings', () => {
  it('shrink is an edge-guard setting only: flowState has no size back-off and refuses it', () => {
    expect(() => make(glft, { size: 1, maxPosition: 10, edgeGuard: 'shrink' })).not.toThrow();
    expect(() => make(glft, { size: 1, maxPosition: 10, flowState: 'shrink' })).toThrow(/glft\.flowState/);
  });
});

describe('lossFeedback, retired', () => {
  it('a config that still sets it is refused, naming the parameter and what replaces it', () => {
    expect(() => make(glft, { size: 1, maxPosition: 10, lossFeedback: 0.1 })).toThrow(/glft: Unrecognized key: "lossFeedback" \(lossFeedback: the model quoters no longer take it: edgeGuard replaces it/);
  });
});
