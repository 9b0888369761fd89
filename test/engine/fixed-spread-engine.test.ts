import { describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/index.ts';
import { DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/index.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

describe('engine with fixed-spread', () => {
  it('quotes the ladder, requotes after a fill with skewed sizes, and follows the book', async () => {
    const def = await loadStrategy('fixed-spread');
    const strategy = def.create(parseStrategyParams(def, { levels: 2, halfSpreadTicks: 2, spacingTicks: 1, size: 4, skewRangeContracts: 8 }));
    const h = await harness([{ id: 'fs', symbol: EURUSD, strategy }]);
    h.market$.next(bookEv(EURUSD, 11000, 11002, h.clock.nowMs()));
    await h.settle();
    const ladder = () => h.gw.open().map((o) => [o.side, o.priceTicks, o.remainingQty]).sort();
    expect(ladder()).toEqual([['buy', 10998, 4], ['buy', 10999, 4], ['sell', 11003, 4], ['sell', 11004, 4]]);
    const best = h.gw.open().find((o) => o.priceTicks === 10999)!;
    h.gw.fill({ orderId: best.orderId }, 4);
    await h.settle();
    // Long 4 of range 8: bid multiplier 0.5, ask 1.5.
    expect(ladder()).toEqual([['buy', 10998, 2], ['buy', 10999, 2], ['sell', 11003, 6], ['sell', 11004, 6]]);
    h.market$.next(bookEv(EURUSD, 11010, 11012, h.clock.nowMs()));
    await h.settle();
    expect(ladder()).toEqual([['buy', 11008, 2], ['buy', 11009, 2], ['sell', 11013, 6], ['sell', 11014, 6]]);
    const snap = h.engine.snapshot();
    expect(snap.symbols[0]!.position.qty).toBe(4);
    expect(snap.counters.fills).toBe(1);
    // 4 places at start, 1 to refill the filled level; every move after that is replaces only.
    expect(h.gw.calls('place')).toHaveLength(5);
    expect(h.gw.calls('cancel')).toHaveLength(0);
  });

  it('a CLOSE_ONLY reject makes the symbol REDUCING: only the reducing side is quoted', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    s.next = quotes(EURUSD, 11000, null, 3);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open()[0]!.orderId }, 3);
    await h.settle();
    h.gw.failNext('place', new MmError('ORDER_REJECTED', 'close only', { reason: 'CLOSE_ONLY' }));
    s.next = quotes(EURUSD, 11000, 11010, 5);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    await h.advance(300, 100);
    const snap = h.engine.snapshot().symbols[0]!;
    expect(snap.tradingState).toBe('REDUCING');
    expect(snap.tradingReason).toBe('close-only');
    // Long 3: only an ask, capped at 3.
    expect(h.gw.open().map((o) => [o.side, o.remainingQty])).toEqual([['sell', 3]]);
  });

  it('operator HALTED pulls quotes; ACTIVE resumes; position over the limit forces REDUCING', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { risk: { ...DEFAULT_RISK_CONFIG, defaults: { ...DEFAULT_RISK_CONFIG.defaults, maxPosition: 2 } } });
    s.next = quotes(EURUSD, 11000, 11010, 2);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.engine.setTradingState(null, 'HALTED', 'operator');
    await h.settle();
    expect(h.gw.open()).toEqual([]);
    expect(h.of('trading-state-changed').map((e) => [e.symbol, e.to])).toEqual([[null, 'HALTED'], [EURUSD, 'HALTED']]);
    h.engine.setTradingState(null, 'ACTIVE', 'operator');
    await h.settle();
    expect(h.gw.open()).toHaveLength(2);
    // A buy fills beyond the limit (an adopted/raced fill): 2 + 2 fills → over max 2 → REDUCING.
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.fill({ orderId: bid.orderId }, 2);
    await h.settle();
    const bid2 = h.gw.open().find((o) => o.side === 'buy');
    expect(bid2).toBeUndefined(); // at the limit: no more bids
    expect(h.engine.snapshot().symbols[0]!.tradingState).toBe('ACTIVE');
  });
});
