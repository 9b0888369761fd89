import { describe, expect, it } from 'vitest';
import { checkIntent, gateQuotes, type RiskView } from '../../src/risk/index.ts';
import { asClientOrderId, asSymbol } from '../../src/core/index.ts';
import { L, limits, view as flatView } from './gate-fixtures.ts';

// EURUSD-like: tick 0.0001, so 1.14 = 11400 ticks; the reference (mark) at 1.14.
const view = (over: Partial<RiskView> = {}): RiskView => flatView({ referenceTicks: 11_400, ...over });

describe('gateQuotes: NaN and malformed levels never pass', () => {
  it('drops a NaN, infinite, zero or negative price (the old gate passed each: NaN fails every comparison)', () => {
    const g = gateQuotes([L(NaN, 1), L(0, 1), L(-11_411, 1), L(11_390, 1)], [L(Infinity, 1), L(11_410, 1)], view(), limits());
    expect(g.bids).toEqual([L(11_390, 1)]);
    expect(g.asks).toEqual([L(11_410, 1)]);
    expect(g.reasons).toEqual(['invalid-level']);
  });

  it('a NaN quantity is dropped and the position cap still holds for the later levels of that side', () => {
    // max_position 10: the old gate kept the NaN level, `left` became NaN and 8 + 8 = 16 went out.
    const g = gateQuotes([L(11_399, NaN), L(11_398, 8), L(11_397, 8)], [L(11_401, 1)], view(), limits({ maxPosition: 10 }));
    expect(g.bids).toEqual([L(11_398, 8), L(11_397, 2)]);
    expect(g.bids.reduce((s, l) => s + l.qty, 0)).toBe(10);
    expect(g.reasons).toEqual(['invalid-level', 'max-position']);
  });
});

describe('gateQuotes: the fat-finger band around the reference price', () => {
  it('drops the 0.0001 bids an absurd book asks for while the pair trades at 1.14 (the venue band 0.0001–99999 says nothing)', () => {
    const bids = Array.from({ length: 20 }, () => L(1, 1));
    const g = gateQuotes(bids, [L(2, 1)], view({ bandLowerTicks: 1, bandUpperTicks: 999_990_000 }), limits());
    expect(g.bids).toEqual([]);
    expect(g.asks).toEqual([]);
    expect(g.reasons).toEqual(['fat-finger']);
  });

  it('keeps quotes within 500 bps of the reference (11400 ± 570 ticks: 10830..11970) and drops those beyond', () => {
    const g = gateQuotes([L(10_830, 1), L(10_829, 1)], [L(11_970, 1), L(11_971, 1)], view(), limits());
    expect(g.bids).toEqual([L(10_830, 1)]);
    expect(g.asks).toEqual([L(11_970, 1)]);
    expect(g.reasons).toEqual(['fat-finger']);
  });

  it('follows max_quote_deviation_bps; 0 turns it off, and without any known price there is no reference', () => {
    expect(gateQuotes([L(11_286, 1), L(11_285, 1)], [], view(), limits({ maxQuoteDeviationBps: 100 })).bids).toEqual([L(11_286, 1)]);
    expect(gateQuotes([L(1, 1)], [], view(), limits({ maxQuoteDeviationBps: 0 })).bids).toEqual([L(1, 1)]);
    expect(gateQuotes([L(1, 1)], [], view({ referenceTicks: null }), limits()).bids).toEqual([L(1, 1)]);
  });
});

describe('checkIntent: the same guards for raw intents and hedges', () => {
  const place = (priceTicks: number, qty: number) => ({
    kind: 'place' as const,
    symbol: asSymbol('EURUSD-PERP'),
    side: 'buy' as const,
    priceTicks,
    qty,
    tif: 'GTC' as const,
    postOnly: true,
    reprice: 'bo' as const,
    selfTrade: 'CancelIncoming' as const,
    clientOrderId: asClientOrderId(1),
    tag: null,
  });
  const none = { buyQty: 0, sellQty: 0, orders: 0 };
  it('refuses NaN sizes and prices, non-positive prices and prices beyond the fat-finger band', () => {
    expect(checkIntent(place(11_400, NaN), 'buy', view(), none, limits(), 0)).toBe('invalid-level');
    expect(checkIntent(place(NaN, 1), 'buy', view(), none, limits(), 0)).toBe('invalid-level');
    expect(checkIntent(place(0, 1), 'buy', view(), none, limits(), 0)).toBe('invalid-level');
    expect(checkIntent(place(1, 1), 'buy', view(), none, limits(), 0)).toBe('fat-finger');
    expect(checkIntent(place(10_830, 1), 'buy', view(), none, limits(), 0)).toBeNull();
  });
});
