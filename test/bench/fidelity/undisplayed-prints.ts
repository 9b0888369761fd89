/**
 * How often a tape's prints land where the book showed nothing on the side they hit (the
 * `queue_model.infer_hidden` rule, src/backtest/infer-hidden.ts), and, on a tape whose prints are
 * marked, how well that recovers the marks. `node bin/run-ts.js test/bench/fidelity/undisplayed-prints.ts <recording>…`
 * prints the counts; the fidelity bench shows them per day.
 */
import type { BookSide } from '../../../src/domain/book.ts';
import { openRecording } from '../../../src/record/index.ts';

/** Shares (contracts) of prints by what the book showed at their price and how the source marked them. */
export interface UndisplayedCounts {
  /** Every print but auction crosses. */
  shares: number;
  /** Prints the source marked hidden. */
  markedHidden: number;
  /** Prints where nothing was displayed on the side they hit, within the recorded depth: the rule reads them as hidden. */
  undisplayed: number;
  /** Of those, the ones the source marked hidden. */
  undisplayedMarked: number;
  /** Prints beyond the recorded depth (the rule leaves them regular). */
  beyondDepth: number;
}

/**
 * Tallies prints against the book as it stood when each arrived (levels a frame at the same instant
 * had just emptied count as displayed, as in the replay). Books: snapshots or diffs, cut to the
 * deepest side seen (`depth`).
 */
export class UndisplayedTally {
  readonly counts: UndisplayedCounts = { shares: 0, markedHidden: 0, undisplayed: 0, undisplayedMarked: 0, beyondDepth: 0 };
  readonly #sides = [new Map<number, number>(), new Map<number, number>()];
  /** Per side, price → the instant a frame emptied it. */
  readonly #gone = [new Map<number, number>(), new Map<number, number>()];
  #depth = 0;

  /** A book frame at `ms`. */
  book(ms: number, snapshot: boolean, bids: BookSide, asks: BookSide): void {
    [bids, asks].forEach((levels, side) => {
      const m = this.#sides[side]!;
      if (snapshot) {
        for (const p of m.keys()) if (!levels.some((l) => l.priceTicks === p)) this.#gone[side]!.set(p, ms);
        m.clear();
      }
      for (const l of levels) {
        if (l.qty > 0) m.set(l.priceTicks, l.qty);
        else if (m.delete(l.priceTicks)) this.#gone[side]!.set(l.priceTicks, ms);
      }
      if (m.size > this.#depth) this.#depth = m.size;
    });
  }

  /** A print at `ms`; `takerBuy` hit the asks. */
  trade(ms: number, priceTicks: number, qty: number, takerBuy: boolean, condition: 'hidden' | 'cross' | undefined): void {
    if (condition === 'cross') return;
    const c = this.counts;
    const side = takerBuy ? 1 : 0;
    const hidden = condition === 'hidden';
    c.shares += qty;
    if (hidden) c.markedHidden += qty;
    const m = this.#sides[side]!;
    if ((m.get(priceTicks) ?? 0) > 0 || this.#gone[side]!.get(priceTicks) === ms) return;
    let better = 0;
    for (const p of m.keys()) if (side === 0 ? p > priceTicks : p < priceTicks) better++;
    if (this.#depth > 0 && better >= this.#depth) {
      c.beyondDepth += qty;
      return;
    }
    c.undisplayed += qty;
    if (hidden) c.undisplayedMarked += qty;
  }
}

/** Tallies a recording file's first symbol. */
export async function tallyRecording(path: string): Promise<UndisplayedCounts> {
  const rec = await openRecording(path);
  const t = new UndisplayedTally();
  const symbol = rec.instruments[0]!.symbol;
  for await (const { event: e } of rec.events()) {
    if (e.type === 'book' && e.symbol === symbol) t.book(e.tsEvent, e.isSnapshot, e.bids, e.asks);
    else if (e.type === 'trade' && e.symbol === symbol) t.trade(e.tsEvent, e.priceTicks, e.qty, e.aggressor === 'buy', e.condition);
  }
  return t.counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const path of process.argv.slice(2)) process.stdout.write(`${path}: ${JSON.stringify(await tallyRecording(path))}\n`);
}
