import { seededRandomU32, type RandomU32 } from '../core/ulid.ts';

/**
 * A latency distribution in ms: a constant, uniform in [min, max], log-normal (median, sigma), or
 * the current feed latency (recorded receive − venue time) × multiplier + offset (hftbacktest's
 * artificial order latency: order latency tracks how congested the link looks in the data).
 */
export type LatencyDist =
  | number
  | { readonly uniform: readonly [number, number] }
  | { readonly lognormal: { readonly median_ms: number; readonly sigma: number } }
  | { readonly feed_multiple: { readonly multiplier: number; readonly offset_ms: number } };

/**
 * Order latency, two legs as in hftbacktest: `entry` (our request → matching engine) and
 * `response` (matching engine → our order stream: acks, rejects and fills).
 */
export interface OrderLatencyConfig {
  readonly entry: LatencyDist;
  readonly response: LatencyDist;
}

/** A seeded sampler of order latencies: the same seed gives the same sequence. */
export class LatencyModel {
  readonly #rand: RandomU32;
  readonly #spare: number[] = [];
  /** The feed latency of the last event the bot received (ms), for `feed_multiple`. */
  feedLatencyMs = 0;

  constructor(
    private readonly cfg: OrderLatencyConfig,
    seed: number,
  ) {
    this.#rand = seededRandomU32(seed);
  }

  /** Request → matching engine delay (ms). */
  entryMs(): number {
    return this.#sample(this.cfg.entry);
  }

  /** Matching engine → order stream delay (ms). */
  responseMs(): number {
    return this.#sample(this.cfg.response);
  }

  #sample(d: LatencyDist): number {
    if (typeof d === 'number') return d;
    if ('uniform' in d) return d.uniform[0] + this.#u() * (d.uniform[1] - d.uniform[0]);
    if ('feed_multiple' in d) return Math.max(0, this.feedLatencyMs * d.feed_multiple.multiplier + d.feed_multiple.offset_ms);
    return d.lognormal.median_ms * Math.exp(d.lognormal.sigma * this.#normal());
  }

  #u(): number {
    return this.#rand() / 4294967296;
  }

  #normal(): number {
    const s = this.#spare.pop();
    if (s !== undefined) return s;
    // Box–Muller; 1 − u keeps the log argument in (0, 1].
    const r = Math.sqrt(-2 * Math.log(1 - this.#u()));
    const th = 2 * Math.PI * this.#u();
    this.#spare.push(r * Math.sin(th));
    return r * Math.cos(th);
  }
}
