import { describe, expect, it } from 'vitest';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import { fillsCsv } from '../../src/backtest/report.ts';
import { resolveFeedDepth, runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import type { Strategy } from '../../src/strategy/contract.ts';
import { testInstrument } from '../record/fixtures.ts';

const START = 1_700_000_000_000;
const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
const col = toColumnar(
  recordingHeader({ instruments: [inst], startedAtMs: START, source: 'synthetic' }),
  [inst],
  syntheticMarket({ instrument: inst, seed: 3, events: 30_000, startMs: START, midTicks: 11380, levels: 20, meanGapMs: 2, tickerEveryMs: 1000 }),
);

async function replay(feedDepth: number | 'auto', params: Record<string, unknown>) {
  const def = await loadStrategy('fixed-spread');
  const strategy = def.create(parseStrategyParams(def, params));
  return runBacktest({
    data: col,
    strategies: [{ id: 'fs', symbol: inst.symbol, strategy }],
    risk: DEFAULT_RISK_CONFIG,
    execution: DEFAULT_EXECUTION_CONFIG,
    orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    settings: defaultSettings({ feedDepth }),
    createEngine,
  });
}

describe('feed depth', () => {
  it("'auto' is the deepest level any strategy reads; 20 when one does not say", () => {
    const s = (bookDepth?: number): { id: string; symbol: typeof inst.symbol; strategy: Strategy } => ({
      id: 'x',
      symbol: inst.symbol,
      strategy: { quote: () => null, ...(bookDepth === undefined ? {} : { bookDepth }) },
    });
    expect(resolveFeedDepth('auto', [s(1)])).toBe(1);
    expect(resolveFeedDepth('auto', [s(1), s(5)])).toBe(5);
    expect(resolveFeedDepth('auto', [s(1), s()])).toBe(20);
    expect(resolveFeedDepth('auto', [])).toBe(20);
    expect(resolveFeedDepth(7, [s(1)])).toBe(7);
  });

  it('delivering only the levels fixed-spread reads gives the same fills as delivering the top 20, with fewer engine events', async () => {
    for (const params of [{ halfSpreadTicks: 1, size: 5, maxPosition: 50 }, { fairValue: 'microprice', levels: 3, halfSpreadTicks: 2, size: 2 }]) {
      const auto = await replay('auto', params);
      const deep = await replay(20, params);
      expect(auto.fills.length).toBeGreaterThan(20);
      expect(fillsCsv(auto)).toBe(fillsCsv(deep));
      expect(auto.eventsReplayed).toBe(deep.eventsReplayed);
      expect(auto.eventsDelivered).toBeLessThan(deep.eventsDelivered * 0.8);
    }
  });
});
