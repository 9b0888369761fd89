import type { StrategyContext, WorkingOrder } from './contract.ts';
import { Ewma } from './estimators/ewma.ts';

/**
 * Probability that an order with `aheadQty` contracts ahead of it in its price level's FIFO queue is
 * reached before the level clears, when the volume that trades into a level before it moves is
 * about exponential with mean `depletionQty`: e^(−ahead/depletion). 1 at the front of the queue.
 */
export function queueFillProbability(aheadQty: number, depletionQty: number): number {
  if (!(aheadQty > 0)) return 1;
  if (!(depletionQty > 0)) return 0;
  return Math.exp(-aheadQty / depletionQty);
}

/**
 * Join the touch or keep the model's price inside it, by expected value per unit of fill rate: the
 * improving price puts the order first (fill probability 1 relative to the level) at `improveTicks`
 * less edge; joining keeps the edge but waits behind `touchQty`. Edges are in ticks from the fair
 * value, the adverse move after a fill and the fee already subtracted. True = join. When neither
 * edge is positive it joins (the further, safer price).
 */
export function joinBeatsImprove(edgeJoinTicks: number, improveTicks: number, touchQty: number, depletionQty: number): boolean {
  const evJoin = queueFillProbability(touchQty, depletionQty) * edgeJoinTicks;
  const evImprove = edgeJoinTicks - improveTicks;
  return !(evImprove > evJoin && evImprove > 0);
}

/**
 * Keep a resting order's price (and its place in the queue) instead of moving it to the model's new
 * price when the move gains less edge than re-queuing loses: the order would go from `aheadQty`
 * to the back of the new level (`newAheadQty`), losing edge × (P(ahead) − P(newAhead)) ticks of
 * expected edge per fill opportunity. `moveTicks` is |new − old| price; returns true to keep.
 */
export function keepQueuePriority(moveTicks: number, edgeTicks: number, aheadQty: number, newAheadQty: number, depletionQty: number): boolean {
  if (moveTicks === 0) return true;
  const lost = Math.max(0, edgeTicks) * (queueFillProbability(aheadQty, depletionQty) - queueFillProbability(newAheadQty, depletionQty));
  return moveTicks < lost;
}

/** The queue estimate of one resting order. */
interface Tracked {
  priceTicks: number;
  aheadQty: number;
}

/**
 * Estimates our place in the queue of each resting order from the book as the strategy sees it (our
 * own orders left out): at placement, everything resting at the price is ahead of us (nothing when
 * the order improves the touch; the whole visible level when it joins); afterwards what is ahead can
 * only shrink (trades and cancels ahead of us; new orders queue behind), so it is capped at the
 * level's size while the order is at the touch, and 0 once the touch is behind our price. Orders
 * behind the touch keep their estimate (the strategy reads only the touch). Also keeps the
 * depletion scale: an EWMA of the public trade size. O(orders) per call.
 */
export class QueueTracker {
  readonly #orders = new Map<string, Tracked>();
  readonly #tradeQty: Ewma;
  readonly #seen = new Set<string>();

  constructor(halfLifeMs: number) {
    this.#tradeQty = new Ewma(halfLifeMs);
  }

