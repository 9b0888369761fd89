import { Ewma } from './ewma.ts';
import { grownColumn } from './ring.ts';

/** Touch spread buckets, ticks: 1, 2, 3–4, 5–8, 9–16, 17 and more (log₂: a one-tick crypto book and a 20-tick stock share the scale). */
export const SPREAD_BUCKETS = ['1', '2', '3–4', '5–8', '9–16', '17+'] as const;
/** The side's flow state (FLOW_STATES of FlowStateMarkouts) folded to three: against, neutral, for. */
export const FLOW_BUCKETS = ['against', 'neutral', 'for'] as const;
/** Time since the mid last moved: under 100 ms (a quote may be stale), 100 ms–1 s, 1–10 s, 10 s and more. */
export const AGE_BUCKETS = ['<100ms', '100ms–1s', '1–10s', '≥10s'] as const;
/** Regimes per side. */
export const REGIMES = SPREAD_BUCKETS.length * FLOW_BUCKETS.length * AGE_BUCKETS.length;

/**
 * The regime index of a quote resting on a touch spread of `spreadTicks`, its side in flow state
 * `flowState` (0 well against … 4 well for) and the mid last moved `sinceMoveMs` ago.
 */
export function regimeOf(spreadTicks: number, flowState: number, sinceMoveMs: number): number {
  const s = spreadTicks <= 1 ? 0 : Math.min(SPREAD_BUCKETS.length - 1, Math.ceil(Math.log2(spreadTicks)));
  const f = flowState <= 1 ? 0 : flowState === 2 ? 1 : 2;
  const a = sinceMoveMs < 100 ? 0 : sinceMoveMs < 1000 ? 1 : sinceMoveMs < 10_000 ? 2 : 3;
  return (s * FLOW_BUCKETS.length + f) * AGE_BUCKETS.length + a;
}

/** A regime index in words (for reports and tests). */
export function regimeName(r: number): string {
  const a = r % AGE_BUCKETS.length;
  const f = Math.floor(r / AGE_BUCKETS.length) % FLOW_BUCKETS.length;
  const s = Math.floor(r / (AGE_BUCKETS.length * FLOW_BUCKETS.length));
  return `spread ${SPREAD_BUCKETS[s]} ticks, flow ${FLOW_BUCKETS[f]}, mid moved ${AGE_BUCKETS[a]} ago`;
}

/** Options of {@link RegimeEdge} (engine ms). */
export interface RegimeEdgeOptions {
  /** How long after a fill it is marked; it counts only then (causal). */
  readonly horizonMs: number;
  /** Memory of the evidence: a fill's weight halves every this long. */
  readonly halfLifeMs: number;
  /** Prior weight in lots at each level: a side's mean toward 0 (no edge), a regime's toward its side's. Default 10. */
  readonly priorLots?: number;
}

/**
 * What our own maker fills realised, per side and regime, with priors: each fill is marked
 * `horizonMs` after it, side × (mid then − fill price) less the costs the caller names (the fee,
 * and any depth the caller added on top of its base quote, so the estimate is of the base quote and
 * backing off by it is a fixed point, not an oscillation), in ticks per contract, weighted by the fill
 * in lots. Two levels of partial pooling: a side's mean is shrunk toward 0 by `priorLots` of "no
 * edge", a regime's toward its side's mean by `priorLots` of it, so a few fills do not swing a
 * regime and an unseen regime takes its side's evidence. The weights halve every `halfLifeMs`: a
 * side left unfilled (backed off) drifts back to the prior and tries again. A fill counts only once
 * its horizon has passed. O(1) per fill and per mark; allocation-free after warm-up.
 */
export class RegimeEdge {
  readonly #side: [Ewma, Ewma];
  readonly #regime: Ewma[];
  readonly #horizonMs: number;
  readonly #prior: number;
  /** A fill's mark counts at most this many ticks either way (one jump says little about the next fills). */
  clipTicks = Number.POSITIVE_INFINITY;
  // Pending fills in a ring: time, price (ticks), side (±1), regime, costs (ticks), weight (lots).
  #t = new Float64Array(16);
  #p = new Float64Array(16);
  #s = new Int8Array(16);
  #r = new Float64Array(16);
  #c = new Float64Array(16);
  #w = new Float64Array(16);
  #head = 0;
  #size = 0;

