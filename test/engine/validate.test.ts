import { describe, expect, it } from 'vitest';
import { clockScheduler, VirtualClock } from '../../src/core/index.ts';
import { instrumentCatalog } from '../../src/domain/index.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG, type EngineDeps } from '../../src/engine/index.ts';
import { FakeGateway } from '../support/fake-gateway.ts';
import { EURUSD, ScriptedStrategy, makeInstrument } from './harness.ts';

const deps = (over: Partial<EngineDeps> = {}): EngineDeps => {
  const clock = new VirtualClock(0);
  return {
    clock,
    scheduler: clockScheduler(clock),
    gateway: new FakeGateway(clock),
    instruments: instrumentCatalog([makeInstrument(EURUSD)]),
    strategies: [{ id: 's', symbol: EURUSD, strategy: new ScriptedStrategy() }],
    risk: DEFAULT_RISK_CONFIG,
    execution: DEFAULT_EXECUTION_CONFIG,
    orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    ...over,
  };
};

describe('createEngine validation', () => {
  it('names the bad field and value', () => {
    expect(() => createEngine(deps({ orderManager: { ...DEFAULT_ORDER_MANAGER_CONFIG, tag: 'not-alnum!' } }))).toThrow(/orderManager\.tag = "not-alnum!"/);
    expect(() => createEngine(deps({ execution: { ...DEFAULT_EXECUTION_CONFIG, budgets: [{ name: 'x', capacity: 0, refillPerSec: 1, costs: {} }] } }))).toThrow(/execution\.budgets\[0\]\.capacity = 0/);
    expect(() => createEngine(deps({ risk: { ...DEFAULT_RISK_CONFIG, perSymbol: { X: { maxPosition: -1 } } } }))).toThrow(/risk\.perSymbol\.X\.maxPosition = -1/);
    expect(() => createEngine(deps({ risk: { ...DEFAULT_RISK_CONFIG, perSymbol: { X: { maxQuoteDeviationBps: -5 } } } }))).toThrow(/risk\.perSymbol\.X\.maxQuoteDeviationBps = -5/);
    expect(() => createEngine(deps({ risk: { ...DEFAULT_RISK_CONFIG, marketData: { crossedBookMs: NaN, maxMidDeviationBps: 300 } } }))).toThrow(/risk\.marketData\.crossedBookMs = null/);
    expect(() => createEngine(deps({ risk: { ...DEFAULT_RISK_CONFIG, marketData: { crossedBookMs: 1000, maxMidDeviationBps: -1 } } }))).toThrow(/risk\.marketData\.maxMidDeviationBps = -1/);
    expect(() => createEngine(deps({ strategies: [{ id: 'q', symbol: 'NOPE' as never, strategy: new ScriptedStrategy() }] }))).toThrow(/unknown symbol NOPE/);
    const twice = new ScriptedStrategy();
    expect(() => createEngine(deps({ strategies: [{ id: 'a', symbol: EURUSD, strategy: twice }, { id: 'b', symbol: EURUSD, strategy: twice }] }))).toThrow(/one strategy per symbol/);
    expect(() => createEngine(deps())).not.toThrow();
  });
});
