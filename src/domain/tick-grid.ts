import { Decimal } from '../core/decimal.ts';
import type { Side } from './enums.ts';

/** How a price that is not on the grid is mapped onto it. */
export type TickRounding = 'exact' | 'down' | 'up' | 'nearest';

/**
 * An instrument's price grid. Prices inside the engine are integer ticks; this is the one place
 * that converts decimal strings to ticks and back. The conversion parses digits directly rather
 * than through floats, so it is exact and cheap enough for the market-data hot path.
 */
export class TickGrid {
  /** Fractional digits of the tick size (0.0001 → 4). Prices are printed with this many. */
  readonly decimals: number;
  /** Tick size in units of 10^-decimals (0.0001 → 1, 0.05 → 5, 0.25 → 25). */
  readonly unitsPerTick: number;
  readonly tickSize: Decimal;

  /** @throws RangeError when `tickSize` is not a positive decimal. */
  constructor(tickSize: string) {
    const d = new Decimal(tickSize);
    if (!d.isFinite() || d.lte(0)) throw new RangeError(`tick size must be positive, got ${tickSize}`);
    this.tickSize = d;
    this.decimals = Math.max(0, d.decimalPlaces());
    this.unitsPerTick = d.mul(new Decimal(10).pow(this.decimals)).toNumber();
  }

  /**
   * Converts a decimal price string to ticks.
   * @throws RangeError when the string is not a decimal, or when `rounding` is `exact` and the
   * price is off the grid.
   */
  toTicks(price: string, rounding: TickRounding = 'exact'): number {
    const units = this.#parseUnits(price, rounding);
    const q = units / this.unitsPerTick;
    if (Number.isInteger(q)) return q;
    switch (rounding) {
      case 'exact':
        throw new RangeError(`price ${price} is not a multiple of the tick ${this.tickSize.toString()}`);
      case 'down':
        return Math.floor(q);
      case 'up':
        return Math.ceil(q);
      case 'nearest':
        return Math.round(q);
    }
  }

  /** Snaps a price to the grid the safe way for a quote: bids round down, asks round up. */
  toQuoteTicks(price: string | Decimal, side: Side): number {
    const s = typeof price === 'string' ? price : price.toFixed();
    return this.toTicks(s, side === 'buy' ? 'down' : 'up');
  }

  /** Converts ticks to a decimal string with the tick's number of fractional digits. */
  toPrice(ticks: number): string {
    const units = ticks * this.unitsPerTick;
    if (this.decimals === 0) return String(units);
    const neg = units < 0;
    const abs = String(Math.abs(units)).padStart(this.decimals + 1, '0');
    const cut = abs.length - this.decimals;
    return `${neg ? '-' : ''}${abs.slice(0, cut)}.${abs.slice(cut)}`;
  }

  /** Converts ticks to a Decimal price. */
  toDecimal(ticks: number): Decimal {
    return this.tickSize.mul(ticks);
  }

  /** Converts a Decimal price to ticks with the given rounding. */
  decimalToTicks(price: Decimal, rounding: TickRounding = 'exact'): number {
    return this.toTicks(price.toFixed(), rounding);
  }

  /** Returns the price in units of 10^-decimals, rounded per `rounding` when it has more digits. */
  #parseUnits(price: string, rounding: TickRounding): number {
    let i = 0;
    const n = price.length;
    let neg = false;
    if (price.charCodeAt(0) === 45 /* - */) {
      neg = true;
      i = 1;
    }
    let intPart = 0;
    let digits = 0;
    for (; i < n; i++) {
      const c = price.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      intPart = intPart * 10 + c;
      digits++;
    }
    let frac = 0;
    let fracDigits = 0;
    let extraNonZero = false;
    let firstExtra = -1;
    if (i < n) {
      if (price.charCodeAt(i) !== 46 /* . */) throw new RangeError(`expected a decimal string, got ${JSON.stringify(price)}`);
      i++;
      const start = i;
      for (; i < n; i++) {
        const c = price.charCodeAt(i) - 48;
        if (c < 0 || c > 9) throw new RangeError(`expected a decimal string, got ${JSON.stringify(price)}`);
        if (fracDigits < this.decimals) {
          frac = frac * 10 + c;
          fracDigits++;
        } else {
          if (firstExtra < 0) firstExtra = c;
          if (c !== 0) extraNonZero = true;
        }
      }
      if (i === start) throw new RangeError(`expected a decimal string, got ${JSON.stringify(price)}`);
    }
    if (digits === 0) throw new RangeError(`expected a decimal string, got ${JSON.stringify(price)}`);
    for (; fracDigits < this.decimals; fracDigits++) frac *= 10;
    let units = intPart * 10 ** this.decimals + frac;
    if (!Number.isSafeInteger(units)) throw new RangeError(`price ${price} is out of range`);
    if (extraNonZero) {
      // Digits below the grid's resolution: round the magnitude, then apply the sign.
      const mode = rounding === 'exact' ? 'exact' : neg ? flip(rounding) : rounding;
      if (mode === 'exact') throw new RangeError(`price ${price} is not a multiple of the tick ${this.tickSize.toString()}`);
      if (mode === 'up' || (mode === 'nearest' && firstExtra >= 5)) units += 1;
      // A value strictly between two units is never on the grid: nudge it so the tick division
      // below rounds the right way even when `units` itself is a multiple of unitsPerTick.
      if (mode === 'down') units += 0.5;
      else if (mode === 'up') units -= 0.5;
    }
    return neg ? -units : units;
  }
}

function flip(r: TickRounding): TickRounding {
  return r === 'down' ? 'up' : r === 'up' ? 'down' : r;
}
