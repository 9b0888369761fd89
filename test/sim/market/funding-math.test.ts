import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.ts';
import { capPctToBps, dailyCloseFunding, formatBps, intradaySlotFunding } from '../../../src/sim/funding/funding-math.ts';
import { defaultCatalog } from '../../../src/sim/catalog/default-catalog.ts';
import { PriceSeries } from '../../../src/sim/funding/price-series.ts';
import { markPrice, newInstrumentMarket, type InstrumentMarket } from '../../../src/sim/prices.ts';

const D = (s: string | number): Decimal => new Decimal(s);

describe('funding maths (docs/venue-rules.md §4)', () => {
  it('daily_close reproduces the captured EURUSD record', () => {
    const f = dailyCloseFunding(D('1.1404'), D('1.14015'), D('-1.0'), D('1.0'));
    expect(f.amount.toFixed(12)).toBe('0.000250000000');
    expect(f.rate.toFixed(12)).toBe('0.000219269394');
    expect(f.capped).toBe(false);
  });

  it('daily_close clamps to the cap in both directions', () => {
    const up = dailyCloseFunding(D('1.2'), D('1'), D('-1'), D('1'));
    expect(up.rate.toNumber()).toBe(0.01);
    expect(up.amount.toNumber()).toBe(0.01);
    expect(up.capped).toBe(true);
    const down = dailyCloseFunding(D('0.9'), D('1'), D('1'), D('1'));
    expect(down.rate.toNumber()).toBe(-0.01);
    expect(down.capped).toBe(true);
  });

  it('intraday slot charges premium/N, capped per slot in bps', () => {
    const f = intradaySlotFunding(D('100.13'), D('100'), 13, D('2'), true);
    expect(f.premiumBps.toNumber()).toBeCloseTo(13);
    expect(f.rateBps.toNumber()).toBeCloseTo(1);
    expect(f.amount.toNumber()).toBeCloseTo(0.01);
    expect(f.capped).toBe(false);
    const capped = intradaySlotFunding(D('101'), D('100'), 13, D('2'), false);
    expect(capped.rateBps.toNumber()).toBe(2);
    expect(capped.capped).toBe(true);
  });

  it('cap percent maps to bps as the funding-slots report prints it', () => {
    expect(formatBps(capPctToBps(D('1.0'))!)).toBe('100.0');
    expect(formatBps(capPctToBps(D('0.02'))!)).toBe('2.0');
    expect(capPctToBps(null)).toBeNull();
  });
});

describe('price series', () => {
  it('twap weights by time held, vwap by volume', () => {
    const s = new PriceSeries(3_600_000);
    s.push(0, 10, 1);
    s.push(1_000, 20, 3);
    expect(s.twap(0, 2_000)).toBe(15);
    expect(s.twap(500, 1_500)).toBe(15);
    expect(s.vwap(0, 2_000)).toBe(17.5);
    expect(s.at(999)).toBe(10);
    expect(s.twap(-1_000, 0)).toBeUndefined();
  });
});

describe('mark price (docs/venue-rules.md §5)', () => {
  const ins = defaultCatalog().get('EURUSD-PERP')!;
  const px = (ticks: number): string => ins.grid.toDecimal(ticks).toFixed();
  const market = (lastTradeTicks: number | null, lastTradeMs: number): InstrumentMarket => ({ ...newInstrumentMarket(ins, ins.grid.toDecimal(100), 0, 'OPEN'), lastTradeTicks, lastTradeMs });
  it('uses the last trade while recent, else the last settlement', () => {
    expect(markPrice(market(103, 9_000), 10_000, 5_000).toFixed()).toBe(px(103));
    expect(markPrice(market(103, 1_000), 10_000, 5_000).toFixed()).toBe(px(100));
    expect(markPrice(market(null, 0), 10_000, 5_000).toFixed()).toBe(px(100));
  });
});
