import { Ewma } from './ewma.ts';
import { SignedTradeFlow } from './order-flow.ts';
import { grownColumn } from './ring.ts';

/** Options of {@link FlowStateMarkouts} (engine ms; sizes in contracts). */
export interface FlowStateMarkoutsOptions {
  /** Memory of the signed trade flow that defines the state (the burst a print belongs to). */
  readonly flowHalfLifeMs: number;
  /** How long after a print its resting side's markout is taken. */
  readonly horizonMs: number;
  /** Memory of each state's mean markout. */
  readonly halfLifeMs: number;
  /** Contracts one of our orders holds: a print counts min(its size, lot) (what it could fill of ours). */
  readonly lotSize: number;
  /** Prior weight on "no edge", in lots: a state's mean counts W/(W + prior) of itself. Default 10. */
  readonly priorLots?: number;
}

/**
 * The states a side can be in, by the signed trade flow seen from that side (flow × side, over
 * the flow's typical size): well against, against, neutral, for, well for.
 */
const EDGES = [-1, -0.25, 0.25, 1] as const;
export const FLOW_STATES = ['well against', 'against', 'neutral', 'for', 'well for'] as const;

/** The state index of a side whose flow, seen from it, is `x` typical sizes (EDGES' bins). */
export function flowStateOf(x: number): number {
  let i = 0;
  while (i < EDGES.length && x >= EDGES[i]!) i++;
  return i;
}

/**
 * What a resting order earns, measured on every public print rather than on our own few fills,
 * per state of the recent trade flow. A print's resting side s (the side opposite its aggressor)
 * is marked `horizonMs` later: s × (mid then − print price), in ticks, the edge and the move after
 * it together. The print is filed under the state its resting side was in just before it: the
 * signed flow (buys +, sells −, decayed with `flowHalfLifeMs`) times s, over the flow's typical
 * absolute size (an EWMA of |flow| at prints, so the bins are scale-free across markets).
 *
 * On real order-level data (LOBSTER AMZN 2012-06-21) the five states order the prints from losing
 * to earning in both halves of the day: at 10 s, rebate included, from "well against" (a burst of
 * sells reaching the bids) to "well for" (a seller right after buyers lifted the offers), −3.9 …
 * +4.3 cents a share in the morning, −0.26 … +0.26 in the afternoon (the same order, a tenth of the
 * size); the model quoter backs a side off by the loss its state predicts.
 * O(1) amortised per print, allocation-free after warm-up.
 */
export class FlowStateMarkouts {
  readonly #flow: SignedTradeFlow;
  readonly #scale: Ewma;
  readonly #means: Ewma[];
  readonly #horizonMs: number;
  readonly #lot: number;
  readonly #prior: number;
  // Pending prints in a ring: time, price (ticks), resting side (±1), state, weight.
  #t = new Float64Array(64);
  #p = new Float64Array(64);
  #s = new Int8Array(64);
  #b = new Int8Array(64);
  #w = new Float64Array(64);
  #head = 0;
  #size = 0;

  constructor(o: FlowStateMarkoutsOptions) {
    if (!(o.horizonMs > 0) || !(o.flowHalfLifeMs > 0) || !(o.halfLifeMs > 0) || !(o.lotSize > 0)) throw new RangeError('FlowStateMarkouts: horizon, half-lives and lot size must be positive');
    this.#flow = new SignedTradeFlow(o.flowHalfLifeMs);
    this.#scale = new Ewma(o.halfLifeMs);
    this.#means = FLOW_STATES.map(() => new Ewma(o.halfLifeMs));
    this.#horizonMs = o.horizonMs;
    this.#lot = o.lotSize;
    this.#prior = (o.priorLots ?? 10) * o.lotSize;
  }

  /** The state (index into FLOW_STATES) of `side` now: +1 bid, −1 ask. */
  stateOf(side: 1 | -1, nowMs: number): number {
    const scale = this.#scale.value;
    if (!(scale > 0)) return 2;
    return flowStateOf((side * this.#flow.valueAt(nowMs)) / scale);
  }

  /** Records a public print; call before {@link updateMid} of the same instant. */
  onTrade(priceTicks: number, qty: number, aggressorBuys: boolean, nowMs: number): void {
    if (!(qty > 0)) return;
    const s: 1 | -1 = aggressorBuys ? -1 : 1;
    const state = this.stateOf(s, nowMs);
    this.#push(nowMs, priceTicks, s, state, Math.min(qty, this.#lot));
    this.#flow.onTrade(qty, aggressorBuys, nowMs);
    this.#scale.update(Math.abs(this.#flow.valueAt(nowMs)), nowMs);
  }

  /** Marks every print whose horizon has passed against `mid` (ticks). */
  updateMid(nowMs: number, mid: number): void {
    while (this.#size > 0) {
      const i = this.#head;
      if (this.#t[i]! + this.#horizonMs > nowMs) break;
      this.#means[this.#b[i]!]!.update(this.#s[i]! * (mid - this.#p[i]!), nowMs, this.#w[i]!);
      this.#head = (i + 1) % this.#t.length;
      this.#size--;
    }
  }

  /** Mean markout (ticks per contract, shrunk toward 0) of a resting order of `side` in its current state. */
  expectedTicks(side: 1 | -1, nowMs: number): number {
    return this.meanOfState(this.stateOf(side, nowMs), nowMs);
  }

  /** Mean markout (ticks, shrunk toward 0 by the prior) of state `i`. */
  meanOfState(i: number, nowMs: number): number {
    const m = this.#means[i]!;
    const v = m.value;
    if (Number.isNaN(v)) return 0;
    const w = m.weightAt(nowMs);
    return (v * w) / (w + this.#prior);
  }

  #push(t: number, p: number, s: 1 | -1, b: number, w: number): void {
    if (this.#size === this.#t.length) this.#grow();
    const j = (this.#head + this.#size) % this.#t.length;
    this.#t[j] = t;
    this.#p[j] = p;
    this.#s[j] = s;
    this.#b[j] = b;
    this.#w[j] = w;
    this.#size++;
  }

  #grow(): void {
    this.#t = grownColumn(this.#t, this.#head, this.#size);
    this.#p = grownColumn(this.#p, this.#head, this.#size);
    this.#s = grownColumn(this.#s, this.#head, this.#size);
    this.#b = grownColumn(this.#b, this.#head, this.#size);
    this.#w = grownColumn(this.#w, this.#head, this.#size);
    this.#head = 0;
  }
}
