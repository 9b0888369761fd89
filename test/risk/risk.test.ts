import { describe, expect, it } from 'vitest';
import { DEFAULT_KILL_SWITCH_CONFIG, DEFAULT_SYMBOL_RISK_LIMITS, KillSwitch, checkIntent, gateQuotes, limitsFor } from '../../src/risk/index.ts';
import { asClientOrderId, asSymbol } from '../../src/core/index.ts';
import { L, limits, view } from './gate-fixtures.ts';

describe('gateQuotes', () => {
  it('passes a compliant ladder through untouched (same arrays)', () => {
    const bids = [L(100, 1)];
    const asks = [L(102, 1)];
    const g = gateQuotes(bids, asks, view(), limits());
    expect(g.bids).toBe(bids);
    expect(g.asks).toBe(asks);
    expect(g.reasons).toEqual([]);
  });

  it('writes into a given result object (the engine reuses one) the same figures as a new one', () => {
    const out = { bids: [] as readonly ReturnType<typeof L>[], asks: [] as readonly ReturnType<typeof L>[], reasons: [] as readonly string[] };
    const g = gateQuotes([L(100, 5), L(99, 5)], [L(102, 5)], view({ position: 3, lingeringBuyQty: 1 }), limits({ maxPosition: 10 }), out);
    expect(g).toBe(out);
    expect(out).toEqual({ bids: [L(100, 5), L(99, 1)], asks: [L(102, 5)], reasons: ['max-position'] });
    expect(gateQuotes([L(1, 1)], [], view({ tradingState: 'HALTED' }), limits(), out)).toBe(out);
    expect(out).toEqual({ bids: [], asks: [], reasons: ['halted'] });
  });

  it('caps position counting lingering in-flight orders', () => {
    const g = gateQuotes([L(100, 5), L(99, 5)], [L(102, 5)], view({ position: 3, lingeringBuyQty: 1 }), limits({ maxPosition: 10 }));
    expect(g.bids).toEqual([L(100, 5), L(99, 1)]);
    expect(g.asks).toEqual([L(102, 5)]);
    expect(g.reasons).toEqual(['max-position']);
  });

  it('clips size and notional, drops out-of-band levels', () => {
    const g = gateQuotes([L(100, 80)], [L(10_000, 1), L(200, 1)], view({ bandUpperTicks: 5_000, usdPerTickContract: 1 }), limits({ maxOrderQty: 50, maxOrderNotionalUsd: 4_000 }));
    expect(g.bids).toEqual([L(100, 40)]);
    expect(g.asks).toEqual([L(200, 1)]);
    expect(g.reasons).toEqual(['max-order-notional', 'price-band']);
  });

  it('REDUCING keeps only the side that shrinks the position, capped at it', () => {
    const g = gateQuotes([L(100, 5)], [L(102, 5), L(103, 5)], view({ position: 7, tradingState: 'REDUCING' }), limits());
    expect(g.bids).toEqual([]);
    expect(g.asks).toEqual([L(102, 5), L(103, 2)]);
  });

  it('REDUCING never works more than max position on its side, whatever the position (issue 35, item 2)', () => {
    // A position of 4,700 against a cap of 3,000 (e.g. booked from a fill the venue never made):
    // the old room was the whole position, 2,000 + 2,000 + 700 = 4,700 to sell.
    const asks = [L(102, 2000), L(103, 2000), L(104, 2000)];
    const g = gateQuotes([], asks, view({ position: 4700, tradingState: 'REDUCING' }), limits({ maxPosition: 3000, maxOrderQty: 5000 }));
    expect(g.asks).toEqual([L(102, 2000), L(103, 1000)]);
    expect(g.reasons).toEqual(['max-position']);
    // Orders already lingering on the side count against the same 3,000; short, the buy side alike.
    expect(gateQuotes([], asks, view({ position: 4700, tradingState: 'REDUCING', lingeringSellQty: 2500 }), limits({ maxPosition: 3000, maxOrderQty: 5000 })).asks).toEqual([L(102, 500)]);
    expect(gateQuotes([L(100, 2000), L(99, 2000)], [], view({ position: -3500, tradingState: 'REDUCING' }), limits({ maxPosition: 3000, maxOrderQty: 5000 })).bids).toEqual([L(100, 2000), L(99, 1000)]);
    // Within the cap, the position still bounds the room (unchanged).
    expect(gateQuotes([], asks, view({ position: 2500, tradingState: 'REDUCING' }), limits({ maxPosition: 3000, maxOrderQty: 5000 })).asks).toEqual([L(102, 2000), L(103, 500)]);
  });

  it('HALTED quotes nothing; max open orders keeps the best levels on both sides', () => {
    expect(gateQuotes([L(1, 1)], [L(2, 1)], view({ tradingState: 'HALTED' }), limits())).toMatchObject({ bids: [], asks: [], reasons: ['halted'] });
    const g = gateQuotes([L(100, 1), L(99, 1), L(98, 1)], [L(102, 1), L(103, 1), L(104, 1)], view({ lingeringOrders: 1 }), limits({ maxOpenOrders: 4 }));
    expect(g.bids).toEqual([L(100, 1), L(99, 1)]);
    expect(g.asks).toEqual([L(102, 1)]);
  });

  it('per-symbol overrides apply field by field', () => {
    const cfg = { defaults: limits(), perSymbol: { X: { maxPosition: 3 } }, killSwitch: DEFAULT_KILL_SWITCH_CONFIG };
    expect(limitsFor(cfg, 'X')).toMatchObject({ maxPosition: 3, maxOrderQty: DEFAULT_SYMBOL_RISK_LIMITS.maxOrderQty });
  });
});

