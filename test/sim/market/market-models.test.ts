import { describe, expect, it } from 'vitest';
import { desiredLadder, diffLadder, ladderShape } from '../../../src/sim/market/maker-model.ts';
import { Rng, deriveSeed, hashNormal } from '../../../src/sim/market/rng.ts';
import { UnderlyingPath, type UnderlyingParams } from '../../../src/sim/market/underlying-path.ts';
import { drawTaker, nextArrivalMs } from '../../../src/sim/market/taker-model.ts';

const maker = {
  levels: 5,
  halfSpreadTicks: 4,
  levelSpacingTicks: 1,
  minLots: 1,
  maxLots: 5,
  requoteThresholdTicks: 1,
  reactionMs: 0,
  volatileSpreadMult: 2,
  volatileSizeMult: 0.5,
  jumpSpreadMult: 3,
  jumpRecoveryMs: 10_000,
  churnPerS: 0,
};
const taker = { ratePerMin: 30, medianLots: 2, sizeSigma: 0.6, maxLots: 20, sweepTicks: 2, fairSkew: 0.3, informedShare: 0, informedHorizonMs: 5_000, volatileRateMult: 2 };
const plain: UnderlyingParams = {
  dailyVolPct: 1,
  jumpsPerDay: 0,
  jumpSizeBps: 0,
  meanReversionPerDay: 0,
  volatileVolMult: 1,
  calmMeanMin: 0,
  volatileMeanMin: 5,
  trendsPerDay: 0,
  trendMeanMin: 10,
  trendBpsPerMin: 0,
  correlation: 0,
};

/** Log returns of `path` sampled every `everyMs` over `n` samples. */
function returns(path: UnderlyingPath, everyMs: number, n: number, t0 = 0): number[] {
  const out: number[] = [];
  for (let i = 1; i <= n; i++) out.push(path.logReturnAt(t0 + i * everyMs) - path.logReturnAt(t0 + (i - 1) * everyMs));
  return out;
}
const sd = (xs: readonly number[]): number => Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length);
const corr = (a: readonly number[], b: readonly number[]): number => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return ab / Math.sqrt(aa * bb);
};

describe('seeded randomness', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const c = new Rng(8);
    const xs = Array.from({ length: 5 }, () => a.uniform());
    expect(Array.from({ length: 5 }, () => b.uniform())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.uniform())).not.toEqual(xs);
    expect(deriveSeed(1, 'EURUSD-PERP')).not.toBe(deriveSeed(1, 'XAU-PERP'));
  });

  it('normal draws have roughly zero mean and unit variance', () => {
    const r = new Rng(1);
    const n = 20_000;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const x = r.normal();
      s += x;
      s2 += x * x;
    }
    expect(Math.abs(s / n)).toBeLessThan(0.05);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.05);
  });
});

