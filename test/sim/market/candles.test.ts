import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../../src/sim/catalog/default-catalog.ts';
import { wireBboCandle } from '../../../src/sim/md/md-frames.ts';
import { CandleAggregator, bucketStart } from '../../../src/sim/md/candles.ts';

describe('candle aggregation', () => {
  it('builds OHLCV per width with buy/sell volume split by taker side', () => {
    const c = new CandleAggregator();
    c.onTrade(60_100, 100, 5, 'buy');
    c.onTrade(60_500, 103, 2, 'sell');
    c.onTrade(61_200, 99, 1, 'buy');
    const m = c.current('1m', 61_500)!;
    expect(m).toMatchObject({ startMs: 60_000, open: 100, high: 103, low: 99, close: 99, buyVolume: 6, sellVolume: 2 });
    const s = c.range('1s', 0, 120_000);
    expect(s.map((x) => x.startMs)).toEqual([60_000, 61_000]);
    expect(c.last('1s', 61_500)!.close).toBe(103);
  });

  it('last returns the previous bucket once time moved on; current is empty without trades', () => {
    const c = new CandleAggregator();
    c.onTrade(1_000, 10, 1, 'buy');
    expect(c.current('1s', 2_500)).toBeUndefined();
    expect(c.last('1s', 2_500)!.startMs).toBe(1_000);
  });

  it('BBO candles track bid, ask and mid', () => {
    const c = new CandleAggregator();
    c.onBbo(0, 10, 12);
    c.onBbo(500, 11, 15);
    const [one] = c.bboRange('1s', 0, 0);
    expect(one!.bid).toEqual({ open: 10, high: 11, low: 10, close: 11 });
    // The mid is kept as bid + ask (integers): (10+12)/2 = 11 … (11+15)/2 = 13.
    expect(one!.midSum).toEqual({ open: 22, high: 26, low: 22, close: 26 });
    c.onBbo(1_200, undefined, 14);
    expect(c.bboRange('1s', 1_000, 1_000)[0]!.bid).toBeUndefined();
  });

  it('BBO candle frames print the mid on half ticks', () => {
    const c = new CandleAggregator();
    c.onBbo(0, 11_400, 11_403);
    c.onBbo(400, 11_401, 11_403);
    const grid = defaultCatalog().get('EURUSD-PERP')!.grid;
    const w = wireBboCandle('EURUSD-PERP', c.bboRange('1s', 0, 0)[0]!, grid);
    expect([w.bid_open, w.ask_close, w.mid_open, w.mid_high, w.mid_close]).toEqual(['1.1400', '1.1403', '1.14015', '1.1402', '1.1402']);
  });

  it('keeps at most `maxHistory` completed candles per width, the newest, trade and BBO alike', () => {
    const c = new CandleAggregator(5);
    for (let s = 0; s < 50; s++) {
      c.onTrade(s * 1_000, 100 + s, 1, 'buy');
      c.onBbo(s * 1_000, 99 + s, 101 + s);
    }
    // 49 completed 1 s buckets (the 50th is in progress), 5 kept: seconds 44..48, then the current one.
    expect(c.held('1s')).toEqual({ trade: 5, bbo: 5 });
    expect(c.range('1s', 0, 60_000).map((x) => x.startMs / 1_000)).toEqual([44, 45, 46, 47, 48, 49]);
    expect(c.bboRange('1s', 0, 60_000).map((x) => x.bid!.open)).toEqual([143, 144, 145, 146, 147, 148]);
    expect(c.last('1s', 49_500)!.startMs).toBe(48_000);
    expect(c.held('5s')).toEqual({ trade: 5, bbo: 5 });
    expect(c.held('1m')).toEqual({ trade: 0, bbo: 0 });
  });

  it('aligns buckets to UTC multiples', () => {
    expect(bucketStart(Date.parse('2026-09-24T10:07:31Z'), '5m')).toBe(Date.parse('2026-09-24T10:05:00Z'));
    expect(bucketStart(Date.parse('2026-09-24T10:07:31Z'), '1d')).toBe(Date.parse('2026-09-24T00:00:00Z'));
  });
});
