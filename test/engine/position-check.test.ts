import { describe, expect, it } from 'vitest';
import type { AccountReader } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

describe('periodic position check', () => {
  it('recovers a fill the stream silently lost (no disconnect)', async () => {
    const s = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, { accounts: 'fake' });
    s.next = quotes(EURUSD, 11000, null, 2);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.gw.dropEvents = true;
    h.gw.fill({ orderId: h.gw.open()[0]!.orderId }, 2);
    h.gw.dropEvents = false;
    expect(h.engine.snapshot().symbols[0]!.position.qty).toBe(0);
    for (let i = 0; i < 40; i++) {
      h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
      await h.advance(1_000, 250);
    }
    expect(h.engine.snapshot().symbols[0]!.position.qty).toBe(2);
    expect(h.of('fill')).toEqual([expect.objectContaining({ recovered: true, qty: 2 })]);
    expect(h.of('position-mismatch')).toEqual([]);
  });

  it('reports a mismatch REST fills cannot explain, once', async () => {
    const s = new ScriptedStrategy();
    let venueQty = 0;
    const accounts: AccountReader = { fills: () => Promise.resolve([]), positions: () => Promise.resolve(new Map([[EURUSD, venueQty]])) };
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, { accounts });
    s.next = quotes(EURUSD, 11000, null, 1);
    venueQty = -3; // e.g. a liquidation the engine never saw as a fill
    for (let i = 0; i < 100; i++) {
      h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
      await h.advance(1_000, 500);
    }
    expect(h.of('position-mismatch')).toEqual([expect.objectContaining({ symbol: EURUSD, engine: 0, venue: -3 })]);
  });
});
