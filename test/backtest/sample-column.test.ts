import { describe, expect, it } from 'vitest';
import { SampleColumn } from '../../src/backtest/sample-column.ts';

const of = (xs: number[]): SampleColumn => {
  const c = new SampleColumn();
  for (const x of xs) c.push(x);
  return c;
};

describe('SampleColumn: samples held as runs, given back exactly', () => {
  it('a constant stretch and a stepping time are one run each', () => {
    const t = of(Array.from({ length: 100_000 }, (_, k) => 1_700_000_000_000 + 1000 * k));
    expect(t.runs).toBe(1);
    expect(t.length).toBe(100_000);
    expect(t.at(0)).toBe(1_700_000_000_000);
    expect(t.at(-1)).toBe(1_700_000_000_000 + 1000 * 99_999);
    expect(t.at(54_321)).toBe(1_700_054_321_000);
    const q = of([5, 5, 5, 5, 7, 7, 3]);
    expect(q.runs).toBe(3);
    expect(q.toArray()).toEqual([5, 5, 5, 5, 7, 7, 3]);
  });

  it('keeps NaN, −0 and values a progression would round: toArray is what was pushed, bit for bit', () => {
    const xs = [NaN, NaN, 0, -0, -0, 0.1, 0.2, 0.30000000000000004, 0.4, 1e-320, Infinity, Infinity, -Infinity, 3, 3.5, 4, 4.5];
    const c = of(xs);
    const back = c.toArray();
    expect(back.length).toBe(xs.length);
    for (let k = 0; k < xs.length; k++) {
      expect(Object.is(back[k], xs[k])).toBe(true);
      expect(Object.is(c.at(k), xs[k])).toBe(true);
    }
    expect(c.at(xs.length)).toBeUndefined();
    expect(c.at(-xs.length - 1)).toBeUndefined();
    expect(new SampleColumn().at(-1)).toBeUndefined();
  });

  it('random walks with repeats come back exactly', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const xs: number[] = [];
    let v = 100;
    for (let k = 0; k < 5000; k++) {
      const r = rnd();
      // Below 0.5: the value repeats.
      if (r >= 0.5 && r < 0.7) v += 0.25;
      else if (r < 0.9) v -= 1 / 3;
      else v = NaN;
      if (Number.isNaN(v) && r < 0.95) v = 100;
      xs.push(v);
    }
    const c = of(xs);
    expect(c.toArray()).toEqual(xs);
    for (let k = 0; k < xs.length; k += 37) expect(Object.is(c.at(k), xs[k])).toBe(true);
  });
});
