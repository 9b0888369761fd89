/**
 * An example queue model loaded by path (`backtest.queue_model: { kind: module, module:
 * ../examples/queue-model/ahead-share.ts, params: { aheadShare: 0.3 } }`, the path relative to the
 * config file). The interface is in src/backtest/README.md ("Queue models").
 *
 * The model: trades at our level advance us one for one; a depth decrease the trades since the last
 * depth update do not explain is taken to be cancels, a fixed share `aheadShare` of them ahead of us
 * (0 = all behind: risk-averse; 1 = all ahead: optimistic). The queue ahead never exceeds what is
 * displayed.
 */
import type { QueueModel, QueueModelModule, QueueState } from '../../src/backtest/index.ts';

/** Builds the model; `aheadShare` in [0, 1]. */
export function aheadShareQueue(aheadShare: number): QueueModel {
  return {
    name: `ahead-share(${aheadShare})`,
    onTrade(q: QueueState, qty: number): void {
      q.front -= qty;
      q.cumTrades += qty;
    },
    onDepth(q: QueueState, prev: number, next: number): void {
      const cancels = prev - next - q.cumTrades;
      q.cumTrades = 0;
      if (cancels > 0) q.front -= aheadShare * cancels;
      if (next < q.front) q.front = next;
    },
  };
}

/** The module's default export: `create` validates the params. */
const module: QueueModelModule = {
  name: 'ahead-share',
  create(params) {
    const share = params['aheadShare'] ?? 0.5;
    if (typeof share !== 'number' || !(share >= 0 && share <= 1)) throw new Error(`aheadShare: expected a number in [0, 1], got ${JSON.stringify(share)}`);
    return aheadShareQueue(share);
  },
};

export default module;
