import { describe, expect, it } from 'vitest';
import { asSymbol, Decimal, MmError } from '../../src/core/index.ts';
import { TickGrid, type Book, type Instrument } from '../../src/domain/index.ts';
import { buildContext, builtinStrategies, inventorySizeMultipliers, loadStrategy, microprice, parseStrategyParams, type PositionView, type StrategyContext } from '../../src/strategy/index.ts';
import { strategy as fixedSpread } from '../../strategies/fixed-spread/index.ts';

const S = asSymbol('EURUSD-PERP');
const inst = { symbol: S, grid: new TickGrid('0.0001'), multiplier: new Decimal(1), minOrderSize: 1 } as unknown as Instrument;
const pos = (qty: number): PositionView => ({ qty, avgPriceTicks: null, realizedPnl: new Decimal(0), unrealizedPnl: new Decimal(0), fees: new Decimal(0), funding: new Decimal(0) });
const book = (bid: number, ask: number, bq = 10, aq = 10): Book => ({ symbol: S, bids: [{ priceTicks: bid, qty: bq }], asks: [{ priceTicks: ask, qty: aq }], tsEvent: 0, tsRecv: 0 });
const ctx = (b: Book | null, q = 0): StrategyContext => buildContext({ symbol: S, instrument: inst, book: b, position: pos(q) });
const make = (raw: unknown) => fixedSpread.create(parseStrategyParams(fixedSpread, raw));

describe('fixed-spread', () => {
  it('quotes floor(mid − h) / ceil(mid + h) with spacing, in ticks', () => {
    const q = make({ levels: 3, halfSpreadTicks: 2, spacingTicks: 2, size: 4 }).quote(ctx(book(11000, 11003)));
    // mid 11001.5 → bid floor(10999.5) = 10999, ask ceil(11003.5) = 11004
    expect(q).toEqual({
      symbol: S,
      bids: [{ priceTicks: 10999, qty: 4 }, { priceTicks: 10997, qty: 4 }, { priceTicks: 10995, qty: 4 }],
      asks: [{ priceTicks: 11004, qty: 4 }, { priceTicks: 11006, qty: 4 }, { priceTicks: 11008, qty: 4 }],
    });
  });

  it('takes half-spread and spacing in bps of the mid', () => {
    // mid 11001 ticks; 10 bps of it = 11.001 ticks; spacing 5 bps = 5.5 → 6 ticks
    const q = make({ levels: 2, halfSpreadBps: 10, spacingBps: 5 }).quote(ctx(book(11000, 11002)))!;
    expect('bids' in q && q.bids.map((l) => l.priceTicks)).toEqual([10989, 10983]);
    expect('asks' in q && q.asks.map((l) => l.priceTicks)).toEqual([11013, 11019]);
  });

  it('skews sizes with inventory (HB-style multipliers) and caps position', () => {
    const s = make({ levels: 1, size: 10, skewRangeContracts: 20, maxPosition: 25 });
    expect(s.quote(ctx(book(100, 104), 10))).toMatchObject({ bids: [{ qty: 5 }], asks: [{ qty: 15 }] });
    expect(s.quote(ctx(book(100, 104), -20))).toMatchObject({ bids: [{ qty: 20 }], asks: [] });
    expect(s.quote(ctx(book(100, 104), 20))).toMatchObject({ bids: [], asks: [{ qty: 20 }] });
    expect(inventorySizeMultipliers(0, 10)).toEqual({ bid: 1, ask: 1 });
  });

  it('pulls quotes without a two-sided book; uses the microprice when asked', () => {
    expect(make({}).quote(ctx(null))).toEqual({ symbol: S, bids: [], asks: [] });
    expect(microprice(book(100, 110, 30, 10))).toBe(107.5);
    const q = make({ fairValue: 'microprice', halfSpreadTicks: 1 }).quote(ctx(book(100, 110, 30, 10)));
    expect(q).toMatchObject({ bids: [{ priceTicks: 106 }], asks: [{ priceTicks: 109 }] });
  });

  it('never crosses itself even with a tiny half-spread', () => {
    const q = make({ halfSpreadTicks: 0.1 }).quote(ctx(book(100, 101)));
    expect(q).toMatchObject({ bids: [{ priceTicks: 100 }], asks: [{ priceTicks: 101 }] });
  });

  it('rejects bad parameters with the path named', () => {
    expect(() => parseStrategyParams(fixedSpread, { levels: 0 })).toThrow(/fixed-spread\.levels/);
    expect(() => parseStrategyParams(fixedSpread, { halfSpreadTicks: 1, halfSpreadBps: 1 })).toThrow(/not both/);
    expect(() => parseStrategyParams(fixedSpread, { sizee: 1 })).toThrow(MmError);
  });
});

describe('loadStrategy', () => {
  it('loads built-ins by name', async () => {
    expect(builtinStrategies.map((b) => b.name)).toContain('fixed-spread');
    const def = await loadStrategy('fixed-spread');
    expect(def.name).toBe('fixed-spread');
  });

  it('loads a module path (default export)', async () => {
    const def = await loadStrategy('test/strategy/fixtures/custom-strategy.ts');
    const s = def.create(parseStrategyParams(def, { bid: 7 }));
    expect(s.quote(ctx(null))).toEqual({ symbol: S, bids: [{ priceTicks: 7, qty: 1 }], asks: [] });
  });

  it('names what is wrong for unknown names, missing files and non-strategies', async () => {
    await expect(loadStrategy('nope')).rejects.toThrow(/unknown strategy "nope".*fixed-spread/);
    await expect(loadStrategy('./does/not/exist.ts')).rejects.toMatchObject({ code: 'STRATEGY_INVALID' });
    await expect(loadStrategy('test/strategy/fixtures/not-a-strategy.ts')).rejects.toThrow(/no default export or `strategy` export/);
  });
});
