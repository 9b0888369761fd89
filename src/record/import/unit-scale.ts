import type { InstrumentDef } from './instrument-def.ts';
import type { RowIssues } from './row-issues.ts';

/** Tolerance when checking that a source price/size sits on the tick/lot grid (float parsing). */
const GRID_EPS = 1e-6;

/**
 * Converts source prices and sizes (decimal text) into integer ticks and contracts with the
 * instrument definition's tick and lot sizes, reporting rows that do not fit.
 */
export class UnitScale {
  readonly #tick: number;
  readonly #lot: number;

  constructor(def: InstrumentDef) {
    this.#tick = def.instrument.grid.tickSize.toNumber();
    this.#lot = def.lotSize.toNumber();
  }

  /** Price text → ticks; null (reported) when not a number, not positive, or off the tick grid. */
  priceTicks(text: string, file: string, line: number, issues: RowIssues): number | null {
    const p = Number(text);
    if (text.length === 0 || !Number.isFinite(p)) {
      issues.report('malformed', file, line, `price ${JSON.stringify(text)} is not a number`);
      return null;
    }
    if (p <= 0) {
      issues.report('malformed', file, line, `price ${text} is not positive`);
      return null;
    }
    const x = p / this.#tick;
    const ticks = Math.round(x);
    if (Math.abs(x - ticks) > GRID_EPS * Math.max(1, x)) {
      issues.report('off-grid-price', file, line, `price ${text} is not a multiple of tick_size ${this.#tick}`);
      return null;
    }
    return ticks;
  }

  /**
   * Size text → contracts; null (reported) when not a number or negative. A size that is not a whole
   * number of lots is rounded (to at least 1 when non-zero) and reported. `positive`: 0 is bad too.
   */
  contracts(text: string, positive: boolean, file: string, line: number, issues: RowIssues): number | null {
    const a = Number(text);
    if (text.length === 0 || !Number.isFinite(a)) {
      issues.report('malformed', file, line, `amount ${JSON.stringify(text)} is not a number`);
      return null;
    }
    if (a < 0 || (positive && a === 0)) {
      issues.report('negative-size', file, line, `amount ${text} must be ${positive ? '> 0' : '≥ 0'}`);
      return null;
    }
    const x = a / this.#lot;
    let q = Math.round(x);
    if (Math.abs(x - q) > GRID_EPS * Math.max(1, x)) {
      issues.report('fractional-size', file, line, `amount ${text} is not a whole number of lot_size ${this.#lot}; rounded`);
      if (q === 0) q = 1;
    }
    return q;
  }
}
