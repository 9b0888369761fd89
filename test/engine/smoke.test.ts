import { describe, expect, it } from 'vitest';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

describe('engine smoke', () => {
  it('quotes what the strategy wants and pulls on stop', async () => {
    const s = new ScriptedStrategy();
    s.next = quotes(EURUSD, 11000, 11010, 2);
    const h = await harness([{ id: 's1', symbol: EURUSD, strategy: s }]);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    const open = h.gw.open();
    expect(open.map((o) => [o.side, o.priceTicks, o.qty]).sort()).toEqual([['buy', 11000, 2], ['sell', 11010, 2]]);
    const snap = h.engine.snapshot();
    expect(snap.symbols[0]!.working.every((w) => w.status === 'open')).toBe(true);
    const stopping = h.engine.stop({ timeoutMs: 2000 });
    await h.advance(500);
    const rep = await stopping;
    expect(rep.confirmed).toBe(true);
    expect(h.gw.open()).toEqual([]);
  });
});
