import { describe, expect, it } from 'vitest';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import type { FeeRates } from '../../src/domain/fee-rates.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import type { Strategy, StrategyContext, StrategyOutput } from '../../src/strategy/contract.ts';
import { testInstrument } from '../record/fixtures.ts';

const A = testInstrument('AAA-PERP', '0.1', 1);
const B = testInstrument('BBB-PERP', '0.1', 1);
const T0 = Date.UTC(2026, 10, 18, 10, 0, 0);

/** Quotes nothing; remembers the fee rates its context shows. */
class FeeReader implements Strategy {
  fees: FeeRates | null = null;
  quote(ctx: StrategyContext): StrategyOutput {
    this.fees = { maker: ctx.fees.maker, taker: ctx.fees.taker };
    return null;
  }
}

describe('engine fee rates per symbol (the recording states them per symbol)', () => {
  it("each symbol's strategy sees that symbol's rates, not the first symbol's", async () => {
    const events = [
      ...syntheticMarket({ instrument: A, seed: 1, events: 200, startMs: T0, midTicks: 1_000, levels: 3, meanGapMs: 10 }),
      ...syntheticMarket({ instrument: B, seed: 2, events: 200, startMs: T0, midTicks: 2_000, levels: 3, meanGapMs: 10 }),
    ].sort((x, y) => x.tsRecv - y.tsRecv);
    const header = recordingHeader({ instruments: [A, B], startedAtMs: T0, source: 'test', fees: { [A.symbol]: { maker: '0.0001', taker: '0.0004' }, [B.symbol]: { maker: '-0.00005', taker: '0.0007' } } });
    const a = new FeeReader();
    const b = new FeeReader();
    const r = await runBacktest({
      data: toColumnar(header, [A, B], events),
      strategies: [
        { id: 'a', symbol: A.symbol, strategy: a },
        { id: 'b', symbol: B.symbol, strategy: b },
      ],
      risk: DEFAULT_RISK_CONFIG,
      execution: DEFAULT_EXECUTION_CONFIG,
      orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
      settings: defaultSettings(),
      createEngine,
    });
    expect(r.fees[B.symbol]).toMatchObject({ maker: -0.00005, taker: 0.0007, source: 'recording' });
    expect(a.fees).toEqual({ maker: 0.0001, taker: 0.0004 });
    expect(b.fees).toEqual({ maker: -0.00005, taker: 0.0007 });
  });
});
