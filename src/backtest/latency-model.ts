import { seededRandomU32, type RandomU32 } from '../core/ulid.ts';
import type { RoundTripOp, SessionEvent } from '../record/format.ts';

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

/**
 * Recorded round trips (ms) per request kind: the empirical distribution a daemon's recording holds
 * (`q` lines). `entryShare` splits a sampled round trip into the two legs.
 */
export interface RecordedLatency {
  readonly byOp: ReadonlyMap<RoundTripOp, readonly number[]>;
  /** Fraction of a round trip spent on the way in (request → matching engine); the rest is the answer's way back. */
  readonly entryShare: number;
}

/** Builds the recorded distribution from a recording's session lines; null when it holds no round trips. */
export function recordedLatency(session: readonly SessionEvent[], entryShare: number): RecordedLatency | null {
  const byOp = new Map<RoundTripOp, number[]>();
  for (const ev of session) {
    if (ev.type !== 'round-trip') continue;
    let list = byOp.get(ev.op);
    if (!list) byOp.set(ev.op, (list = []));
    list.push(ev.ms);
  }
  return byOp.size === 0 ? null : { byOp, entryShare };
}

/** The two legs of one request: `responseMs` null = sample the response leg when the answer leaves. */
export interface RequestLegs {
  readonly entryMs: number;
  readonly responseMs: number | null;
}

/**
 * A seeded sampler of order latencies: the same seed gives the same sequence. With `recorded`, each
 * request draws one recorded round trip of its kind (all kinds pooled when that kind has none) and
 * splits it: entry = share × rt, and everything that request's arrival sends back (reply, ack, taker
 * fills) travels (1 − share) × rt. Events the market causes later (resting fills) draw a pooled
 * round trip's response leg.
 */
export class LatencyModel {
  readonly #rand: RandomU32;
  readonly #spare: number[] = [];
  readonly #recorded: { readonly byOp: ReadonlyMap<RoundTripOp, readonly number[]>; readonly all: readonly number[]; readonly share: number } | null;
  /** The feed latency of the last event the bot received (ms), for `feed_multiple`. */
  feedLatencyMs = 0;
  /** A configured distribution is `feed_multiple` (the runner tracks feedLatencyMs only then). */
  readonly readsFeedLatency: boolean;

  constructor(
    private readonly cfg: OrderLatencyConfig,
    seed: number,
    recorded: RecordedLatency | null = null,
  ) {
    this.#rand = seededRandomU32(seed);
    this.readsFeedLatency = recorded === null && (isFeedMultiple(cfg.entry) || isFeedMultiple(cfg.response));
    this.#recorded = recorded
      ? { byOp: recorded.byOp, all: [...recorded.byOp.values()].flat().sort((a, b) => a - b), share: Math.min(1, Math.max(0, recorded.entryShare)) }
      : null;
  }

  /** True when latencies are drawn from recorded round trips. */
  get isRecorded(): boolean {
    return this.#recorded !== null;
  }

  /** Request → matching engine delay (ms). */
  entryMs(): number {
    const r = this.#recorded;
    return r ? r.share * this.#pick(r.all) : this.#sample(this.cfg.entry);
  }

  /** Matching engine → order stream delay (ms). */
  responseMs(): number {
    const r = this.#recorded;
    return r ? (1 - r.share) * this.#pick(r.all) : this.#sample(this.cfg.response);
  }

  /** Both legs of one request of kind `op`. */
  request(op: RoundTripOp): RequestLegs {
    const r = this.#recorded;
    if (!r) return { entryMs: this.#sample(this.cfg.entry), responseMs: null };
    const own = r.byOp.get(op);
    const rt = this.#pick(own && own.length > 0 ? own : r.all);
    return { entryMs: r.share * rt, responseMs: (1 - r.share) * rt };
  }

  /** A uniform draw from a non-empty list (bootstrap of the empirical distribution). */
  #pick(list: readonly number[]): number {
    return list[Math.floor(this.#u() * list.length)]!;
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

const isFeedMultiple = (d: LatencyDist): boolean => typeof d === 'object' && 'feed_multiple' in d;