describe('checkIntent', () => {
  const place = (qty: number, side: 'buy' | 'sell' = 'buy') => ({
    kind: 'place' as const,
    symbol: asSymbol('X'),
    side,
    priceTicks: 100,
    qty,
    tif: 'GTC' as const,
    postOnly: true,
    reprice: 'bo' as const,
    selfTrade: 'CancelIncoming' as const,
    clientOrderId: asClientOrderId(1),
    tag: null,
  });
  it('checks size, position with exposure, REDUCING and open orders', () => {
    const ex = { buyQty: 4, sellQty: 0, orders: 1 };
    expect(checkIntent(place(60), 'buy', view(), ex, limits(), 0)).toBe('max-order-qty');
    expect(checkIntent(place(7), 'buy', view({ position: 0 }), ex, limits({ maxPosition: 10 }), 0)).toBe('max-position');
    expect(checkIntent(place(6), 'buy', view({ position: 0 }), ex, limits({ maxPosition: 10 }), 0)).toBeNull();
    expect(checkIntent(place(1), 'buy', view({ position: 0, tradingState: 'REDUCING' }), ex, limits(), 0)).toBe('reducing');
    expect(checkIntent(place(2, 'sell'), 'sell', view({ position: 2, tradingState: 'REDUCING' }), { buyQty: 0, sellQty: 0, orders: 0 }, limits(), 0)).toBeNull();
    expect(checkIntent(place(1), 'buy', view(), { buyQty: 0, sellQty: 0, orders: 20 }, limits({ maxOpenOrders: 20 }), 0)).toBe('max-open-orders');
  });

  it('REDUCING refuses an intent that would work more than max position on its side (issue 35, item 2)', () => {
    const big = limits({ maxPosition: 3000, maxOrderQty: 5000, maxOrderNotionalUsd: 1e9 });
    const long = view({ position: 4700, tradingState: 'REDUCING' });
    // Old code: null (the room was the whole 4,700).
    expect(checkIntent(place(3001, 'sell'), 'sell', long, { buyQty: 0, sellQty: 0, orders: 0 }, big, 0)).toBe('max-position');
    expect(checkIntent(place(3000, 'sell'), 'sell', long, { buyQty: 0, sellQty: 0, orders: 0 }, big, 0)).toBeNull();
    expect(checkIntent(place(1000, 'sell'), 'sell', long, { buyQty: 0, sellQty: 2500, orders: 1 }, big, 0)).toBe('max-position');
    expect(checkIntent(place(1, 'buy'), 'buy', long, { buyQty: 0, sellQty: 0, orders: 0 }, big, 0)).toBe('reducing');
    // ACTIVE is unchanged: the distance from the position to the cap.
    expect(checkIntent(place(3000, 'sell'), 'sell', view({ position: 2900 }), { buyQty: 0, sellQty: 2900, orders: 1 }, big, 0)).toBeNull();
    expect(checkIntent(place(3001, 'sell'), 'sell', view({ position: 2900 }), { buyQty: 0, sellQty: 2900, orders: 1 }, big, 0)).toBe('max-position');
  });
});

describe('KillSwitch', () => {
  const inputs = (nowMs: number, pnl: number, age: number | null = 0, down: number | null = null) => ({ nowMs, totalPnlUsd: pnl, maxMarketDataAgeMs: age, disconnectedSinceMs: down });
  it('trips on drawdown from the peak and latches until reset', () => {
    const k = new KillSwitch({ ...DEFAULT_KILL_SWITCH_CONFIG, maxDrawdownUsd: 100, maxDailyLossUsd: 0 });
    expect(k.check(inputs(0, 50))).toBeNull();
    expect(k.check(inputs(1, -49))).toBeNull();
    expect(k.check(inputs(2, -51))).toMatchObject({ kind: 'tripped', reason: 'drawdown' });
    expect(k.check(inputs(3, 500))).toBeNull();
    expect(k.tripped).toBe(true);
    expect(k.reset(500)).toBe(true);
    expect(k.tripped).toBe(false);
  });

  it('trips on daily loss measured from the UTC day start', () => {
    const k = new KillSwitch({ ...DEFAULT_KILL_SWITCH_CONFIG, maxDrawdownUsd: 0, maxDailyLossUsd: 100 });
    const day = 86_400_000;
    expect(k.check(inputs(day - 10, -90))).toBeNull();
    expect(k.check(inputs(day + 10, -150))).toBeNull(); // new day starts at −150
    expect(k.check(inputs(day + 20, -251))).toMatchObject({ reason: 'daily-loss' });
  });

  it('trips on a reject storm within the window only', () => {
    const k = new KillSwitch({ ...DEFAULT_KILL_SWITCH_CONFIG, rejectStormCount: 3, rejectStormWindowMs: 1_000 });
    expect(k.recordReject(0)).toBeNull();
    expect(k.recordReject(500)).toBeNull();
    expect(k.recordReject(1_600)).toBeNull();
    expect(k.recordReject(1_700)).toBeNull();
    expect(k.recordReject(1_800)).toMatchObject({ reason: 'reject-storm' });
  });

  it('stale data and lost connection clear by themselves', () => {
    const k = new KillSwitch({ ...DEFAULT_KILL_SWITCH_CONFIG, staleMarketDataMs: 1_000, lostConnectionMs: 1_000 });
    expect(k.check(inputs(0, 0, 1_001))).toMatchObject({ kind: 'tripped', reason: 'stale-market-data' });
    expect(k.check(inputs(1, 0, 10))).toMatchObject({ kind: 'cleared', reason: 'stale-market-data' });
    expect(k.check(inputs(2_000, 0, 0, 500))).toMatchObject({ kind: 'tripped', reason: 'lost-connection' });
    expect(k.check(inputs(2_001, 0, 0, null))).toMatchObject({ kind: 'cleared' });
  });
});
