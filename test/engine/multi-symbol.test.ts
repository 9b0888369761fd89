import { describe, expect, it } from 'vitest';
import type { Symbol } from '../../src/core/index.ts';
import type { TradePrinted } from '../../src/domain/index.ts';
import { DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import type { OwnFill, Strategy, StrategyContext, StrategyOutput } from '../../src/strategy/contract.ts';
import { EURUSD, XAU, bookEv, harness, quotes } from './harness.ts';

/** What a call saw, copied (the context is reused after the call). */
interface Seen {
  nowMs: number;
  symbols: readonly Symbol[];
  eurBid: number | null;
  xauBid: number | null;
  trades: number[];
  fills: OwnFill[];
}

/** A two-symbol strategy whose answer the test scripts per call. */
class PairStrategy implements Strategy {
  seen: Seen[] = [];
  answer: (ctx: StrategyContext) => StrategyOutput = () => null;
  quote(ctx: StrategyContext): StrategyOutput {
    const x = ctx.view(XAU);
    this.seen.push({
      nowMs: ctx.nowMs,
      symbols: ctx.symbols,
      eurBid: ctx.book?.bids[0]?.priceTicks ?? null,
      xauBid: x.book?.bids[0]?.priceTicks ?? null,
      trades: x.trades.map((t) => t.priceTicks),
      fills: [...ctx.fills],
    });
    return this.answer(ctx);
  }
}

const trade = (symbol: Symbol, priceTicks: number, t: number): TradePrinted => ({ type: 'trade', symbol, priceTicks, qty: 1, aggressor: 'buy', tsEvent: t, tsRecv: t });
const slowTicks = { orderManager: { ...DEFAULT_ORDER_MANAGER_CONFIG, minOrderLifetimeMs: 0, tickIntervalMs: 60_000 } };

describe('multi-symbol strategies', () => {
  it('sees every declared symbol, is called when any changes, and quotes each symbol of its plan', async () => {
    const s = new PairStrategy();
    const h = await harness([{ id: 'pair', symbol: EURUSD, symbols: [EURUSD, XAU], strategy: s }], slowTicks);
    s.answer = () => ({ quotes: [quotes(EURUSD, 11000, 11010), quotes(XAU, 19000, 19010, 2)] });
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    h.market$.next(bookEv(XAU, 19004, 19006, h.clock.nowMs()));
    await h.settle();
    expect(s.seen.at(-1)).toMatchObject({ symbols: [EURUSD, XAU], eurBid: 11004, xauBid: 19004 });
    const open = () => h.gw.open().map((o) => [o.symbol, o.side, o.priceTicks, o.qty]).sort();
    expect(open()).toEqual([
      [EURUSD, 'buy', 11000, 1],
      [EURUSD, 'sell', 11010, 1],
      [XAU, 'buy', 19000, 2],
      [XAU, 'sell', 19010, 2],
    ]);
    // A symbol the plan leaves out keeps its ladder.
    s.answer = () => ({ quotes: [quotes(XAU, 18990, 19020, 2)] });
    h.market$.next(bookEv(XAU, 19000, 19008, h.clock.nowMs()));
    await h.settle();
    expect(open()).toEqual([
      [EURUSD, 'buy', 11000, 1],
      [EURUSD, 'sell', 11010, 1],
      [XAU, 'buy', 18990, 2],
      [XAU, 'sell', 19020, 2],
    ]);
    // Trades since the previous call, every one of them, oldest first.
    s.answer = () => null;
    const calls = s.seen.length;
    h.market$.next(trade(XAU, 19001, h.clock.nowMs()));
    h.market$.next(trade(XAU, 19002, h.clock.nowMs()));
    await h.settle();
    expect(s.seen.slice(calls).flatMap((x) => x.trades)).toEqual([19001, 19002]);
    expect(h.engine.snapshot().symbols.map((x) => [x.symbol, x.strategyId])).toEqual([
      [EURUSD, 'pair'],
      [XAU, 'pair'],
    ]);
  });

  it('refuses a symbol owned twice, a primary not listed first, and a plan quoting an undeclared symbol', async () => {
    const s = new PairStrategy();
    await expect(harness([{ id: 'a', symbol: EURUSD, symbols: [EURUSD, XAU], strategy: s }, { id: 'b', symbol: XAU, strategy: s }])).rejects.toThrow(/XAU-PERP already belongs to strategy a/);
    await expect(harness([{ id: 'a', symbol: EURUSD, symbols: [XAU, EURUSD], strategy: s }])).rejects.toThrow(/primary symbol EURUSD-PERP first/);
    const h = await harness([{ id: 'solo', symbol: EURUSD, strategy: { quote: () => ({ quotes: [quotes(XAU, 19000, 19010)] }) } }], slowTicks);
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    expect(h.of('strategy-error')).toEqual([expect.objectContaining({ strategyId: 'solo', message: expect.stringContaining('quotes for XAU-PERP, which it does not declare') })]);
    expect(h.gw.placed).toEqual([]);
    // Asking for the view of an undeclared symbol is the same kind of bug.
    const h2 = await harness([{ id: 'peek', symbol: EURUSD, strategy: s }], slowTicks);
    h2.market$.next(bookEv(EURUSD, 11004, 11006, h2.clock.nowMs()));
    await h2.settle();
    expect(h2.of('strategy-error')).toEqual([expect.objectContaining({ message: 'strategy peek asked for XAU-PERP, which it does not declare' })]);
  });

  it('sends hedges as IOC (not post-only) through the risk gate, keeps them out of the ladder, and reports each', async () => {
    const s = new PairStrategy();
    const risk = { ...DEFAULT_RISK_CONFIG, defaults: { ...DEFAULT_RISK_CONFIG.defaults, maxOrderQty: 5 } };
    const h = await harness([{ id: 'pair', symbol: EURUSD, symbols: [EURUSD, XAU], strategy: s }], { ...slowTicks, risk });
    h.gw.autoAck = true;
    let hedges = [{ symbol: XAU, side: 'sell' as const, qty: 3, limitTicks: 18990 }, { symbol: XAU, side: 'sell' as const, qty: 9, limitTicks: 18990 }];
    s.answer = () => {
      const out = { quotes: [quotes(EURUSD, 11000, 11010)], hedges };
      hedges = [];
      return out;
    };
    h.market$.next(bookEv(XAU, 19004, 19006, h.clock.nowMs()));
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    await h.settle();
    const hedgePlace = h.gw.placed.filter((p) => p.symbol === XAU);
    expect(hedgePlace).toEqual([expect.objectContaining({ side: 'sell', qty: 3, priceTicks: 18990, tif: 'IOC', postOnly: false })]);
    expect(h.gw.placed.filter((p) => p.symbol === EURUSD).every((p) => p.postOnly && p.tif === 'GTC')).toBe(true);
    const ev = h.of('hedge');
    expect(ev).toEqual([
      expect.objectContaining({ strategyId: 'pair', symbol: XAU, qty: 3, sent: true, clientOrderId: hedgePlace[0]!.clientOrderId, reason: null }),
      expect.objectContaining({ qty: 9, sent: false, clientOrderId: null, reason: 'max-order-qty' }),
    ]);
    expect(h.of('reject')).toEqual([expect.objectContaining({ source: 'risk', symbol: XAU, reason: 'max-order-qty' })]);
    expect(h.engine.snapshot().counters.hedges).toBe(1);
    // The XAU ladder is empty, yet the resting hedge is not cancelled by the quote diff.
    h.market$.next(bookEv(XAU, 19003, 19006, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.calls('cancel')).toEqual([]);
    // Its fill (taker) counts in the position and reaches the strategy once, at its next call.
    h.gw.fill({ clientOrderId: hedgePlace[0]!.clientOrderId }, 3, 18995, true);
    await h.settle();
    const xau = h.engine.snapshot().symbols.find((x) => x.symbol === XAU)!;
    expect(xau.position.qty).toBe(-3);
    h.market$.next(bookEv(XAU, 19002, 19006, h.clock.nowMs()));
    await h.settle();
    const fills = s.seen.flatMap((x) => x.fills);
    expect(fills).toEqual([{ symbol: XAU, side: 'sell', priceTicks: 18995, qty: 3, liquidity: 'taker', tsMs: h.clock.nowMs(), clientOrderId: hedgePlace[0]!.clientOrderId }]);
  });

  it('ctx.fills carries maker fills of ladder orders on every declared symbol', async () => {
    const s = new PairStrategy();
    const h = await harness([{ id: 'pair', symbol: EURUSD, symbols: [EURUSD, XAU], strategy: s }], slowTicks);
    h.gw.autoAck = true;
    s.answer = () => ({ quotes: [quotes(EURUSD, 11000, 11010), quotes(XAU, 19000, 19010)] });
    h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
    h.market$.next(bookEv(XAU, 19004, 19006, h.clock.nowMs()));
    await h.settle();
    const bid = h.gw.open().find((o) => o.symbol === XAU && o.side === 'buy')!;
    const ask = h.gw.open().find((o) => o.symbol === EURUSD && o.side === 'sell')!;
    h.gw.fill({ orderId: bid.orderId }, 1);
    h.gw.fill({ orderId: ask.orderId }, 1);
    await h.settle();
    const got = s.seen.flatMap((x) => x.fills).map((f) => [f.symbol, f.side, f.priceTicks, f.liquidity]);
    expect(got).toEqual([
      [XAU, 'buy', 19000, 'maker'],
      [EURUSD, 'sell', 11010, 'maker'],
    ]);
  });

  it('wakes the strategy at wakeAtMs on the engine clock; the latest plan replaces the timer', async () => {
    const s = new PairStrategy();
    const h = await harness([{ id: 'pair', symbol: EURUSD, symbols: [EURUSD, XAU], strategy: s }], slowTicks);
    const t0 = h.clock.nowMs();
    let wake: number | undefined = t0 + 500;
    s.answer = () => (wake === undefined ? { quotes: [] } : { quotes: [], wakeAtMs: wake });
    h.market$.next(bookEv(EURUSD, 11004, 11006, t0));
    await h.settle();
    const n0 = s.seen.length;
    // A later plan moves the timer to +300: it fires then, not at +500.
    wake = t0 + 300;
    h.market$.next(bookEv(EURUSD, 11003, 11006, t0));
    await h.settle();
    wake = t0 + 1_000;
    await h.advance(299, 1);
    expect(s.seen.length).toBe(n0 + 1);
    await h.advance(1, 1);
    expect(s.seen.map((x) => x.nowMs).slice(n0 + 1)).toEqual([t0 + 300]);
    // That call armed +1000; a plan without wakeAtMs cancels it.
    await h.advance(500, 10);
    wake = undefined;
    h.market$.next(bookEv(EURUSD, 11002, 11006, h.clock.nowMs()));
    await h.settle();
    const n1 = s.seen.length;
    await h.advance(2_000, 50);
    expect(s.seen.length).toBe(n1);
  });
});

describe('outside prices', () => {
  it('index and reference prices reach ctx.indexTicks and ctx.references of their symbol, and re-evaluate the strategy', async () => {
    const seen: { index: number | null; xauIndex: number | null; ref: number | null; mark: number | null }[] = [];
    const strategy: Strategy = {
      quote(ctx) {
        seen.push({ index: ctx.indexTicks, xauIndex: ctx.view(XAU).indexTicks, ref: ctx.view(XAU).references.get('lmax')?.priceTicks ?? null, mark: ctx.markTicks });
        return null;
      },
    };
    const h = await harness([{ id: 'pair', symbol: EURUSD, symbols: [EURUSD, XAU], strategy }], slowTicks);
    const t = h.clock.nowMs();
    h.market$.next({ type: 'price', symbol: XAU, source: 'index', priceTicks: 19000.5, tsEvent: t, tsRecv: t });
    h.market$.next({ type: 'price', symbol: XAU, source: 'lmax', priceTicks: 19001.25, tsEvent: t, tsRecv: t });
    h.market$.next({ type: 'price', symbol: EURUSD, source: 'index', priceTicks: 11005, tsEvent: t, tsRecv: t });
    await h.settle();
    expect(seen.slice(-3)).toEqual([
      { index: null, xauIndex: 19000.5, ref: null, mark: null },
      { index: null, xauIndex: 19000.5, ref: 19001.25, mark: null },
      { index: 11005, xauIndex: 19000.5, ref: 19001.25, mark: null },
    ]);
  });
});
