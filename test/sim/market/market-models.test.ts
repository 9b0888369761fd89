import { describe, expect, it } from 'vitest';
import { desiredLadder, diffLadder } from '../../../src/sim/market/maker-model.ts';
import { PriceProcess } from '../../../src/sim/market/price-process.ts';
import { Rng, deriveSeed } from '../../../src/sim/market/rng.ts';
import { drawTaker, nextArrivalMs } from '../../../src/sim/market/taker-model.ts';

const maker = { levels: 5, halfSpreadTicks: 4, levelSpacingTicks: 1, minLots: 1, maxLots: 5, requoteThresholdTicks: 1 };
const taker = { ratePerMin: 30, medianLots: 2, sizeSigma: 0.6, maxLots: 20, sweepTicks: 2, fairSkew: 0.3 };

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

describe('price process', () => {
  it('moves with the configured daily volatility (in the instrument units)', () => {
    const p = new PriceProcess({ startPrice: 1.14, dailyVolPct: 1, jumpsPerDay: 0, jumpSizeBps: 0, meanReversionPerDay: 0 }, new Rng(3));
    const rets: number[] = [];
    let prev = p.price;
    for (let i = 0; i < 2_000; i++) {
      const x = p.step(60_000);
      rets.push(Math.log(x / prev));
      prev = x;
    }
    const sd = Math.sqrt(rets.reduce((s, r) => s + r * r, 0) / rets.length);
    const expected = 0.01 * Math.sqrt(60_000 / 86_400_000);
    expect(sd / expected).toBeGreaterThan(0.9);
    expect(sd / expected).toBeLessThan(1.1);
    expect(p.price).toBeGreaterThan(0);
  });

  it('rejects a non-positive start price', () => {
    expect(() => new PriceProcess({ startPrice: 0, dailyVolPct: 1, jumpsPerDay: 0, jumpSizeBps: 0, meanReversionPerDay: 0 }, new Rng(1))).toThrow(/start price/);
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
      const o = drawTaker(100, 108, 107, 100, taker, r)!;
      if (o.side === 'buy') {
        buys++;
        expect(o.limitTicks).toBe(110);
      } else expect(o.limitTicks).toBe(98);
      expect(o.qty % 100).toBe(0);
    }
    expect(buys).toBeGreaterThan(700);
    expect(drawTaker(undefined, undefined, 100, 1, { ...taker, fairSkew: 0 }, r)).toBeUndefined();
  });
});
