import { describe, expect, it } from 'vitest';
import type { Symbol } from '../../src/core/ids.ts';
import type { TradePrinted } from '../../src/domain/events.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';
import { testInstrument } from '../record/fixtures.ts';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import type { StrategyContext } from '../../src/strategy/contract.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

const trade = (symbol: Symbol, priceTicks: number, t: number): TradePrinted => ({ type: 'trade', symbol, priceTicks, qty: 1, aggressor: 'buy', tsEvent: t, tsRecv: t });

/** Reads the touch only, never the time; `readsTrades` as given. */
class TouchQuoter extends ScriptedStrategy {
  readonly bookDepth = 1;
  declare readonly readsTrades?: boolean;
  constructor(readsTrades: boolean | undefined) {
    super();
    if (readsTrades !== undefined) Object.defineProperty(this, 'readsTrades', { value: readsTrades });
  }
  override quote(ctx: StrategyContext): DesiredQuotes | null {
    return super.quote(ctx);
  }
  stableUntilMs(): number {
    return Infinity;
  }
}

describe('Strategy.readsTrades: false spares a strategy the calls only trades would cause', () => {
  it('a trade does not call it, a change at the touch does; unset, every trade calls it', async () => {
    for (const readsTrades of [false, undefined]) {
      const s = new TouchQuoter(readsTrades);
      s.next = quotes(EURUSD, 10_990, 11_010);
      const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
      const t = h.clock.nowMs();
      h.market$.next(bookEv(EURUSD, 11_000, 11_002, t));
      await h.advance(1_000);
      const n = s.calls;
      for (let k = 0; k < 5; k++) h.market$.next(trade(EURUSD, 11_002, t + 1_000));
      await h.settle();
      expect(s.calls - n, `readsTrades ${readsTrades}`).toBe(readsTrades === false ? 0 : 5);
      // The ticks after the trades: a strategy that reads them was told already, so neither is called.
      await h.advance(1_000);
      expect(s.calls - n).toBe(readsTrades === false ? 0 : 5);
      h.market$.next(bookEv(EURUSD, 11_001, 11_002, h.clock.nowMs()));
      await h.settle();
      expect(s.calls - n).toBe(readsTrades === false ? 1 : 6);
    }
  });

  it('changes no decision: fixed-spread (readsTrades false) replays to the very fills it gives when every trade calls it', async () => {
    const def = await loadStrategy('fixed-spread');
    const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
    const start = 1_700_000_000_000;
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: start, source: 'synthetic' }), [inst], syntheticMarket({ instrument: inst, seed: 4, events: 40_000, startMs: start, midTicks: 11_380, levels: 10, meanGapMs: 0.5, tickerEveryMs: 1_000 }));
    const replay = async (forceTrades: boolean) => {
      const inner = def.create(parseStrategyParams(def, { halfSpreadTicks: 1, size: 5, maxPosition: 50 }));
      expect(inner.readsTrades).toBe(false);
      let calls = 0;
      const { readsTrades: _declared, ...readsAll } = inner;
      const strategy = { ...(forceTrades ? readsAll : inner), quote: (ctx: StrategyContext) => (calls++, inner.quote(ctx)) };
      const run = await runBacktest({ data: col, strategies: [{ id: 'fs', symbol: inst.symbol, strategy }], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG, settings: defaultSettings(), createEngine });
      return { calls, fills: run.fills.map((f) => `${f.tsLocal} ${f.side} ${f.priceTicks} ${f.qty}`) };
    };
    const every = await replay(true);
    const spared = await replay(false);
    expect(every.fills.length).toBeGreaterThan(50);
    expect(spared.fills).toEqual(every.fills);
    expect(spared.calls).toBeLessThan(every.calls * 0.8);
  });
});
