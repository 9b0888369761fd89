import { MarkoutTracker } from './markout-tracker.ts';

/** A fill's PnL counts at most this many caps either way. */
const CLIP_CAPS = 3;

/**
 * Extra quote depth per side, in bps, driven by what our own maker fills on that side actually
 * earned: each fill's PnL marked at a horizon, side × (mid(t + h) − price) / price × 10⁴ (edge and
 * markout together, so a stale quote picked off after a jump counts as well as the move after a
 * fill), feeds a leaky integral controller. Per side, the sum of those PnLs with weights halving
 * every `halfLifeMs` of time is kept; the extra depth is gain × its deficit (0 while it is in
 * profit). While a side's fills keep losing at the depth quoted, the depth keeps growing: it settles
 * where they break even, or quotes so far away that nothing fills, which is the right answer where
 * no depth pays. A side that earns banks a surplus, so one large loss among profitable fills (a
 * jump) is absorbed instead of pushing the side out; a side no longer filled forgets both. Each
 * fill's PnL counts at most ±3 × capBps, and the sum is bounded where the depth saturates.
 * O(1) per fill, no allocation.
 */
export class LossFeedback {
  readonly #decayPerMs: number;
  readonly #sum = [0, 0];
  readonly #atMs = [0, 0];

  /**
   * The largest depth it adds, bps (≥ 0). The PnL sum is bounded where the output saturates (anti
   * windup): a run of losses far past the cap must not keep a side away for many half-lives once
   * the losses stop. Callers may update it as the market's scale changes (e.g. one observed spread).
   */
  capBps: number;

  /**
   * @param gain share of each matured fill's loss (bps) added to its side's depth (bps per bps), ≥ 0
   * @param halfLifeMs time over which the PnL sum (and so an unfed depth) halves
   * @param capBps the largest depth it adds, bps
   * @throws RangeError on a negative gain or a non-positive half-life
   */
  constructor(
    readonly gain: number,
    halfLifeMs: number,
    capBps = 1000,
  ) {
    if (!(gain >= 0)) throw new RangeError(`LossFeedback gain must be >= 0, got ${gain}`);
    if (!(halfLifeMs > 0)) throw new RangeError(`LossFeedback half-life must be positive, got ${halfLifeMs} ms`);
    this.#decayPerMs = Math.LN2 / halfLifeMs;
    this.capBps = capBps;
  }

  /**
   * A fill on `side` (+1 our bid, −1 our ask) matured at `nowMs` with PnL `netBps` (positive =
   * earned), weighing `weight` (e.g. its size in lots, so the partial fills of one sweep count as
   * one order: default 1).
   */
  onFill(side: 1 | -1, netBps: number, nowMs: number, weight = 1): void {
    if (!Number.isFinite(netBps) || !(weight > 0)) return;
    const i = side === 1 ? 0 : 1;
    // The decayed PnL sum (bps·fills), bounded where the output saturates so neither a long
    // losing run nor a long winning one takes longer than the half-life scale to unwind.
    const bound = this.gain > 0 && this.capBps > 0 ? this.capBps / this.gain : 0;
    // One fill's vote is at most ±3 caps: a loss far beyond it is a jump, whose size says little
    // about whether the next fills at this depth will lose (a Huber-like bounded influence).
    const clip = CLIP_CAPS * this.capBps;
    const x = netBps > clip ? clip : netBps < -clip ? -clip : netBps;
    const v = this.#sumAt(i, nowMs) + weight * x;
    this.#sum[i] = v > bound ? bound : v < -bound ? -bound : v;
    this.#atMs[i] = nowMs;
  }

  /** The extra depth of `side` at `nowMs`, bps of the price (≥ 0, ≤ capBps). */
  depthBps(side: 1 | -1, nowMs: number): number {
    const v = this.#sumAt(side === 1 ? 0 : 1, nowMs);
    return v < 0 ? Math.min(this.capBps, -this.gain * v) : 0;
  }

  /** The decayed PnL sum of side `i` at `nowMs`, bps·fills. */
  #sumAt(i: number, nowMs: number): number {
    const v = this.#sum[i]!;
    if (v === 0) return 0;
    const dt = nowMs - this.#atMs[i]!;
    return dt > 0 ? v * Math.exp(-this.#decayPerMs * dt) : v;
  }
}

/**
 * `LossFeedback` wired for a quoter: each of our maker fills is marked against its own price at
 * `horizonMs` (edge and markout together, so a stale quote picked off counts), and each side's
 * deficit becomes extra depth in ticks (`update`, into `bidTicks`/`askTicks`).
 */
export class SideLossDepth {
  readonly #loss: LossFeedback;
  readonly #earned: MarkoutTracker;
  #clockMs = 0;
  /** Extra depth of each side after the last `update`, ticks (unrounded, ≥ 0). */
  bidTicks = 0;
  askTicks = 0;

  /** @param gain, halfLifeMs see `LossFeedback`; @param horizonMs when a fill's PnL is marked. */
  constructor(gain: number, halfLifeMs: number, horizonMs: number) {
    this.#loss = new LossFeedback(gain, halfLifeMs);
    this.#earned = new MarkoutTracker({ horizonsMs: [horizonMs], onMarkout: (m) => this.#loss.onFill(m.side, m.bps, this.#clockMs, m.weight) });
  }

  /** One of our maker fills, weighed in quotes of `size` (the partial fills of one order swept at once count as that order). */
  fill(f: { readonly tsMs: number; readonly side: 'buy' | 'sell'; readonly priceTicks: number; readonly qty: number }, size: number, nowMs: number): void {
    this.#clockMs = nowMs;
    this.#earned.fill(Math.min(f.tsMs, nowMs), f.side, f.priceTicks, f.qty / size, f.priceTicks);
  }

  /** The mid at `nowMs` (ticks): matures the fills whose horizon has passed. */
  updateMid(nowMs: number, mid: number): void {
    this.#clockMs = nowMs;
    this.#earned.updateMid(nowMs, mid);
  }

  /**
   * Sets each side's extra depth at `nowMs`: at most `capTicks` (past it a quote is only reached by
   * sweeps and jumps); the side that reduces `position` backs off less the larger it is, not at all
   * at `maxPosition`, so a side whose fills lost never traps a full inventory.
   */
  update(nowMs: number, fair: number, capTicks: number, position: number, maxPosition: number): void {
    this.#loss.capBps = (capTicks / fair) * 1e4;
    const exit = Math.max(0, 1 - Math.abs(position) / maxPosition);
    this.bidTicks = Math.min(capTicks, (this.#loss.depthBps(1, nowMs) / 1e4) * fair) * (position < 0 ? exit : 1);
    this.askTicks = Math.min(capTicks, (this.#loss.depthBps(-1, nowMs) / 1e4) * fair) * (position > 0 ? exit : 1);
  }
}