describe('underlying path', () => {
  it('moves with the configured daily volatility and is the same path for the same seed', () => {
    const p = new UnderlyingPath(plain, new Rng(3), null, 250, 0);
    const sdRet = sd(returns(p, 60_000, 2_000));
    const expected = 0.01 * Math.sqrt(60_000 / 86_400_000);
    expect(sdRet / expected).toBeGreaterThan(0.9);
    expect(sdRet / expected).toBeLessThan(1.1);
    const q = new UnderlyingPath(plain, new Rng(3), null, 250, 0);
    // Reading it in another order (far ahead first, as an informed taker does) gives the same path.
    expect(q.logReturnAt(600_000)).toBe(p.logReturnAt(600_000));
    expect(q.logReturnAt(1_000)).toBe(p.logReturnAt(1_000));
    p.trim(10_000_000);
    expect(p.logReturnAt(10_000_000)).toBe(q.logReturnAt(10_000_000));
  });

  it('regime switching clusters volatility: the volatile regime has the multiplied vol', () => {
    const p = new UnderlyingPath({ ...plain, volatileVolMult: 4, calmMeanMin: 20, volatileMeanMin: 20 }, new Rng(11), null, 250, 0);
    const calm: number[] = [];
    const wild: number[] = [];
    let t = 0;
    for (let i = 0; i < 40_000; i++, t += 1_000) {
      const r = p.logReturnAt(t + 1_000) - p.logReturnAt(t);
      if (p.volatileAt(t + 1_000) === p.volatileAt(t)) (p.volatileAt(t) ? wild : calm).push(r);
    }
    expect(calm.length).toBeGreaterThan(5_000);
    expect(wild.length).toBeGreaterThan(5_000);
    const ratio = sd(wild) / sd(calm);
    expect(ratio).toBeGreaterThan(3.3);
    expect(ratio).toBeLessThan(4.7);
    // The unconditional vol is higher than the calm regime's alone.
    const all = returns(p, 1_000, 40_000);
    expect(sd(all)).toBeGreaterThan(sd(calm) * 1.5);
  });

  it('a jump opens a volatile spell and is visible as time since the jump', () => {
    const p = new UnderlyingPath({ ...plain, jumpsPerDay: 2_000, jumpSizeBps: 20, volatileVolMult: 3, calmMeanMin: 600, volatileMeanMin: 1 }, new Rng(2), null, 250, 0);
    let seen = 0;
    for (let t = 0; t < 3_600_000; t += 250) {
      if (p.msSinceJumpAt(t) === 0) {
        seen++;
        expect(p.volatileAt(t)).toBe(true);
      }
    }
    expect(seen).toBeGreaterThan(40);
  });

  it('trending episodes drift the path in one direction', () => {
    const drift = new UnderlyingPath({ ...plain, dailyVolPct: 0.01, trendsPerDay: 1_000, trendMeanMin: 30, trendBpsPerMin: 2 }, new Rng(4), null, 250, 0);
    const moves = returns(drift, 60_000, 600).map((r) => Math.abs(r) * 1e4);
    // Most minutes move by about the trend's 2 bps (the diffusion is negligible here).
    expect(moves.filter((m) => m > 1.5 && m < 2.5).length).toBeGreaterThan(400);
  });

  it('underlyings of one group correlate at about the configured loading', () => {
    for (const rho of [0.3, 0.8]) {
      const a = new UnderlyingPath({ ...plain, correlation: rho }, new Rng(1), 99, 250, 0);
      const b = new UnderlyingPath({ ...plain, dailyVolPct: 2, correlation: rho }, new Rng(2), 99, 250, 0);
      const c = corr(returns(a, 1_000, 20_000), returns(b, 1_000, 20_000));
      expect(Math.abs(c - rho)).toBeLessThan(0.05);
    }
    const x = new UnderlyingPath({ ...plain, correlation: 0.8 }, new Rng(1), 98, 250, 0);
    const y = new UnderlyingPath({ ...plain, correlation: 0.8 }, new Rng(2), 99, 250, 0);
    expect(Math.abs(corr(returns(x, 1_000, 20_000), returns(y, 1_000, 20_000)))).toBeLessThan(0.05);
  });

  it('hashNormal is a deterministic standard normal by index', () => {
    const xs = Array.from({ length: 20_000 }, (_, i) => hashNormal(5, i));
    expect(hashNormal(5, 123)).toBe(xs[123]);
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length)).toBeLessThan(0.03);
    expect(Math.abs(sd(xs) - 1)).toBeLessThan(0.03);
  });

  it('rejects a non-positive grid', () => {
    expect(() => new UnderlyingPath(plain, new Rng(1), null, 0, 0)).toThrow(/grid/);
  });
});

