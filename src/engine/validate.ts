import { MmError } from '../core/errors.ts';
import type { EngineDeps } from './types.ts';

const TAG_RE = /^[A-Za-z0-9]{1,10}$/;

/**
 * Checks the engine's configs for values the venue or the engine cannot work with, so a bad config
 * fails at start-up naming the field, not as a stream of rejects later.
 * @throws MmError CONFIG_INVALID naming the field and value.
 */
export function validateEngineDeps(deps: EngineDeps): void {
  const bad = (path: string, value: unknown, why: string): never => {
    throw new MmError('CONFIG_INVALID', `engine config ${path} = ${JSON.stringify(value)}: ${why}`, { path, value });
  };
  const om = deps.orderManager;
  if (om.tag !== null && !TAG_RE.test(om.tag)) bad('orderManager.tag', om.tag, 'the venue takes at most 10 alphanumeric characters');
  if (!(om.tickIntervalMs > 0)) bad('orderManager.tickIntervalMs', om.tickIntervalMs, 'must be > 0');
  if (!(om.priceToleranceTicks >= 0)) bad('orderManager.priceToleranceTicks', om.priceToleranceTicks, 'must be ≥ 0');
  if (!(om.sizeTolerance >= 0 && om.sizeTolerance < 1)) bad('orderManager.sizeTolerance', om.sizeTolerance, 'must be in [0, 1)');
  if (!(om.minOrderLifetimeMs >= 0)) bad('orderManager.minOrderLifetimeMs', om.minOrderLifetimeMs, 'must be ≥ 0');
  if (!(om.statusQueryDelayMs >= 0) || !(om.cancelRetryMs > 0)) bad('orderManager.statusQueryDelayMs/cancelRetryMs', [om.statusQueryDelayMs, om.cancelRetryMs], 'must be ≥ 0 / > 0');
  const ex = deps.execution;
  if (ex.budgets.length === 0) bad('execution.budgets', ex.budgets, 'at least one budget is needed');
  ex.budgets.forEach((b, i) => {
    if (!(b.capacity > 0)) bad(`execution.budgets[${i}].capacity`, b.capacity, 'must be > 0');
    if (!(b.refillPerSec > 0)) bad(`execution.budgets[${i}].refillPerSec`, b.refillPerSec, 'must be > 0');
    for (const [e, c] of Object.entries(b.costs)) {
      if (c !== undefined && !(c >= 0 && c <= b.capacity)) bad(`execution.budgets[${i}].costs.${e}`, c, `must be in [0, capacity ${b.capacity}] or the request could never be sent`);
    }
  });
  if (!(ex.maxQueue > 0)) bad('execution.maxQueue', ex.maxQueue, 'must be > 0');
  if (!(ex.maxInFlight > 0)) bad('execution.maxInFlight', ex.maxInFlight, 'must be > 0');
  const ad = ex.adaptive;
  if (!(ad.decreaseFactor > 0 && ad.decreaseFactor < 1)) bad('execution.adaptive.decreaseFactor', ad.decreaseFactor, 'must be in (0, 1)');
  if (!(ad.increasePerSec > 0)) bad('execution.adaptive.increasePerSec', ad.increasePerSec, 'must be > 0');
  if (!(ad.minRatePerSec > 0)) bad('execution.adaptive.minRatePerSec', ad.minRatePerSec, 'must be > 0');
  if (!(ad.maxIdleMs > 0)) bad('execution.adaptive.maxIdleMs', ad.maxIdleMs, 'must be > 0');
  if (!(ad.burstIncreaseMs > 0) || !(ad.unavailablePauseMs >= 0)) bad('execution.adaptive.burstIncreaseMs/unavailablePauseMs', [ad.burstIncreaseMs, ad.unavailablePauseMs], 'must be > 0 / ≥ 0');
  const lim = { defaults: deps.risk.defaults, ...deps.risk.perSymbol };
  for (const [k, l] of Object.entries(lim)) {
    for (const f of ['maxPosition', 'maxOrderQty', 'maxOrderNotionalUsd', 'maxOpenOrders', 'bandMarginTicks', 'maxQuoteDeviationBps'] as const) {
      const v = l[f];
      if (v !== undefined && !(v >= 0)) bad(`risk.${k === 'defaults' ? 'defaults' : `perSymbol.${k}`}.${f}`, v, 'must be ≥ 0');
    }
  }
  const md = deps.risk.marketData;
  if (md !== undefined) {
    if (!(md.crossedBookMs >= 0)) bad('risk.marketData.crossedBookMs', md.crossedBookMs, 'must be ≥ 0 (0 = off)');
    if (!(md.maxMidDeviationBps >= 0)) bad('risk.marketData.maxMidDeviationBps', md.maxMidDeviationBps, 'must be ≥ 0 (0 = off)');
  }
}
