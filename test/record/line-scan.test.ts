import { describe, expect, it } from 'vitest';
import { LineScanner, roundOnGrid, symbolBytes } from '../../src/record/line-scan.ts';

// The scanner's numbers must be JSON.parse's to the bit: a receive time one ulp off would change
// replay order ties and the columns the equivalence test compares.

const scanner = new LineScanner(symbolBytes(['X']), 2);
const scanTimes = (e: string, r: string): { e: number; r: number } | null => {
  const buf = Buffer.from(`{"t":"t","s":"X","e":${e},"r":${r},"p":1,"q":1,"d":"B"}`);
  return scanner.scan(buf, 0, buf.length) ? { e: scanner.out.tsEvent, r: scanner.out.tsRecv } : null;
};

/** A deterministic pseudo-random sequence (LCG), so a failure names a reproducible case. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe('line scanner numbers', () => {
  it('rounds ties to even on the integer part grid, as JSON.parse does', () => {
    // 2^49 + 1: the doubles near it are 1/8 apart; .0625 and .1875 are exact ties.
    expect(Object.is(roundOnGrid(562949953421313, 625, 4), JSON.parse('562949953421313.0625') as number)).toBe(true);
    expect(roundOnGrid(562949953421313, 625, 4)).toBe(562949953421313);
    expect(roundOnGrid(562949953421313, 1875, 4)).toBe(562949953421313.25);
    // The last double below 2^41 plus almost one: rounds up to the power of two.
    expect(roundOnGrid(2 ** 41 - 1, 999999999, 9)).toBe(2 ** 41);
  });

  it('matches JSON.parse on 20,000 decimals of 16 to 24 digits (integer parts from 2^33 to 10^15, ties included)', () => {
    const rnd = lcg(22);
    let mismatches = 0;
    for (let i = 0; i < 20_000; i++) {
      const exp = 33 + Math.floor(rnd() * 17);
      const int = Math.min(999_999_999_999_999, Math.floor(2 ** exp * (1 + rnd())));
      const scale = 1 + Math.floor(rnd() * 9);
      let frac = Math.floor(rnd() * 10 ** scale);
      const grid = 52 - exp; // ties: frac / 10^scale an odd multiple of half the grid step
      if (i % 4 === 0 && grid + 1 <= scale) frac = ((2 * Math.floor(rnd() * 2 ** grid) + 1) * 10 ** scale) / 2 ** (grid + 1);
      const text = `${int}.${String(frac).padStart(scale, '0')}`;
      const got = scanTimes(text, text);
      if (got === null || !Object.is(got.e, JSON.parse(text) as number)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('takes integers, short and long decimals and negatives; leaves exponents and non-JSON numbers to the full decoder', () => {
    for (const t of ['0', '-0', '1700000000000', '1000.5', '-0.5', '0.1', '1795017393394.6497', '1700000000586.99999999', '1005.12345678901234567', '123456789.123456789'])
      expect(Object.is(scanTimes(t, '0')?.e, JSON.parse(t) as number)).toBe(true);
    for (const t of ['1e3', '1.5E2', '01', '1.', '.5', '+1', '-', '0x10', '1_000', 'NaN', '12345678901234567890']) expect(scanTimes(t, '0')).toBeNull();
  });

  it('leaves symbols that JSON escapes to the full decoder', () => {
    expect(symbolBytes(['A"B', 'A\\B', 'A\nB', 'AB', 'É'])).toEqual([null, null, null, Buffer.from('AB'), Buffer.from('É')]);
  });
});
