import { describe, expect, it } from 'vitest';
import { UndisplayedTally } from './undisplayed-prints.ts';
import { fidelityVerdicts, type Figures } from './verdict.ts';

const lv = (priceTicks: number, qty: number) => ({ priceTicks, qty });

describe('fidelity bench: prints where nothing was displayed', () => {
  it('counts a print inside the spread or in a gap, not one at a level, one just emptied at the same instant, or one beyond the depth', () => {
    const t = new UndisplayedTally();
    t.book(0, true, [lv(100, 5), lv(98, 5)], [lv(110, 5), lv(111, 5)]); // depth 2
    t.trade(1, 105, 7, true, 'hidden'); // inside the spread
    t.trade(1, 110, 3, true, undefined); // at the displayed best ask
    t.trade(1, 99, 4, false, 'hidden'); // the gap between 100 and 98 on the bids
    t.book(2, false, [], [lv(110, 0)]); // a frame empties 110 before its print (same instant)
    t.trade(2, 110, 5, true, undefined);
    t.trade(3, 113, 6, true, undefined); // one better ask shown (111) of a 2-level depth: within it, nothing at 113
    t.trade(3, 120, 8, false, 'cross'); // auction crosses are not counted
    expect(t.counts).toEqual({ shares: 25, markedHidden: 11, undisplayed: 17, undisplayedMarked: 11, beyondDepth: 0 });
    t.book(4, false, [], [lv(112, 5)]);
    t.trade(4, 115, 2, true, undefined); // 111 and 112 shown: 2 better levels, the recorded depth → beyond it
    expect(t.counts.beyondDepth).toBe(2);
  });
});

describe('fidelity bench: verdicts', () => {
  const exact: Figures = { fills: 10, volume: 1000, notionalUsd: 100_000, netUsd: 50 };
  const row = (model: string, volume: number, netUsd: number) => ({ day: 'AMZN', quoter: 'glft', model, figures: { ...exact, volume, netUsd }, exact });
  it('ranks models by cases within both targets and names each miss with its errors', () => {
    // 1,060 is +6 % (outside 5 %); 51 USD on 100k notional is +0.1 bps; 53 is +0.3 bps (outside 0.2)
    const lines = fidelityVerdicts([row('a', 1060, 51), row('b', 1040, 51), { ...row('b', 1000, 53), quoter: 'fixed-spread' }, { ...row('a', 990, 50), quoter: 'fixed-spread' }]);
    expect(lines).toEqual([
      '- b: within both targets in 1 of 2 day × quoter cases; worst |Δ volume| 4.0 %, worst |Δ net| 0.30 bps; misses AMZN fixed-spread (+0.0 %, +0.30 bps).',
      '- a: within both targets in 1 of 2 day × quoter cases; worst |Δ volume| 6.0 %, worst |Δ net| 0.10 bps; misses AMZN glft (+6.0 %, +0.10 bps).',
    ]);
  });
});
