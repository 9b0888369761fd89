import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.ts';
import type { InstrumentCatalog } from '../../../src/domain/instrument.ts';
import type { EngineSnapshot } from '../../../src/engine/index.ts';
import { ConsoleHistory, MAX_SERIES_POINTS } from '../../../src/app/control/history.ts';

const snap = (nowMs: number, qty: number): EngineSnapshot =>
  ({ nowMs, symbols: [{ symbol: 'EURUSD-PERP', position: { qty }, pnl: { total: new Decimal(qty / 10) } }] }) as unknown as EngineSnapshot;

describe('console position/PnL series', () => {
  it('stays bounded however often it is sampled: the latest point per time bucket, inside the window', () => {
    const h = new ConsoleHistory(3_600_000, {} as InstrumentCatalog);
    // Three hours of a point every 100 ms (a busy bot sampling on every fill).
    for (let t = 0; t <= 3 * 3_600_000; t += 100) h.sample(snap(t, t / 100));
    const xs = h.series()['EURUSD-PERP']!;
    expect(xs.length).toBeLessThanOrEqual(MAX_SERIES_POINTS + 1);
    expect(xs.length).toBeGreaterThanOrEqual(MAX_SERIES_POINTS - 1);
    expect(xs[0]!.tsMs).toBeGreaterThanOrEqual(2 * 3_600_000);
    // The newest sample is always there, with its values.
    expect(xs.at(-1)).toEqual({ tsMs: 3 * 3_600_000, position: 3 * 36_000, pnlUsd: 3 * 3_600 });
    // Points are in time order, at most one per 3 s bucket.
    for (let i = 1; i < xs.length; i++) expect(Math.floor(xs[i]!.tsMs / 3_000)).toBeGreaterThan(Math.floor(xs[i - 1]!.tsMs / 3_000));
  });

  it('keeps every point when samples are sparser than the bucket', () => {
    const h = new ConsoleHistory(60_000, {} as InstrumentCatalog);
    for (let t = 0; t < 50_000; t += 5_000) h.sample(snap(t, 1));
    expect(h.series()['EURUSD-PERP']!.length).toBe(10);
  });
});
