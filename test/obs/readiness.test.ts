import { describe, expect, it } from 'vitest';
import { ReadinessTracker } from '../../src/obs/readiness.ts';

describe('readiness tracker', () => {
  it('is ready only when connected, books fresh, reconciled and not halted', () => {
    const r = new ReadinessTracker({ symbols: ['A'], maxBookAgeMs: 1000 });
    expect(r.check(0).reasons).toEqual(['orders stream disconnected', 'market-data stream disconnected', 'no book yet for A', 'orders not reconciled']);
    r.connection('orders', true);
    r.connection('market-data', true);
    r.book('A', 10_000);
    r.reconciled(true);
    expect(r.check(10_500)).toEqual({ ready: true, reasons: [] });
    expect(r.check(11_500).reasons).toEqual(['book for A stale (1500 ms > 1000 ms)']);
    r.halted('kill switch: max-drawdown');
    expect(r.check(10_500).reasons).toEqual(['halted: kill switch: max-drawdown']);
    r.halted(null);
    r.connection('market-data', false);
    expect(r.check(10_500)).toEqual({ ready: false, reasons: ['market-data stream disconnected', 'no book yet for A'] });
  });

  it('an order-stream disconnect voids the reconcile until the next one', () => {
    const r = new ReadinessTracker({ streams: ['orders'] });
    r.connection('orders', true);
    r.reconciled(true);
    expect(r.check(0).ready).toBe(true);
    r.connection('orders', false);
    r.connection('orders', true);
    expect(r.check(0).reasons).toEqual(['orders not reconciled']);
  });
});

describe('readiness and the market-data stream', () => {
  it('a market-data disconnect discards books; staleness flags are honoured', () => {
    const r = new ReadinessTracker({ streams: ['market-data'], symbols: ['A'], requireReconciled: false });
    r.connection('market-data', true);
    r.book('A', 5);
    expect(r.check(1e12).ready).toBe(true); // no age check by default
    r.bookStale('A', true);
    expect(r.check(10).reasons).toEqual(['book for A stale']);
    r.book('A', 20);
    expect(r.check(20).ready).toBe(true);
    r.connection('market-data', false);
    r.connection('market-data', true);
    expect(r.check(30).reasons).toEqual(['no book yet for A']);
  });
});
