import { seededRandomU32, type RandomU32 } from '../core/ulid.ts';
import { BID } from './dense-book.ts';
import type { XOrder } from './exchange-order.ts';
import type { ReactionSettings } from './settings.ts';

/** A competitor's order, answering one of ours: at `priceTicks`, ahead of it, until filled or gone. */
interface Competitor {
  readonly s: number;
  readonly side: number;
  readonly priceTicks: number;
  left: number;
  /** The order of ours it answered: it leaves when that order leaves its price. */
  readonly answered: XOrder;
}

/** Seed salt of the reaction stream (independent of the latency and jitter streams on the same seed). */
const REACTION_SALT = 0x85ebca6b;

/**
 * The competitor reaction model. The recorded book never answers our orders, so a quote improving a
 * wide spread is always first at its price. Here, when our order rests alone at a price better than
 * every other order on its side, a competitor answers it with `probability` after a log-normal delay:
 * an order of `size` one tick better when the spread leaves room (the opposite best is more than a
 * tick away), else at our price, ahead of us. It takes the incoming flow (prints reaching its price)
 * before our orders there or behind it, until it is filled, our order leaves that price, or the
 * recorded book reaches its price on its side (the market itself is there then). Seeded: the same
 * seed gives the same answers. Counters say how often it acted.
 */
export class CompetitorReaction {
  readonly #rand: RandomU32;
  readonly #active: Competitor[] = [];
  /** Improvements of ours that drew an answer (the competitor may still not appear: our order left first). */
  answersDrawn = 0;
  /** Competitors that appeared. */
  appeared = 0;
  /** Print volume the competitors took ahead of us. */
  absorbedQty = 0;

  constructor(private readonly cfg: ReactionSettings, seed: number) {
    this.#rand = seededRandomU32((seed ^ REACTION_SALT) >>> 0);
  }

  /** An order of ours just improved its side's best: the delay until a competitor answers (ms), or null when none does. */
  answerDelay(): number | null {
    if (this.#u() >= this.cfg.probability) return null;
    this.answersDrawn++;
    return this.cfg.delayMedianMs * Math.exp(this.cfg.delaySigma * this.#normal());
  }

  /**
   * The answer arrives: if `x` still rests alone at its price (better than `othersBest` on its side),
   * a competitor joins one tick better when `oppositeBest` leaves room, else at `x`'s price ahead of it.
   */
  appear(s: number, x: XOrder, othersBest: number, oppositeBest: number): void {
    const bid = x.sideIdx === BID;
    const p = x.priceTicks;
    if (bid ? othersBest >= p : othersBest <= p) return;
    const better = bid ? p + 1 : p - 1;
    const room = bid ? !(oppositeBest <= better) : !(oppositeBest >= better);
    this.#active.push({ s, side: x.sideIdx, priceTicks: room ? better : p, left: this.cfg.size, answered: x });
    this.appeared++;
  }

  /**
   * A print of `qty` at `priceTicks` hitting `side` of symbol `s` (a hidden print only reaches
   * orders priced better than it): what the competitors take first; returns what is left for us.
   * `open`: our open orders there; `othersBest`: the recorded best on that side (a competitor the
   * market has reached leaves).
   */
  absorb(s: number, side: number, priceTicks: number, qty: number, hidden: boolean, open: readonly XOrder[], othersBest: number): number {
    const a = this.#active;
    if (a.length === 0) return qty;
    let rem = qty;
    for (let k = 0; k < a.length; k++) {
      const c = a[k]!;
      if (c.s !== s) continue;
      const x = c.answered;
      const bid = c.side === BID;
      // Gone: filled, our order left its price (a replace is a new order) or the recorded book reached its price.
      if (c.left <= 0 || !open.includes(x) || (bid ? othersBest >= c.priceTicks : othersBest <= c.priceTicks)) {
        a.splice(k--, 1);
        continue;
      }
      if (c.side !== side || rem <= 0) continue;
      const reaches = bid ? priceTicks < c.priceTicks || (!hidden && priceTicks === c.priceTicks) : priceTicks > c.priceTicks || (!hidden && priceTicks === c.priceTicks);
      if (!reaches) continue;
      const f = Math.min(c.left, rem);
      c.left -= f;
      rem -= f;
      this.absorbedQty += f;
    }
    return rem;
  }

  #u(): number {
    return this.#rand() / 4294967296;
  }

  #normal(): number {
    // Box–Muller; 1 − u keeps the log argument in (0, 1].
    return Math.sqrt(-2 * Math.log(1 - this.#u())) * Math.cos(2 * Math.PI * this.#u());
  }
}
