import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriceSeries, type PriceSample } from '../../../src/sim/funding/price-series.ts';
import { UnderlyingHistory } from '../../../src/sim/md/md-store.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { marketVenue } from './harness.ts';

/** The previous object-per-sample series, unbounded: the reference the ring must match exactly. */
class NaiveSeries {
  readonly s: PriceSample[] = [];
  push(tsMs: number, price: number, qty = 0): void {
    const last = this.s[this.s.length - 1];
    this.s.push({ tsMs: last && tsMs < last.tsMs ? last.tsMs : tsMs, price, qty });
  }
  range(from: number, to: number): PriceSample[] {
    return this.s.filter((x) => x.tsMs >= from && x.tsMs < to);
  }
  at(ts: number): number | undefined {
    let f: number | undefined;
    for (const x of this.s) {
      if (x.tsMs > ts) break;
      f = x.price;
    }
    return f;
  }
  twap(from: number, to: number): number | undefined {
    if (to <= from) return undefined;
    let price = this.at(from);
    let t = from;
    let acc = 0;
    let covered = 0;
    for (const x of this.range(from, to)) {
      if (price !== undefined) {
        acc += price * (x.tsMs - t);
        covered += x.tsMs - t;
      }
      price = x.price;
      t = x.tsMs;
    }
    if (price !== undefined) {
      acc += price * (to - t);
      covered += to - t;
    }
    return covered > 0 ? acc / covered : undefined;
  }
  vwap(from: number, to: number): number | undefined {
    let pq = 0;
    let q = 0;
    for (const x of this.range(from, to)) {
      pq += x.price * x.qty;
      q += x.qty;
    }
    return q > 0 ? pq / q : undefined;
  }
}

const step = fc.record({
  dt: fc.oneof(fc.constant(0), fc.constant(-5), fc.double({ min: 0, max: 3_000, noNaN: true })),
  price: fc.double({ min: 0.5, max: 200, noNaN: true }),
  qty: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
});

describe('PriceSeries (ring of Float64Arrays)', () => {
  it('matches the unbounded reference exactly for every window inside the retention', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 0, maxLength: 400 }),
        fc.integer({ min: 1_000, max: 60_000 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 20 }),
        (steps, retainMs, windows) => {
          const ring = new PriceSeries(retainMs);
          const ref = new NaiveSeries();
          let t = 1_000_000;
          for (const st of steps) {
            t += st.dt;
            ring.push(t, st.price, st.qty);
            ref.push(t, st.price, st.qty);
          }
          const newest = ref.s[ref.s.length - 1]?.tsMs ?? t;
          expect(ring.last()).toEqual(ref.s[ref.s.length - 1]);
          for (const [a, b] of windows) {
            // Windows starting at or after newest − retain: what the funding maths reads.
            const from = newest - retainMs + a * (retainMs + 2_000);
            const to = from + b * retainMs;
            expect(ring.twap(from, to)).toBe(ref.twap(from, to));
            expect(ring.vwap(from, to)).toBe(ref.vwap(from, to));
            expect(ring.at(from)).toBe(ref.at(from));
            expect(ring.range(from, to)).toEqual(ref.range(from, to));
          }
          // Bounded: at most the samples within the retention plus the one in force at its start.
          const live = ref.s.filter((x) => x.tsMs >= newest - retainMs).length;
          expect(ring.length).toBeLessThanOrEqual(live + 1);
          expect(ring.first()?.tsMs ?? newest).toBeLessThanOrEqual(Math.max(newest - retainMs, ref.s.find((x) => x.tsMs >= newest - retainMs)?.tsMs ?? newest));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps a bounded number of samples over a long run', () => {
    const s = new PriceSeries(60_000);
    for (let i = 0; i < 100_000; i++) s.push(i * 1_000, 100 + (i % 7));
    // 61 samples in [newest − 60 s, newest] plus the one before (the same rule as before the ring).
    expect(s.length).toBe(62);
    expect(s.first()!.tsMs).toBe(99_999_000 - 61_000);
    expect(s.twap(99_999_000 - 60_000, 99_999_000)).toBeCloseTo(s.range(99_999_000 - 60_000, 99_999_000).reduce((a, x) => a + x.price, 0) / 60, 9);
  });
});

describe('UnderlyingHistory (downsampled /api/underlying-prices rows)', () => {
  it('keeps the latest observation of each minute, with its own timestamp', () => {
    const h = new UnderlyingHistory(100, 60_000);
    for (let sec = 0; sec < 180; sec++) h.record(sec * 1_000 + 500, 10 + sec);
    expect(h.toArray()).toEqual([
      { tsMs: 59_500, price: 69 },
      { tsMs: 119_500, price: 129 },
      { tsMs: 179_500, price: 189 },
    ]);
    expect(h.last()).toEqual({ tsMs: 179_500, price: 189 });
  });

  it('drops the oldest rows beyond capacity; bucket 0 keeps every observation', () => {
    const h = new UnderlyingHistory(3, 0);
    for (let i = 0; i < 200; i++) h.record(i, i * 2);
    expect(h.toArray()).toEqual([
      { tsMs: 197, price: 394 },
      { tsMs: 198, price: 396 },
      { tsMs: 199, price: 398 },
    ]);
    const big = new UnderlyingHistory(1_000, 60_000);
    for (let m = 0; m < 5_000; m++) big.record(m * 60_000, m);
    expect(big.length).toBe(1_000);
    expect(big.toArray()[0]).toEqual({ tsMs: 4_000 * 60_000, price: 4_000 });
  });
});

describe('funding series retention on a running venue', () => {
  it('keeps only the windows funding reads across settlements, and /api/underlying-prices one row a minute', async () => {
    // Thursday 13:00Z: NVDA-PERP settles every 30 min from 14:00Z (intraday), EURUSD-PERP at 15:00Z.
    const clock = new VirtualClock(Date.parse('2026-09-24T13:00:00Z'));
    const h = await marketVenue({ rewards: { enabled: false }, market: { step_ms: 1_000 }, instruments: { only: ['EURUSD-PERP', 'NVDA-PERP'] } }, { clock });
    try {
      for (let i = 0; i < 2 * 60 + 1; i++) clock.advanceBy(60_000);
      const f = h.services.funding;
      expect(f.store.rates.filter((r) => r.symbol === 'NVDA-PERP').length).toBeGreaterThanOrEqual(3);
      expect(f.store.rates.filter((r) => r.symbol === 'EURUSD-PERP')).toHaveLength(1);
      for (const symbol of ['EURUSD-PERP', 'NVDA-PERP']) {
        const s = f.series.get(symbol)!;
        // Sized to the longest window read (30-min slots, 15-min mark window) plus slack, not 2 days.
        expect(s.marks.retainMs).toBeLessThanOrEqual(40 * 60_000);
        expect(s.marks.length).toBeLessThanOrEqual(s.marks.retainMs / 1_000 + 2);
        expect(s.underlying.length).toBeLessThanOrEqual(s.underlying.retainMs / 1_000 + 2);
      }
      expect(h.services.md.history.get('EURUSD-PERP')!.underlying.length).toBe(2 * 60 + 2);
    } finally {
      await h.close();
    }
  });
});
