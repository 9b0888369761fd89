import { Ewma } from './ewma.ts';

/**
 * Order-flow imbalance of the best levels (Cont, Kukanov & Stoikov 2014): each book change adds
 * eₙ = q_b·1{P_b ≥ P_b'} − q_b'·1{P_b ≤ P_b'} − q_a·1{P_a ≤ P_a'} + q_a'·1{P_a ≥ P_a'} (primes: the
 * previous touch), in contracts. `value` is the sum of eₙ with weights halving every `halfLifeMs`
 * (positive = buying pressure); `normalized` divides it by the decayed touch depth seen, in
 * [−1, 1] roughly. O(1) per update, no allocation.
 */
export class OrderFlowImbalance {
  readonly #decayPerMs: number;
  #sum = 0;
  #depth = 0;
  #lastMs = Number.NaN;
  #pb = Number.NaN;
  #qb = 0;
  #pa = Number.NaN;
  #qa = 0;

  /** @throws RangeError when `halfLifeMs` is not positive. */
  constructor(readonly halfLifeMs: number) {
    if (!(halfLifeMs > 0)) throw new RangeError(`OFI half-life must be positive, got ${halfLifeMs} ms`);
    this.#decayPerMs = Math.LN2 / halfLifeMs;
  }

  /** Feeds the touch (prices in ticks, sizes in contracts) at `nowMs`. */
  update(bidTicks: number, bidQty: number, askTicks: number, askQty: number, nowMs: number): void {
    if (!Number.isNaN(this.#pb)) {
      this.#decayTo(nowMs);
      let e = 0;
      if (bidTicks >= this.#pb) e += bidQty;
      if (bidTicks <= this.#pb) e -= this.#qb;
      if (askTicks <= this.#pa) e -= askQty;
      if (askTicks >= this.#pa) e += this.#qa;
      this.#sum += e;
      this.#depth += (bidQty + askQty) / 2;
    } else this.#lastMs = nowMs;
    this.#pb = bidTicks;
    this.#qb = bidQty;
    this.#pa = askTicks;
    this.#qa = askQty;
  }

  #decayTo(nowMs: number): void {
    if (nowMs > this.#lastMs) {
      const f = Math.exp(-this.#decayPerMs * (nowMs - this.#lastMs));
      this.#sum *= f;
      this.#depth *= f;
      this.#lastMs = nowMs;
    }
  }

  /** Decayed OFI sum in contracts as of the last update. */
  get value(): number {
    return this.#sum;
  }

  /** OFI over the decayed average touch depth (0 before two updates). */
  get normalized(): number {
    return this.#depth > 0 ? this.#sum / this.#depth : 0;
  }
}

/**
 * Signed trade-flow imbalance: EWMA of (buy volume − sell volume)/(buy + sell) of public trades,
 * weights halving every `halfLifeMs`, in [−1, 1] (0 before any trade). O(1), no allocation.
 */
export class TradeFlowImbalance {
  readonly #signed: Ewma;
  constructor(halfLifeMs: number) {
    this.#signed = new Ewma(halfLifeMs);
  }
  /** Records a trade of `qty` contracts whose aggressor bought (`isBuy`) or sold. */
  onTrade(qty: number, isBuy: boolean, nowMs: number): void {
    if (qty > 0) this.#signed.update(isBuy ? 1 : -1, nowMs, qty);
  }
  /** Volume-weighted buy/sell imbalance in [−1, 1]. */
  get value(): number {
    const v = this.#signed.value;
    return Number.isNaN(v) ? 0 : v;
  }
}

/**
 * Signed trade flow: the sum of public trade sizes, + for buyer-initiated and − for seller-
 * initiated, with weights halving every `halfLifeMs` of time (contracts). Unlike
 * {@link TradeFlowImbalance}'s ratio it keeps the intensity: one lot sold an hour ago and a burst of
 * a thousand sold a second ago do not read alike, and it fades when the market goes quiet. O(1).
 */
export class SignedTradeFlow {
  readonly #decayPerMs: number;
  #sum = 0;
  #lastMs = Number.NaN;
  constructor(readonly halfLifeMs: number) {
    if (!(halfLifeMs > 0)) throw new RangeError(`signed-flow half-life must be positive, got ${halfLifeMs} ms`);
    this.#decayPerMs = Math.LN2 / halfLifeMs;
  }
  /** Records a trade of `qty` contracts whose aggressor bought (`isBuy`) or sold. */
  onTrade(qty: number, isBuy: boolean, nowMs: number): void {
    this.valueAt(nowMs);
    if (qty > 0) this.#sum += isBuy ? qty : -qty;
  }
  /** The decayed signed volume as of `nowMs` (contracts; positive = buying). */
  valueAt(nowMs: number): number {
    if (Number.isNaN(this.#lastMs)) this.#lastMs = nowMs;
    else if (nowMs > this.#lastMs) {
      this.#sum *= Math.exp(-this.#decayPerMs * (nowMs - this.#lastMs));
      this.#lastMs = nowMs;
    }
    return this.#sum;
  }
}
