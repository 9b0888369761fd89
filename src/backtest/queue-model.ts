/**
 * Queue-position models for L2 data (docs/fill-models.md, after hftbacktest). An order joins at
 * the back of its level: `front` = the displayed quantity ahead of it. Trades at the level reduce
 * `front`; when it goes below zero the excess traded volume fills the order. Depth decreases are
 * attributed to cancellations ahead of or behind the order depending on the model.
 *
 * "Displayed" means the recorded level minus the recording bot's own working orders when the
 * recording has them (`o` lines, `backtest.own_orders: subtract`): the exchange passes both the
 * joining quantity and every depth change through that subtraction (ExchangeCore.othersQty), so a
 * replayed order never queues behind the live bot's own order at its price.
 */

/** The per-order queue state a model updates. */
export interface QueueState {
  /** Volume ahead of the order (may go negative: the excess is filled). */
  front: number;
  /** Volume traded at the level since the last depth update (probabilistic models). */
  cumTrades: number;
  /** L3 recordings (l3-fifo.ts): market orders ahead of ours; `front` is then their exact total. */
  aheadOrders?: number;
  /** Queue ahead a book frame at `depthAheadMs` removed that no print has matched yet (depth-before-print.ts). */
  depthAhead?: number;
  depthAheadMs?: number;
}

/** A queue model: pure updates of one order's queue state. */
export interface QueueModel {
  /** Config name, for reports. */
  readonly name: string;
  /** `qty` traded at the order's price level. */
  onTrade(q: QueueState, qty: number): void;
  /** The displayed quantity at the order's level changed from `prev` to `next`. */
  onDepth(q: QueueState, prev: number, next: number): void;
  /**
   * Read an unmarked print at a price where no displayed volume stood on the side it hit, within
   * the recorded depth, as a hidden execution (infer-hidden.ts). Absent: false.
   */
  readonly inferHidden?: boolean;
}

/**
 * RiskAverse (the default): every cancellation is assumed to be behind us, so only trades advance
 * the order, and the queue ahead can never exceed what is displayed: front = min(front, displayed).
 */
export const riskAverseQueue: QueueModel = {
  name: 'risk-averse',
  onTrade(q, qty) {
    q.front -= qty;
  },
  onDepth(q, _prev, next) {
    if (next < q.front) q.front = next;
  },
};

/** Shapes of the probability that a depth decrease happened behind the order. */
export type ProbShape = 'power' | 'power2' | 'power3' | 'log' | 'log2';

/** p(front, back): probability a cancellation is behind us. p(front=0)=0, p(back=0)=1. */
export function probBehind(shape: ProbShape, n: number, front: number, back: number): number {
  const f = Math.max(front, 0);
  const b = Math.max(back, 0);
  if (f + b <= 0) return 1;
  switch (shape) {
    case 'power': {
      const fb = b ** n;
      const ff = f ** n;
      return fb + ff === 0 ? 1 : fb / (fb + ff);
    }
    case 'power2': {
      const d = (b + f) ** n;
      return d === 0 ? 1 : b ** n / d;
    }
    case 'power3':
      return 1 - (f / (f + b)) ** n;
    case 'log': {
      const lb = Math.log1p(b);
      const lf = Math.log1p(f);
      return lb + lf === 0 ? 1 : lb / (lb + lf);
    }
    case 'log2': {
      const d = Math.log1p(b + f);
      return d === 0 ? 1 : Math.log1p(b) / d;
    }
  }
}

/**
 * ProbQueueModel (rigtorp / hftbacktest): a depth decrease not explained by trades is split between
 * ahead and behind with probability p(front, back).
 */
export function probQueue(shape: ProbShape, n = 2): QueueModel {
  return {
    name: shape === 'log' || shape === 'log2' ? shape : `${shape}(${n})`,
    onTrade(q, qty) {
      q.front -= qty;
      q.cumTrades += qty;
    },
    onDepth(q, prev, next) {
      const chg = prev - next - q.cumTrades;
      q.cumTrades = 0;
      if (chg < 0) {
        if (next < q.front) q.front = next;
        return;
      }
      const front = q.front;
      const back = prev - front;
      const p = probBehind(shape, n, front, back);
      const est = front - (1 - p) * chg + Math.min(back - p * chg, 0);
      q.front = Math.min(est, next);
    },
  };
}

/** Queue model settings as written in `backtest.queue_model`. */
export type QueueModelConfig = { readonly kind: 'risk-averse' } | { readonly kind: ProbShape; readonly n?: number };

/** Builds a queue model from its config. */
export function queueModel(cfg: QueueModelConfig): QueueModel {
  return cfg.kind === 'risk-averse' ? riskAverseQueue : probQueue(cfg.kind, cfg.n ?? 2);
}