  /** @throws RangeError on a non-positive horizon or half-life, or a negative prior. */
  constructor(o: RegimeEdgeOptions) {
    if (!(o.horizonMs > 0) || !(o.halfLifeMs > 0)) throw new RangeError('RegimeEdge: horizon and half-life must be positive');
    if (!((o.priorLots ?? 10) >= 0)) throw new RangeError(`RegimeEdge: prior must be >= 0 lots, got ${o.priorLots}`);
    this.#horizonMs = o.horizonMs;
    this.#prior = o.priorLots ?? 10;
    this.#side = [new Ewma(o.halfLifeMs), new Ewma(o.halfLifeMs)];
    this.#regime = Array.from({ length: 2 * REGIMES }, () => new Ewma(o.halfLifeMs));
  }

  /**
   * One of our maker fills at `tsMs`: `side` +1 we bought, −1 we sold; `regime` the one its order
   * rested in; `costTicks` what is taken off its mark (fee per contract, plus any extra depth it
   * was quoted with); `lots` its size in lots.
   */
  fill(tsMs: number, side: 1 | -1, priceTicks: number, regime: number, costTicks: number, lots: number): void {
    if (!(lots > 0) || !Number.isFinite(priceTicks) || !Number.isFinite(costTicks) || !(regime >= 0 && regime < REGIMES)) return;
    if (this.#size === this.#t.length) this.#grow();
    const j = (this.#head + this.#size) % this.#t.length;
    this.#t[j] = tsMs;
    this.#p[j] = priceTicks;
    this.#s[j] = side;
    this.#r[j] = regime;
    this.#c[j] = costTicks;
    this.#w[j] = lots;
    this.#size++;
  }

  /** The mid at `nowMs` (ticks): marks every fill whose horizon has passed. */
  updateMid(nowMs: number, mid: number): void {
    while (this.#size > 0) {
      const i = this.#head;
      if (this.#t[i]! + this.#horizonMs > nowMs) break;
      const raw = this.#s[i]! * (mid - this.#p[i]!) - this.#c[i]!;
      const x = Math.max(-this.clipTicks, Math.min(this.clipTicks, raw));
      const k = this.#s[i] === 1 ? 0 : 1;
      this.#side[k].update(x, nowMs, this.#w[i]!);
      this.#regime[k * REGIMES + this.#r[i]!]!.update(x, nowMs, this.#w[i]!);
      this.#head = (i + 1) % this.#t.length;
      this.#size--;
    }
  }

  /** Fills not yet marked (their horizon has not passed). */
  get pending(): number {
    return this.#size;
  }

  /** `side`'s expected edge at `nowMs`, ticks per contract, all regimes pooled (shrunk toward 0). */
  sideTicks(side: 1 | -1, nowMs: number): number {
    return shrunk(this.#side[side === 1 ? 0 : 1], nowMs, 0, this.#prior);
  }

  /** `side`'s expected edge in `regime` at `nowMs`, ticks per contract (shrunk toward the side's). */
  expectedTicks(side: 1 | -1, regime: number, nowMs: number): number {
    const k = side === 1 ? 0 : 1;
    return shrunk(this.#regime[k * REGIMES + regime]!, nowMs, this.sideTicks(side, nowMs), this.#prior);
  }

  /** Decayed lots of evidence behind `side` in `regime` at `nowMs`. */
  lotsIn(side: 1 | -1, regime: number, nowMs: number): number {
    return this.#regime[(side === 1 ? 0 : REGIMES) + regime]!.weightAt(nowMs);
  }

  #grow(): void {
    this.#t = grownColumn(this.#t, this.#head, this.#size);
    this.#p = grownColumn(this.#p, this.#head, this.#size);
    this.#s = grownColumn(this.#s, this.#head, this.#size);
    this.#r = grownColumn(this.#r, this.#head, this.#size);
    this.#c = grownColumn(this.#c, this.#head, this.#size);
    this.#w = grownColumn(this.#w, this.#head, this.#size);
    this.#head = 0;
  }
}

/** The posterior mean of `m` at `nowMs` with `prior` lots at `priorMean`. */
function shrunk(m: Ewma, nowMs: number, priorMean: number, prior: number): number {
  const w = m.weightAt(nowMs);
  const v = m.value;
  if (!(w > 0) || Number.isNaN(v)) return priorMean;
  return (w * v + prior * priorMean) / (w + prior);
}