describe('background makers', () => {
  it('build a multi-level two-sided ladder around fair in minimum-size lots', () => {
    const l = desiredLadder(11388.4, 100, maker, new Rng(1));
    const bids = l.filter((o) => o.side === 'buy').map((o) => o.priceTicks);
    const asks = l.filter((o) => o.side === 'sell').map((o) => o.priceTicks);
    expect(bids).toEqual([11384, 11383, 11382, 11381, 11380]);
    expect(asks).toEqual([11393, 11394, 11395, 11396, 11397]);
    expect(l.every((o) => o.qty % 100 === 0 && o.qty >= 100)).toBe(true);
  });

  it('diff keeps levels still wanted and replaces the rest', () => {
    const d = diffLadder(
      [
        { id: 'a', side: 'buy', priceTicks: 10 },
        { id: 'b', side: 'buy', priceTicks: 9 },
        { id: 'c', side: 'sell', priceTicks: 20 },
      ],
      [
        { side: 'buy', priceTicks: 10, qty: 100 },
        { side: 'sell', priceTicks: 21, qty: 100 },
      ],
    );
    expect(d.cancel).toEqual(['b', 'c']);
    expect(d.place).toEqual([{ side: 'sell', priceTicks: 21, qty: 100 }]);
  });

  it('widen and thin out in the volatile regime and after a jump, recovering over time', () => {
    expect(ladderShape(maker, false, Number.POSITIVE_INFINITY)).toEqual({ halfSpreadTicks: 4, minLots: 1, maxLots: 5 });
    expect(ladderShape(maker, true, Number.POSITIVE_INFINITY)).toEqual({ halfSpreadTicks: 8, minLots: 1, maxLots: 3 });
    expect(ladderShape(maker, false, 0)).toEqual({ halfSpreadTicks: 12, minLots: 1, maxLots: 2 });
    expect(ladderShape(maker, false, 5_000).halfSpreadTicks).toBe(8);
    expect(ladderShape(maker, false, 10_000).halfSpreadTicks).toBe(4);
    const wide = desiredLadder(1000, 1, maker, new Rng(1), ladderShape(maker, true, Number.POSITIVE_INFINITY));
    expect(Math.min(...wide.filter((o) => o.side === 'sell').map((o) => o.priceTicks))).toBe(1008);
  });
});

describe('Poisson takers', () => {
  it('arrive at the configured mean rate', () => {
    const r = new Rng(5);
    let t = 0;
    let n = 0;
    while (t < 3_600_000) {
      t += nextArrivalMs(taker, r);
      n++;
    }
    expect(n).toBeGreaterThan(30 * 60 * 0.9);
    expect(n).toBeLessThan(30 * 60 * 1.1);
  });

  it('trade the touch in lots, leaning towards fair', () => {
    const r = new Rng(9);
    let buys = 0;
    for (let i = 0; i < 1_000; i++) {
      const o = drawTaker(100, 108, 107, 107, 100, taker, r)!;
      if (o.side === 'buy') {
        buys++;
        expect(o.limitTicks).toBe(110);
      } else expect(o.limitTicks).toBe(98);
      expect(o.qty % 100).toBe(0);
    }
    expect(buys).toBeGreaterThan(700);
    expect(drawTaker(undefined, undefined, 100, 100, 1, { ...taker, fairSkew: 0 }, r)).toBeUndefined();
  });

  it('informed takers trade towards the future fair, whatever the current one says', () => {
    const r = new Rng(9);
    let buys = 0;
    let informed = 0;
    for (let i = 0; i < 1_000; i++) {
      const o = drawTaker(100, 108, 100, 120, 100, { ...taker, informedShare: 0.5, fairSkew: 0 }, r)!;
      if (o.informed) {
        informed++;
        expect(o.side).toBe('buy');
      }
      if (o.side === 'buy') buys++;
    }
    expect(informed).toBeGreaterThan(430);
    expect(informed).toBeLessThan(570);
    expect(buys).toBeGreaterThan(informed + 150);
  });

  it('arrive faster in the volatile regime', () => {
    const r = new Rng(5);
    let calm = 0;
    let wild = 0;
    for (let i = 0; i < 2_000; i++) {
      calm += nextArrivalMs(taker, r, false);
      wild += nextArrivalMs(taker, r, true);
    }
    expect(calm / wild).toBeGreaterThan(1.8);
    expect(calm / wild).toBeLessThan(2.2);
  });
});
