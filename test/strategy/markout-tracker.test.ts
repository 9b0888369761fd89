import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkoutTracker, type Markout } from '../../src/strategy/estimators/index.ts';

const collect = (horizonsMs: number[], recentWindow?: number): { t: MarkoutTracker; out: Markout[] } => {
  const out: Markout[] = [];
  const t = new MarkoutTracker({ horizonsMs, onMarkout: (m) => out.push(m), ...(recentWindow ? { recentWindow } : {}) });
  return { t, out };
};

describe('MarkoutTracker', () => {
  it('signs markouts so that positive is good for us: a buy before a rise and a sell before a fall', () => {
    const { t, out } = collect([1000, 10_000]);
    t.updateMid(0, 100);
    t.fill(0, 'buy', 99.99);
    t.fill(0, 'sell', 100.01);
    t.updateMid(500, 100.1); // +10 bps
    t.updateMid(5000, 99.8); // −20 bps
    t.advance(20_000);
    expect(out.map((m) => [m.fillSeq, m.horizonMs, Number(m.bps.toFixed(6))])).toEqual([
      [0, 1000, 10],
      [1, 1000, -10],
      [0, 10_000, -20],
      [1, 10_000, 20],
    ]);
    const s1 = t.stats(0);
    expect(s1).toMatchObject({ horizonMs: 1000, count: 2, buyCount: 1, sellCount: 1 });
    expect(s1.meanBps).toBeCloseTo(0, 9);
    expect(s1.buyMeanBps).toBeCloseTo(10, 9);
    expect(s1.sellMeanBps).toBeCloseTo(-10, 9);
    // The edge at the fill (1 bp each side) is kept apart from the mid move.
    expect(t.edgeBps).toBeCloseTo(1, 9);
    expect(t.pending).toBe(0);
  });

  it('uses the mid in force at fill time + horizon: an update at exactly that instant counts, a later one does not', () => {
    const { t, out } = collect([1000]);
    t.updateMid(0, 100);
    t.fill(0, 'buy', 100);
    t.updateMid(1000, 101); // at the horizon instant
    expect(out).toHaveLength(0); // it matures once time passes the instant (more updates may share it)
    t.updateMid(1000, 102); // same instant: the last one wins
    t.updateMid(1001, 200);
    expect(out).toHaveLength(1);
    expect(out[0]!.bps).toBeCloseTo(200, 9);
  });

  it('waits for a mid when the book has none at the horizon, and skips fills without a reference mid', () => {
    const { t, out } = collect([1000]);
    expect(t.fill(0, 'buy', 100)).toBe(false); // no mid yet
    t.updateMid(0, 100);
    expect(t.fill(0, 'buy', 100, 0)).toBe(false); // zero weight
    expect(t.fill(0, 'sell', 100)).toBe(true);
    t.updateMid(900, NaN); // a side of the book emptied
    t.advance(5000);
    expect(out).toHaveLength(0);
    t.updateMid(6000, 99);
    t.advance(6001);
    expect(out.map((m) => m.bps)).toEqual([100]);
    expect(t.fills).toBe(1);
  });

  it('weights the means by the weight given (e.g. notional)', () => {
    const t = new MarkoutTracker({ horizonsMs: [0] });
    t.updateMid(0, 100);
    t.fill(0, 'buy', 100, 3);
    t.updateMid(0, 101); // +100 bps for the first fill (same instant: horizon 0 reads the last mid at 0)
    t.fill(0, 'buy', 101, 1, 101);
    t.updateMid(1, 100); // both mature on the mid in force at 0: 101
    expect(t.stats(0).meanBps).toBeCloseTo((3 * 100 + 1 * 0) / 4, 9);
    expect(t.stats(0).weight).toBe(4);
  });

  it('keeps the rolling mean over the last `recentWindow` markouts per horizon', () => {
    const { t } = collect([1000], 3);
    expect(t.recentMeanBps(0)).toBeNaN();
    t.updateMid(0, 100);
    for (let k = 0; k < 5; k++) t.fill(k * 10, 'buy', 100, 1, 100);
    // Each fill matures 5 ms after its horizon on the mid before that step: 0, +1, +2, +3, +4 bps.
    t.updateMid(1005, 100.01);
    t.updateMid(1015, 100.02);
    t.updateMid(1025, 100.03);
    t.updateMid(1035, 100.04);
    t.updateMid(1045, 100.05);
    t.advance(2000);
    expect(t.stats(0).count).toBe(5);
    expect(t.count(0)).toBe(5);
    expect(t.recentMeanBps(0)).toBeCloseTo((2 + 3 + 4) / 3, 9);
  });

  it('keeps a size-weighted rolling mean over the same window', () => {
    const { t } = collect([1000], 2);
    expect(t.recentWeightedMeanBps(0)).toBeNaN();
    t.updateMid(0, 100);
    t.fill(0, 'buy', 100, 1, 100);
    t.fill(10, 'buy', 100, 3, 100);
    t.fill(20, 'buy', 100, 6, 100);
    t.updateMid(1005, 100.01); // the first matures at +0
    t.updateMid(1015, 100.02); // the second at +1 bps
    t.updateMid(1025, 100.03); // the third at +2 bps
    t.advance(2000);
    // The window holds the last two: (3·1 + 6·2) / 9.
    expect(t.recentWeightedMeanBps(0)).toBeCloseTo(15 / 9, 9);
    expect(t.recentMeanBps(0)).toBeCloseTo(1.5, 9);
  });

  it('holds any number of pending fills (the ring grows) and matures them in order', () => {
    const { t, out } = collect([60_000]);
    t.updateMid(0, 100);
    for (let k = 0; k < 1000; k++) t.fill(k, k % 2 ? 'sell' : 'buy', 100);
    expect(t.pending).toBe(1000);
    t.updateMid(30_000, 100.5);
    t.advance(70_000);
    expect(out.map((m) => m.fillSeq)).toEqual(Array.from({ length: 1000 }, (_, k) => k));
    expect(t.stats(0)).toMatchObject({ count: 1000, buyCount: 500, sellCount: 500 });
    expect(t.stats(0).buyMeanBps).toBeCloseTo(50, 9);
  });

  it('rejects horizons that are not ascending', () => {
    expect(() => new MarkoutTracker({ horizonsMs: [] })).toThrow(RangeError);
    expect(() => new MarkoutTracker({ horizonsMs: [10, 10] })).toThrow(/ascending/);
    expect(() => new MarkoutTracker({ horizonsMs: [-1] })).toThrow(/>= 0/);
  });

  it('agrees with a brute-force reference, driven update by update or lazily only past nextDueMs', () => {
    const step = fc.record({ dt: fc.integer({ min: 0, max: 700 }), midMove: fc.integer({ min: -3, max: 3 }), fill: fc.constantFrom(null, 'buy', 'sell') });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        const H = [0, 250, 1000, 2500];
        const eager = collect(H);
        const lazy = collect(H);
        // Reference: the mid path as (time, mid) changes; the mid at x = the last change at or before x.
        const path: [number, number][] = [];
        const fills: { t: number; side: 1 | -1; ref: number }[] = [];
        let now = 0;
        let mid = 1000;
        eager.t.updateMid(0, mid);
        lazy.t.updateMid(0, mid);
        path.push([0, mid]);
        for (const s of steps) {
          const next = now + s.dt;
          // Lazy: looks only when time passes a due instant, with the mid in force just before `next`.
          if (next > lazy.t.nextDueMs) lazy.t.advance(next, mid);
          now = next;
          mid = Math.max(1, mid + s.midMove);
          eager.t.updateMid(now, mid);
          path.push([now, mid]);
          if (s.fill) {
            eager.t.fill(now, s.fill, mid);
            lazy.t.fill(now, s.fill, mid, 1, mid);
            fills.push({ t: now, side: s.fill === 'buy' ? 1 : -1, ref: mid });
          }
        }
        const end = now + 10_000;
        eager.t.advance(end);
        if (end > lazy.t.nextDueMs) lazy.t.advance(end, mid);
        const midAt = (x: number): number => {
          let m = NaN;
          for (const [t, v] of path) if (t <= x) m = v;
          return m;
        };
        const ref = H.flatMap((h, hi) => fills.map((f, k) => [hi, k, (f.side * (midAt(f.t + h) - f.ref)) / f.ref * 1e4] as const));
        const key = (m: Markout) => [m.horizonIdx, m.fillSeq, m.bps] as const;
        const sort = (a: readonly (readonly [number, number, number])[]) => [...a].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        expect(sort(eager.out.map(key))).toEqual(sort(ref));
        expect(sort(lazy.out.map(key))).toEqual(sort(ref));
      }),
      { numRuns: 200 },
    );
  });
});
