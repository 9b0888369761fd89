import { describe, expect, it } from 'vitest';
import { DEFAULT_EXECUTION_CONFIG, type ExecutionConfig } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

const TEN_PER_SEC: ExecutionConfig = {
  ...DEFAULT_EXECUTION_CONFIG,
  budgets: [{ name: 'user', capacity: 10, refillPerSec: 10, costs: { place: 1, replace: 1, cancel: 1, 'cancel-all': 1, status: 1, 'open-orders': 1, fills: 1 } }],
};

describe('quote burst under a 10/s budget', () => {
  it('ends in the latest desired state and never spends more than the budget', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { execution: TEN_PER_SEC });
    const t0 = h.clock.nowMs();
    // 200 quote changes in 2 s (one every 10 ms): far more than 10/s.
    let last = 0;
    for (let i = 0; i < 200; i++) {
      last = 11000 + (i % 37);
      s.next = quotes(EURUSD, last - 5, last + 5, 1 + (i % 3));
      h.market$.next(bookEv(EURUSD, last - 1, last + 1, h.clock.nowMs()));
      await h.advance(10);
    }
    const lastQty = 1 + (199 % 3);
    await h.advance(3_000, 50);
    const open = h.gw.open().map((o) => [o.side, o.priceTicks, o.remainingQty]).sort();
    expect(open).toEqual([
      ['buy', last - 5, lastQty],
      ['sell', last + 5, lastQty],
    ]);
    // Every window [t0, t] spends at most capacity + rate × elapsed (the open-orders call at start included).
    const reqs = h.gw.requests.filter((r) => r.atMs >= t0);
    reqs.forEach((r, i) => {
      const elapsedS = (r.atMs - t0) / 1000;
      expect(i + 1).toBeLessThanOrEqual(10 + 10 * elapsedS + 1e-9);
    });
    expect(h.engine.snapshot().counters.coalesced).toBeGreaterThan(0);
    expect(h.of('throttled').length).toBeGreaterThan(0);
    // Far fewer requests than quote changes: coalescing sent only the latest state per order.
    expect(reqs.length).toBeLessThan(60);
  });
});
