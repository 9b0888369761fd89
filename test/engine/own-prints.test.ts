import { describe, expect, it } from 'vitest';
import type { TradePrinted } from '../../src/domain/events.ts';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import type { StrategyContext } from '../../src/strategy/contract.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes } from './harness.ts';

/** Keeps every public trade the strategy is shown, as `qty@price`. */
class TradeReader extends ScriptedStrategy {
  readonly seen: string[] = [];
  override quote(ctx: StrategyContext): DesiredQuotes | null {
    for (const t of ctx.trades) this.seen.push(`${t.qty}@${t.priceTicks}`);
    return super.quote(ctx);
  }
}

const print = (priceTicks: number, qty: number, t: number): TradePrinted => ({ type: 'trade', symbol: EURUSD, priceTicks, qty, aggressor: 'sell', tsEvent: t, tsRecv: t });

/**
 * Live, the venue prints our own fills on the public trade stream; a replay's recorded stream never
 * had them. Strategies must read the same market in both, so live the prints of our fills go.
 */
describe('ctx.trades: our own prints are excluded live, as a replay never shows them', () => {
  async function run(live: boolean, printFirst: boolean): Promise<string[]> {
    const s = new TradeReader();
    s.next = quotes(EURUSD, 11_000, 11_010, 10);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { marketDataShowsOwnOrders: live });
    const t = h.clock.nowMs();
    h.market$.next(bookEv(EURUSD, 11_000, 11_010, t));
    await h.advance(100);
    const bid = [...h.gw.orders.values()].find((o) => o.side === 'buy')!;
    // A seller hits our bid for 10 and another order of 30 at the same price: the venue prints both.
    if (printFirst) {
      h.market$.next(print(11_000, 10, h.clock.nowMs()));
      h.gw.fill({ orderId: bid.orderId }, 10, 11_000);
    } else {
      h.gw.fill({ orderId: bid.orderId }, 10, 11_000);
      await h.settle();
      h.market$.next(print(11_000, 10, h.clock.nowMs()));
    }
    h.market$.next(print(11_000, 30, h.clock.nowMs()));
    // An unrelated print elsewhere, and later a print at our price that is not ours.
    h.market$.next(print(11_010, 7, h.clock.nowMs()));
    await h.advance(6_000);
    h.market$.next(print(11_000, 4, h.clock.nowMs()));
    await h.advance(1_000);
    // Live, a print at a price we rest at waits up to OWN_PRINT_HOLD_MS for our fill: order may change.
    return [...s.seen].sort();
  }

  it('live: the 10 of ours never reaches the strategy, whichever socket delivers first; the others’ prints do', async () => {
    expect(await run(true, false)).toEqual(['30@11000', '4@11000', '7@11010']);
    expect(await run(true, true)).toEqual(['30@11000', '4@11000', '7@11010']);
  });

  it('replay (the feed never shows our activity): every recorded print reaches the strategy', async () => {
    expect(await run(false, false)).toEqual(['10@11000', '30@11000', '4@11000', '7@11010']);
  });
});

describe('OwnPrints, unit', () => {
  it('a fill larger than a held print takes it whole and the rest off the next; a partly ours print keeps the others’ part', async () => {
    const { OwnPrints } = await import('../../src/engine/own-prints.ts');
    const own = new OwnPrints();
    const batch = [print(100, 5, 0), print(100, 8, 0)];
    const bid = [{ side: 'buy', priceTicks: 100 }] as never;
    own.settle(batch, bid, 0); // both hit our bid: held
    expect(batch).toEqual([]);
    own.onFill(100, 9, 1, []); // ours: all of the first, 4 of the second
    const later: TradePrinted[] = [];
    own.settle(later, [], 150);
    expect(later.map((t) => t.qty)).toEqual([4]);
    // A fill first, then a print of 25 at its price: 10 of it is ours.
    own.onFill(200, 10, 200, []);
    expect(own.othersPart(print(200, 25, 210), 210)?.qty).toBe(15);
    expect(own.othersPart(print(200, 25, 220), 220)?.qty).toBe(25);
  });
});
