import { createEngine } from '../engine/index.ts';
import type { FeeRates, OrderManagerConfig } from '../engine/config.ts';
import type { ExecutionConfig } from '../execution/config.ts';
import type { RiskConfig } from '../risk/config.ts';
import { asSymbol } from '../core/ids.ts';
import { loadStrategy, parseStrategyParams } from '../strategy/registry.ts';
import { withOverlays, type OverlayConfig } from '../strategy/overlays/index.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import type { Engine, EngineDeps, StrategyBinding } from '../engine/index.ts';
import type { OrderEvent } from '../domain/events.ts';
import { runBacktest, type BacktestRun } from './runner.ts';
import type { BacktestSettings } from './settings.ts';

/** One strategy to run, by built-in name or absolute module path, with raw (validated) params. */
export interface StrategySpec {
  readonly id: string;
  readonly symbol: string;
  /** Every symbol of a multi-symbol strategy, primary first (absent: just `symbol`). */
  readonly symbols?: readonly string[];
  readonly strategy: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Quote overlays, already validated by the config schema. */
  readonly overlays?: readonly OverlayConfig[];
}

/**
 * A backtest run as plain data (structured-cloneable): the CLI builds it from a config file and
 * either runs it here or hands it to a sweep worker thread.
 */
export interface RunSpec {
  readonly strategies: readonly StrategySpec[];
  readonly risk: RiskConfig;
  readonly execution: ExecutionConfig;
  readonly orderManager: OrderManagerConfig;
  /** The engine's fee estimate; null = the rates the replay exchange charges. */
  readonly engineFees: FeeRates | null;
  readonly settings: BacktestSettings;
  readonly stopTimeoutMs: number;
}

/** A spec's strategies, instantiated (one backtest's worth: strategies keep state). */
export type SpecStrategies = StrategyBinding[];

/**
 * Instantiates the strategies of a spec (the part of a run before the replay).
 * @throws MmError STRATEGY_INVALID when a strategy fails to load or its params are bad.
 */
export async function runSpecStrategies(spec: RunSpec, baseDir?: string): Promise<SpecStrategies> {
  const strategies = [];
  for (const s of spec.strategies) {
    const def = await loadStrategy(s.strategy, baseDir);
    const symbols = (s.symbols ?? [s.symbol]).map(asSymbol);
    strategies.push({ id: s.id, symbol: asSymbol(s.symbol), ...(symbols.length > 1 ? { symbols } : {}), strategy: withOverlays(def.create(parseStrategyParams(def, s.params, s.id)), s.overlays ?? []) });
  }
  return strategies;
}

/**
 * Replays `data` through the daemon's engine with strategies from `runSpecStrategies(spec)`.
 * `observeOrders` sees every order event the replay exchange sends the engine, before the engine
 * does (`mmbot backtest --check`).
 */
export function runSpecOnStrategies(spec: RunSpec, data: ColumnarRecording, strategies: SpecStrategies, observeOrders?: (ev: OrderEvent) => void): Promise<BacktestRun> {
  return runBacktest({
    data,
    strategies,
    risk: spec.risk,
    execution: spec.execution,
    orderManager: spec.orderManager,
    engineFees: spec.engineFees,
    settings: spec.settings,
    createEngine: observeOrders ? observingEngine(observeOrders) : createEngine,
    stopTimeoutMs: spec.stopTimeoutMs,
  });
}

/**
 * Instantiates the strategies of a spec and replays `data` through the daemon's engine.
 * @throws MmError STRATEGY_INVALID when a strategy fails to load or its params are bad.
 */
export async function executeRunSpec(spec: RunSpec, data: ColumnarRecording, baseDir?: string, observeOrders?: (ev: OrderEvent) => void): Promise<BacktestRun> {
  return runSpecOnStrategies(spec, data, await runSpecStrategies(spec, baseDir), observeOrders);
}

/** The daemon's engine, with `observe` subscribed to its order stream ahead of it. */
function observingEngine(observe: (ev: OrderEvent) => void): (deps: EngineDeps) => Engine {
  return (deps) => {
    const engine = createEngine(deps);
    const start = engine.start.bind(engine);
    engine.start = (inputs) => {
      inputs.orders$.subscribe(observe);
      start(inputs);
    };
    return engine;
  };
}
