import type { Decimal } from '../core/decimal.ts';

/**
 * What each symbol's ledger was seeded from (at start-up, or by a position-check correction): the
 * venue time of the newest fill the venue's position included (every fill at or before it is in the
 * seeded figure: booking it again would count it twice), and the venue's realized PnL at start-up
 * (this session's zero, so a correction can take the venue's realized PnL since then).
 */
export class SeededPositions {
  readonly #cutoffMs = new Map<string, number>();
  readonly #realizedBase = new Map<string, Decimal>();

  /**
   * True when a fill of `symbol` at venue time `tsMs` is already in the seeded position. Times are
   * compared in whole ms (REST times and the position's are truncated to ms; stream times keep µs),
   * so a later fill in the very same ms as the position's last one counts as included: the next
   * position check corrects that rare case.
   */
  includes(symbol: string, tsMs: number): boolean {
    const c = this.#cutoffMs.get(symbol);
    return c !== undefined && Math.floor(tsMs) <= c;
  }

  /** Records the seeded position's last fill time (null: none, nothing is cut off). */
  setCutoff(symbol: string, lastFillMs: number | null): void {
    if (lastFillMs === null) this.#cutoffMs.delete(symbol);
    else this.#cutoffMs.set(symbol, Math.max(Math.floor(lastFillMs), this.#cutoffMs.get(symbol) ?? -Infinity));
  }

  /** Records the venue's realized PnL at start-up (null: unknown) and returns it. */
  setBase(symbol: string, realized: Decimal | null): Decimal | null {
    if (realized === null) this.#realizedBase.delete(symbol);
    else this.#realizedBase.set(symbol, realized);
    return realized;
  }

  /** The venue's realized PnL at start-up, null when unknown. */
  base(symbol: string): Decimal | null {
    return this.#realizedBase.get(symbol) ?? null;
  }
}
