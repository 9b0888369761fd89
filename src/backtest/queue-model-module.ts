import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MmError } from '../core/errors.ts';
import { probQueue, riskAverseQueue, type QueueModel } from './queue-model.ts';
import type { BacktestSettings } from './settings.ts';

/**
 * What a user's queue-model module exports (its default export, or a named `queueModel` export),
 * loaded by path like a strategy module: `backtest.queue_model: { kind: module, module: ./my-model.ts,
 * params: {...} }`. `create` gets `params` as written and returns the model the replay exchange calls
 * for each of our resting orders (src/backtest/README.md, "Queue models"; examples/queue-model/).
 */
export interface QueueModelModule {
  /** Shown in reports. */
  readonly name: string;
  /**
   * Builds the model; called once per run.
   * @throws Error naming the bad parameter (the loader reports it as CONFIG_INVALID).
   */
  create(params: Readonly<Record<string, unknown>>): QueueModel;
}

/** True when `x` looks like a QueueModelModule ({ name, create }). */
export function isQueueModelModule(x: unknown): x is QueueModelModule {
  if (typeof x !== 'object' || x === null) return false;
  const d = x as Record<string, unknown>;
  return typeof d['name'] === 'string' && typeof d['create'] === 'function';
}

/** True when `x` has a QueueModel's shape (name, onTrade, onDepth). */
const isQueueModel = (x: unknown): x is QueueModel =>
  typeof x === 'object' && x !== null && typeof (x as QueueModel).name === 'string' && typeof (x as QueueModel).onTrade === 'function' && typeof (x as QueueModel).onDepth === 'function';

/**
 * Loads a queue-model module by absolute path (or a path relative to the working directory) and
 * builds its model with `params`.
 * @throws MmError CONFIG_INVALID naming the module and what is wrong.
 */
export async function loadQueueModel(path: string, params: Readonly<Record<string, unknown>> = {}): Promise<QueueModel> {
  const url = pathToFileURL(isAbsolute(path) ? path : `${process.cwd()}/${path}`).href;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    throw new MmError('CONFIG_INVALID', `backtest.queue_model.module ${path} failed to load: ${err instanceof Error ? err.message : String(err)}`, { path: 'backtest.queue_model.module', value: path }, { cause: err });
  }
  const def = isQueueModelModule(mod['default']) ? mod['default'] : mod['queueModel'];
  if (!isQueueModelModule(def)) throw new MmError('CONFIG_INVALID', `backtest.queue_model.module ${path} has no default export or \`queueModel\` export of the shape { name, create(params) }`, { path: 'backtest.queue_model.module', value: path });
  let model: unknown;
  try {
    model = def.create(params);
  } catch (err) {
    throw new MmError('CONFIG_INVALID', `backtest.queue_model.params for ${def.name}: ${err instanceof Error ? err.message : String(err)}`, { path: 'backtest.queue_model.params', value: params }, { cause: err });
  }
  if (!isQueueModel(model)) throw new MmError('CONFIG_INVALID', `backtest.queue_model.module ${path}: create() must return { name, onTrade(q, qty), onDepth(q, prev, next) }`, { path: 'backtest.queue_model.module', value: path });
  return model;
}

/**
 * The L2 queue model of a run's settings. `auto` and `l3-fifo` give risk-averse: the runner uses the
 * exact FIFO instead wherever the recording has order lists, so this one only matters without them.
 * @throws MmError CONFIG_INVALID when a module fails to load.
 */
export async function resolveQueueModel(cfg: BacktestSettings['queueModel']): Promise<QueueModel> {
  const model = await baseQueueModel(cfg);
  return cfg.inferHidden === true ? { ...model, name: `${model.name}+infer-hidden`, inferHidden: true } : model;
}

async function baseQueueModel(cfg: BacktestSettings['queueModel']): Promise<QueueModel> {
  switch (cfg.kind) {
    case 'auto':
    case 'l3-fifo':
    case 'risk-averse':
      return riskAverseQueue;
    case 'module':
      if (cfg.module === undefined) throw new MmError('CONFIG_INVALID', 'backtest.queue_model.kind module needs module: <path>', { path: 'backtest.queue_model.module' });
      return loadQueueModel(cfg.module, cfg.params ?? {});
    default:
      return probQueue(cfg.kind, cfg.n);
  }
}
