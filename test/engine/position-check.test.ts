import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import type { VenuePosition } from '../../src/domain/index.ts';
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

  it('corrects a mismatch REST fills cannot explain within one check interval, reporting both figures once', async () => {
    const s = new ScriptedStrategy();
    let venue: VenuePosition = { qty: 0, costBasis: new Decimal(0), realizedPnl: new Decimal('4'), lastFillMs: null };
    const accounts: AccountReader = { fills: () => Promise.resolve([]), positions: () => Promise.resolve(new Map([[EURUSD, venue]])) };
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, { accounts });
    s.next = quotes(EURUSD, 11000, null, 1);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.advance(1_000, 500);
    // A liquidation the engine never saw as a fill: short 3 at 1.1000, realized −0.5 on the venue.
    venue = { qty: -3, costBasis: new Decimal('-3.3'), realizedPnl: new Decimal('3.5'), lastFillMs: h.clock.nowMs() };
    // Within one check interval (30 s) plus the 2 s the check lets the stream settle before re-reading.
    for (let i = 0; i < 32; i++) {
      h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
      await h.advance(1_000, 500);
    }
    expect(h.of('position-mismatch')).toEqual([expect.objectContaining({ symbol: EURUSD, engine: 0, venue: -3, corrected: -3 })]);
    const snap = h.engine.snapshot().symbols[0]!;
    expect(snap.position.qty).toBe(-3);
    expect(snap.position.costBasis.toFixed()).toBe('-3.3');
    expect(snap.pnl.realized.toFixed()).toBe('-0.5');
    // Agreeing from then on: no further report.
    for (let i = 0; i < 70; i++) {
      h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
      await h.advance(1_000, 500);
    }
    expect(h.of('position-mismatch')).toHaveLength(1);
  });

  it('keeps our fills booked after the venue read when correcting (re-applied on the venue figure)', async () => {
    const s = new ScriptedStrategy();
    let venue: VenuePosition = { qty: 0, costBasis: new Decimal(0), realizedPnl: new Decimal('10'), lastFillMs: null };
    const accounts: AccountReader = { fills: () => Promise.resolve([]), positions: () => Promise.resolve(new Map([[EURUSD, venue]])) };
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, { accounts });
    await h.advance(1_000, 500);
    // The venue's figure is as of its last fill at T1 (a liquidation: short 3 at 1.1000, +0.5 realized) ...
    venue = { qty: -3, costBasis: new Decimal('-3.3'), realizedPnl: new Decimal('10.5'), lastFillMs: h.clock.nowMs() };
    await h.advance(1_000, 500);
    // ... and we bought 2 @ 1.1004 after it, which that figure does not include.
    s.next = quotes(EURUSD, 11004, null, 2);
    h.market$.next(bookEv(EURUSD, 11003, 11006, h.clock.nowMs()));
    await h.settle();
    h.gw.fill({ orderId: h.gw.open()[0]!.orderId }, 2);
    s.next = null;
    for (let i = 0; i < 31; i++) {
      h.market$.next(bookEv(EURUSD, 11003, 11006, h.clock.nowMs()));
      await h.advance(1_000, 500);
    }
    expect(h.of('position-mismatch')).toEqual([expect.objectContaining({ engine: 0, venue: -3, corrected: -1 })]);
    const snap = h.engine.snapshot().symbols[0]!;
    expect(snap.position.qty).toBe(-1);
    // 0.5 from the venue, then closing 2 of the short at 1.1004 against 1.1000: −0.0008.
    expect(snap.pnl.realized.toFixed()).toBe('0.4992');
    expect(snap.position.avgPrice!.toFixed()).toBe('1.1');
  });
});