  /** Updates every working order's estimate from this call's view. */
  update(ctx: Pick<StrategyContext, 'book' | 'workingOrders' | 'trades' | 'symbol'>, nowMs: number): void {
    const trades = ctx.trades;
    for (let i = 0; i < trades.length; i++) this.#tradeQty.update(trades[i]!.qty, nowMs);
    const b = ctx.book?.bids[0];
    const a = ctx.book?.asks[0];
    this.#seen.clear();
    const orders = ctx.workingOrders;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i]!;
      if (o.symbol !== ctx.symbol) continue;
      const id = o.clientOrderId as string;
      this.#seen.add(id);
      const touch = o.side === 'buy' ? b : a;
      let t = this.#orders.get(id);
      if (t === undefined || t.priceTicks !== o.priceTicks) {
        const ahead = levelAhead(o, touch);
        if (t === undefined) this.#orders.set(id, (t = { priceTicks: o.priceTicks, aheadQty: ahead }));
        else {
          t.priceTicks = o.priceTicks;
          t.aheadQty = ahead;
        }
        continue;
      }
      if (touch === undefined) continue;
      const better = o.side === 'buy' ? o.priceTicks > touch.priceTicks : o.priceTicks < touch.priceTicks;
      if (better) t.aheadQty = 0;
      else if (touch.priceTicks === o.priceTicks) t.aheadQty = Math.min(t.aheadQty, touch.qty);
    }
    for (const id of this.#orders.keys()) if (!this.#seen.has(id)) this.#orders.delete(id);
  }

  /** Contracts estimated ahead of the order (undefined when not tracked). */
  aheadOf(clientOrderId: string): number | undefined {
    return this.#orders.get(clientOrderId)?.aheadQty;
  }

  /** Mean public trade size (contracts), the queue model's depletion scale (0 before any trade). */
  get depletionQty(): number {
    const v = this.#tradeQty.value;
    return Number.isNaN(v) ? 0 : v;
  }
}

/** What rests ahead of a new order: the visible level when it joins the touch, nothing when it improves it. */
function levelAhead(o: WorkingOrder, touch: { priceTicks: number; qty: number } | undefined): number {
  if (touch === undefined) return 0;
  if (touch.priceTicks === o.priceTicks) return touch.qty;
  const better = o.side === 'buy' ? o.priceTicks > touch.priceTicks : o.priceTicks < touch.priceTicks;
  // Behind the touch: the strategy reads one level; count the touch as a lower bound of the queue.
  return better ? 0 : touch.qty;
}

/**
 * The queue-aware first-level price of one side: where the model's (fractional) price is inside the
 * touch, join the touch instead when that is worth more ({@link joinBeatsImprove}); then keep the resting
 * order's price if moving it gains less than re-queuing loses ({@link keepQueuePriority}). `costTicks`
 * is the fee plus the adverse move after a fill. Returns the price (ticks) to quote; prices behind
 * the touch pass through. Non-finite prices (no quote) pass through.
 */
export function queueAdjust(ctx: Pick<StrategyContext, 'book' | 'workingOrders' | 'symbol'>, tracker: QueueTracker, side: 'buy' | 'sell', rawTicks: number, fair: number, costTicks: number): number {
  if (!Number.isFinite(rawTicks)) return rawTicks;
  const same = side === 'buy' ? ctx.book?.bids[0] : ctx.book?.asks[0];
  const opp = side === 'buy' ? ctx.book?.asks[0] : ctx.book?.bids[0];
  if (same === undefined || opp === undefined) return rawTicks;
  const dir = side === 'buy' ? 1 : -1;
  const depletion = tracker.depletionQty;
  // In ticks toward the other side: positive = inside the touch.
  let price = side === 'buy' ? Math.floor(rawTicks + 1e-9) : Math.ceil(rawTicks - 1e-9);
  const inside = dir * (price - same.priceTicks);
  // The model improves the touch: join instead when waiting behind the touch's queue at the
  // better price is worth more (the model's price stands otherwise: the model decides the depth).
  if (inside > 0 && joinBeatsImprove(dir * (fair - same.priceTicks) - costTicks, inside, same.qty, depletion)) price = same.priceTicks;
  const orders = ctx.workingOrders;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    if (o.symbol !== ctx.symbol || o.side !== side || o.status !== 'open' || o.priceTicks === price) continue;
    // Still passive (would not cross now).
    if (dir * (opp.priceTicks - o.priceTicks) <= 0) continue;
    const ahead = tracker.aheadOf(o.clientOrderId as string);
    if (ahead === undefined) continue;
    const newInside = dir * (price - same.priceTicks);
    const newAhead = newInside > 0 ? 0 : same.qty;
    if (keepQueuePriority(Math.abs(price - o.priceTicks), dir * (fair - o.priceTicks) - costTicks, ahead, newAhead, depletion)) return o.priceTicks;
    break;
  }
  return price;
}
