import { MarkoutTracker, type MarkoutStats } from '../strategy/estimators/index.ts';
import type { BacktestFill } from './ledger.ts';

/** Markout curve horizons (ms) of the report: 0–120 s. */
export const CURVE_HORIZONS_MS: readonly number[] = [0, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 90_000, 120_000];
/** The headline horizons of `report.json` (`markouts_bps` keys) and of fills.csv's markout columns. */
export const HEADLINE_HORIZONS: readonly { readonly key: string; readonly ms: number }[] = [
  { key: '1s', ms: 1_000 },
  { key: '10s', ms: 10_000 },
  { key: '60s', ms: 60_000 },
];

/** What the exchange side exposes for markouts: per-symbol books (for the mid) and the fill log. */
export interface MarkoutSource {
  readonly books: readonly { bestBid(): number; bestAsk(): number }[];
  readonly fillLog: readonly BacktestFill[];
}

/**
 * Fill markouts of a replay, per symbol, on exchange time: one `MarkoutTracker` per symbol over the
 * curve horizons, fed lazily (the mid is read from the exchange book only when time passes a pending
 * horizon, so an event costs one comparison), weighted by fill notional. Also keeps each fill's
 * headline markouts for fills.csv.
 */
export class FillMarkouts {
  readonly trackers: readonly MarkoutTracker[];
  /** Per headline horizon, per fill (index in the fill log): markout in bps, NaN until it matured. */
  readonly perFill: number[][] = HEADLINE_HORIZONS.map(() => []);
  /** Fill-log entries taken so far (the observer compares it with the log's length: one read per step). */
  seen = 0;
  /** The earliest instant a pending markout matures (the observer calls `advance` only past it). */
  nextDueMs = Infinity;
  /** Per symbol: tracker fill sequence → fill log index. */
  readonly #fillIndex: number[][];
  readonly #unit: Float64Array;

  constructor(
    private readonly src: MarkoutSource,
    symbols: readonly string[],
    /** USD per (tick × contract) per symbol: weights are fill notionals. */
    unitUsd: readonly number[],
  ) {
    this.#unit = Float64Array.from(unitUsd);
    this.#fillIndex = symbols.map(() => []);
    const headline = HEADLINE_HORIZONS.map((h) => CURVE_HORIZONS_MS.indexOf(h.ms));
    this.trackers = symbols.map(
      (_, s) =>
        new MarkoutTracker({
          horizonsMs: CURVE_HORIZONS_MS,
          onMarkout: (m) => {
            const col = headline.indexOf(m.horizonIdx);
            if (col >= 0) this.perFill[col]![this.#fillIndex[s]![m.fillSeq]!] = m.bps;
          },
        }),
    );
  }

  /** Time moves to `t` (before the exchange changes at `t`): markouts due before `t` mature on the books' current mids. */
  advance(t: number): void {
    if (t <= this.nextDueMs) return;
    let next = Infinity;
    for (let s = 0; s < this.trackers.length; s++) {
      const tr = this.trackers[s]!;
      if (t > tr.nextDueMs) {
        const b = this.src.books[s]!;
        tr.advance(t, (b.bestBid() + b.bestAsk()) / 2);
      }
      if (tr.nextDueMs < next) next = tr.nextDueMs;
    }
    this.nextDueMs = next;
  }

  /** Takes the fills the exchange logged since the last call (cheap when there are none). */
  takeFills(symbolIndex: (symbol: string) => number): void {
    const log = this.src.fillLog;
    if (log.length === this.seen) return;
    for (let k = this.seen; k < log.length; k++) {
      const f = log[k]!;
      for (const col of this.perFill) col[k] = NaN;
      const s = symbolIndex(f.symbol);
      const tr = this.trackers[s];
      if (!tr) continue;
      if (tr.fill(f.tsExchange, f.side, f.priceTicks, f.qty * f.priceTicks * this.#unit[s]!, f.midTicks)) this.#fillIndex[s]!.push(k);
      if (tr.nextDueMs < this.nextDueMs) this.nextDueMs = tr.nextDueMs;
    }
    this.seen = log.length;
  }

  /** Stats of every curve horizon of symbol `s`. */
  curve(s: number): MarkoutStats[] {
    return CURVE_HORIZONS_MS.map((_, h) => this.trackers[s]!.stats(h));
  }
}
