import type { TickGrid } from '../domain/tick-grid.ts';

/** Market-data sanity thresholds (`RiskConfig.marketData`). A threshold of 0 turns its check off. */
export interface MdSanityConfig {
  /** A crossed or locked book (best bid ≥ best ask) that lasts this long makes the data suspect (ms). */
  readonly crossedBookMs: number;
  /**
   * A mid further than this from the venue's mark or index price, or (with neither known) from the
   * last sane mid, makes the data suspect (bps of that reference).
   */
  readonly maxMidDeviationBps: number;
}

/** Defaults: a crossed book for 1 s, a mid 3 % away from the mark. */
export const DEFAULT_MD_SANITY_CONFIG: MdSanityConfig = Object.freeze({ crossedBookMs: 1_000, maxMidDeviationBps: 300 });

/** Why a symbol's market data is suspect. */
export type MdSuspectKind = 'bad-price' | 'crossed-book' | 'mid-jump';

/** Every suspect kind (the metric's `kind` label values). */
export const MD_SUSPECT_KINDS: readonly MdSuspectKind[] = ['bad-price', 'crossed-book', 'mid-jump'];

/** A change of a symbol's verdict: an episode of suspect data starts, or the data is sane again. */
export type MdSanityTransition = 'suspect' | 'sane';

/**
 * One symbol's market-data sanity: a price that is not a positive finite number (bad-price, at once),
 * a crossed or locked book that persists (crossed-book, after `crossedBookMs`), a mid beyond the band
 * around the venue's mark / index, or around the last sane mid when neither is known (mid-jump, at
 * once). Pure: prices in ticks and the time come in as arguments. While suspect the engine holds the
 * symbol HALTED (quotes pulled) with `detail` as the reason; the first sane check ends the episode.
 */
export class MdSanity {
  /** The current suspicion, null while the data is sane. */
  kind: MdSuspectKind | null = null;
  /** What was wrong, with the values as prices, e.g. `crossed book: bid 1.15 ≥ ask 1.13 for 1000 ms`. */
  detail = '';
  /** The mid of the last check that found the data sane (ticks, may be a half tick), null before one. */
  lastSaneMidTicks: number | null = null;
  /** When the book was first seen crossed or locked in the current run of such checks, null when it is not. */
  #crossedSinceMs: number | null = null;
  /** The inputs of the last check: the same again (most evaluations) give the same verdict. */
  #bid: number | null = NaN;
  #ask: number | null = NaN;
  #mark: number | null = NaN;
  #index: number | null = NaN;
  #config: MdSanityConfig;

  constructor(
    config: MdSanityConfig,
    readonly grid: TickGrid,
  ) {
    this.#config = config;
  }

  /** The thresholds; replaced by a live risk reload (`replaceRisk`), which re-checks at the next update. */
  get config(): MdSanityConfig {
    return this.#config;
  }

  set config(c: MdSanityConfig) {
    this.#config = c;
    this.#bid = NaN;
  }

  /**
   * The book is crossed or locked but not yet for `crossedBookMs`: the engine keeps the working
   * orders as they are rather than derive prices from it (the post-only clamp would put them
   * beyond the crossed touch, far from the market). False with the check off.
   */
  get crossedPending(): boolean {
    return this.#crossedSinceMs !== null && this.kind === null && this.#config.crossedBookMs > 0;
  }

  /**
   * The price quotes are kept near (ticks): the venue's mark, else its index, else the last sane mid;
   * null before any is known.
   */
  referenceTicks(markTicks: number | null, indexTicks: number | null): number | null {
    return usable(markTicks) ? markTicks : usable(indexTicks) ? indexTicks : this.lastSaneMidTicks;
  }

  /**
   * Re-checks the data at `nowMs` (a missing side is not suspect by itself: a one-sided book is a
   * market). Returns the transition when the verdict changed, else null.
   */
  update(bidTicks: number | null, askTicks: number | null, markTicks: number | null, indexTicks: number | null, nowMs: number): MdSanityTransition | null {
    // The hot path: this runs before every evaluation. Only a crossed book waiting out its
    // persistence depends on the time; anything else gives the verdict of the same inputs.
    if (bidTicks === this.#bid && askTicks === this.#ask && markTicks === this.#mark && indexTicks === this.#index && this.#crossedSinceMs === null) return null;
    this.#bid = bidTicks;
    this.#ask = askTicks;
    this.#mark = markTicks;
    this.#index = indexTicks;
    const was = this.kind;
    const why = this.#check(bidTicks, askTicks, markTicks, indexTicks, nowMs);
    if (why === null) {
      this.kind = null;
      this.detail = '';
      if (bidTicks !== null && askTicks !== null) this.lastSaneMidTicks = (bidTicks + askTicks) / 2;
      return was === null ? null : 'sane';
    }
    // The detail follows the data (a jump that grows), the episode and its WARN stay one.
    this.kind = why;
    return was === null ? 'suspect' : null;
  }

  #check(bid: number | null, ask: number | null, mark: number | null, index: number | null, now: number): MdSuspectKind | null {
    if (bid !== null && !(bid > 0 && bid < Infinity)) return this.#say('bad-price', `best bid ${this.#px(bid)} is not a positive price`);
    if (ask !== null && !(ask > 0 && ask < Infinity)) return this.#say('bad-price', `best ask ${this.#px(ask)} is not a positive price`);
    if (bid === null || ask === null) {
      this.#crossedSinceMs = null;
      return null;
    }
    if (bid >= ask) {
      const since = (this.#crossedSinceMs ??= now);
      const ms = this.#config.crossedBookMs;
      if (ms > 0 && now - since >= ms) return this.#say('crossed-book', `${bid === ask ? 'locked' : 'crossed'} book: bid ${this.#px(bid)} ≥ ask ${this.#px(ask)} for ${now - since} ms`);
    } else this.#crossedSinceMs = null;
    const bps = this.#config.maxMidDeviationBps;
    if (bps === 0) return null;
    const mid = (bid + ask) / 2;
    // The venue's own price anchors the band: its mark, else its index (a dated future's mark holds
    // the basis to the index, which can be percents). The last sane mid only when it sends neither,
    // since a genuine move the mark follows would otherwise be suspect for ever.
    if (usable(mark)) return far(mid, mark, bps) ? this.#say('mid-jump', `mid ${this.#px(mid)} is ${this.#bpsText(mid, mark)} bps from the mark ${this.#px(mark)}`) : null;
    if (usable(index)) return far(mid, index, bps) ? this.#say('mid-jump', `mid ${this.#px(mid)} is ${this.#bpsText(mid, index)} bps from the index ${this.#px(index)}`) : null;
    const last = this.lastSaneMidTicks;
    if (last !== null && far(mid, last, bps)) return this.#say('mid-jump', `mid ${this.#px(mid)} is ${this.#bpsText(mid, last)} bps from the last sane mid ${this.#px(last)}`);
    return null;
  }

  #say(kind: MdSuspectKind, detail: string): MdSuspectKind {
    this.detail = detail;
    return kind;
  }

  #px(ticks: number): string {
    return Number.isFinite(ticks) ? this.grid.toDecimal(ticks).toString() : String(ticks);
  }

  #bpsText(p: number, ref: number): string {
    return String(Math.round((Math.abs(p - ref) / ref) * 10_000));
  }
}

/** A venue reference price we can measure against (a missing or glitched one is no anchor, not a suspect). */
function usable(x: number | null): x is number {
  return x !== null && x > 0 && x < Infinity;
}

function far(p: number, ref: number, bps: number): boolean {
  return Math.abs(p - ref) * 10_000 > ref * bps;
}
