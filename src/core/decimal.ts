import { Decimal } from 'decimal.js';

/** Money and wire prices use decimal.js: exact decimal arithmetic, never floats. */
export { Decimal };

/** The venue's decimal string grammar: optional minus, digits, optional fraction. */
export const DECIMAL_RE = /^-?[0-9]+(\.[0-9]+)?$/;

/** True when `s` is a decimal string as the venue writes them. */
export const isDecimalString = (s: string): boolean => DECIMAL_RE.test(s);

/**
 * Parses a venue decimal string.
 * @throws RangeError when `s` is not a decimal string.
 */
export function parseDecimal(s: string): Decimal {
  if (!DECIMAL_RE.test(s)) throw new RangeError(`expected a decimal string, got ${JSON.stringify(s)}`);
  return new Decimal(s);
}

/** Formats money for the wire with a fixed number of fractional digits (the venue uses 12). */
export const toFixedString = (d: Decimal, digits = 12): string => d.toFixed(digits);

/** Zero, shared. */
export const ZERO = new Decimal(0);
