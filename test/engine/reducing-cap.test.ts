import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_CONFIG, type AccountReader } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, type Harness } from './harness.ts';

/*
 * Reducing mode and max_position through the engine (issue 35, item 2): a position of 4,700
 * against a cap of 3,000 (seeded from the venue, or booked from a fill the venue never made) is
 * worked down at most 3,000 at a time, by the ladder and by an operator flatten alike.
 */

const risk = { ...DEFAULT_RISK_CONFIG, defaults: { ...DEFAULT_RISK_CONFIG.defaults, maxPosition: 3000, maxOrderQty: 5000, maxOrderNotionalUsd: 1e9 } };

async function longOverTheCap(s: ScriptedStrategy): Promise<Harness> {
  let inner: AccountReader | null = null;
  const accounts: AccountReader = { fills: (f, t) => inner!.fills(f, t), positions: () => inner!.positions() };
  const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { risk }, {
    accounts,
    beforeStart: (gw) => {
      inner = gw.accountReader();
      gw.priorPositions.set(EURUSD, { qty: 4700, costBasis: null, realizedPnl: null, lastFillMs: null });
    },
  });
  h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs(), 10_000));
  await h.advance(100, 10);
  return h;
}

const workingSells = (h: Harness): number => h.gw.open().filter((o) => o.side === 'sell').reduce((n, o) => n + o.remainingQty, 0);

describe('REDUCING works at most max_position (issue 35, item 2)', () => {
  it('the ladder: five asks of 1,000 against a long of 4,700 put 3,000 to work, not 4,700', async () => {
    const s = new ScriptedStrategy();
    s.next = { symbol: EURUSD, bids: [{ priceTicks: 11000, qty: 1000 }], asks: [11010, 11011, 11012, 11013, 11014].map((p) => ({ priceTicks: p, qty: 1000 })) };
    const h = await longOverTheCap(s);
    expect(h.engine.snapshot().symbols[0]!.tradingState).toBe('REDUCING');
    // Old code: 4,700 (1,000 × 4 + 700); the bid is dropped (it grows the position).
    expect(workingSells(h)).toBe(3000);
    expect(h.gw.open().filter((o) => o.side === 'buy')).toEqual([]);
  });

  it('an operator flatten sends 3,000, not 4,700', async () => {
    const h = await longOverTheCap(new ScriptedStrategy());
    expect(h.engine.flatten(EURUSD)).toMatchObject({ sent: true, side: 'sell', qty: 3000, priceTicks: 11004 });
  });
});
