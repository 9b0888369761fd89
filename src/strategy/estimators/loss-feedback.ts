import { MarkoutTracker } from './markout-tracker.ts';

/** A fill's PnL counts at most this many caps either way. */
const CLIP_CAPS = 3;

/**
 * Extra quote depth per side, in bps, driven by what our own maker fills on that side actually
 * earned: each fill's PnL marked at a horizon (bps, positive = earned) enters the side's **mean**,
 * weighted by the fill's size and by weights halving every `halfLifeMs` of time; the extra depth is
 * gain × the mean loss (0 while the mean is a gain). A mean, not a sum: the depth does not grow with
 * the fill rate, and a side no longer filled keeps its last mean at a shrinking weight (a new fill
 * then counts more). Each fill's PnL counts at most ±3 × capBps (one jump says little about the next
 * fills at this depth). O(1) per fill, no allocation.
 */
export class LossFeedback {
  readonly #decayPerMs: number;
  /** Decayed Σ weight × PnL and Σ weight per side (bid 0, ask 1). */
  readonly #sum = [0, 0];
  readonly #weight = [0, 0];
  readonly #atMs = [0, 0];

  /** The largest depth it adds, bps (≥ 0); callers may update it as the market's scale changes (e.g. one observed spread). */
  capBps: number;

  /**
   * @param gain bps of depth per bps of mean loss, ≥ 0
   * @param halfLifeMs time over which a fill's weight in the mean halves
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
   * earned), weighing `weight` (its size, e.g. in lots: default 1).
   */
  onFill(side: 1 | -1, netBps: number, nowMs: number, weight = 1): void {
    if (!Number.isFinite(netBps) || !(weight > 0)) return;
    const i = side === 1 ? 0 : 1;
    const clip = CLIP_CAPS * this.capBps;
    const x = netBps > clip ? clip : netBps < -clip ? -clip : netBps;
    const f = this.#decay(i, nowMs);
    this.#sum[i] = this.#sum[i]! * f + weight * x;
    this.#weight[i] = this.#weight[i]! * f + weight;
    this.#atMs[i] = nowMs;
  }

  /** The size-weighted mean PnL of `side`'s fills, bps (NaN before the first). */
  meanBps(side: 1 | -1): number {
    const i = side === 1 ? 0 : 1;
    return this.#weight[i]! > 0 ? this.#sum[i]! / this.#weight[i]! : Number.NaN;
  }

  /** The extra depth of `side`, bps of the price (≥ 0, ≤ capBps): gain × its mean loss. */
  depthBps(side: 1 | -1): number {
    const m = this.meanBps(side);
    return m < 0 ? Math.min(this.capBps, -this.gain * m) : 0;
  }

  /** Decay factor of side `i` from its last fill to `nowMs`. */
  #decay(i: number, nowMs: number): number {
    const dt = nowMs - this.#atMs[i]!;
    return dt > 0 ? Math.exp(-this.#decayPerMs * dt) : 1;
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
    this.#clockMs = nowMs;
    this.#loss.capBps = (capTicks / fair) * 1e4;
    const exit = Math.max(0, 1 - Math.abs(position) / maxPosition);
    this.bidTicks = Math.min(capTicks, (this.#loss.depthBps(1) / 1e4) * fair) * (position < 0 ? exit : 1);
    this.askTicks = Math.min(capTicks, (this.#loss.depthBps(-1) / 1e4) * fair) * (position > 0 ? exit : 1);
  }
}
