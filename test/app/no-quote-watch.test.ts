/** "Should quote but has no quotes for N s" (issue 35 #8): the watch, the console state and `mmbot status`. */
import { describe, expect, it } from 'vitest';
import { NoQuoteWatch } from '../../src/app/no-quote-watch.ts';
import { formatStatusTable, type StatusState } from '../../src/app/control/status-table.ts';
import { Decimal } from '../../src/core/decimal.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { EngineSnapshot, SymbolSnapshot, WorkingOrderView } from '../../src/engine/index.ts';

const sym = asSymbol('EURUSD-PERP');
const zero = new Decimal(0);
const pnl = { spreadCapture: zero, inventory: zero, fees: zero, funding: zero, rewards: zero, total: zero, realized: zero, unrealized: zero };
const resting = { clientOrderId: 'c1', orderId: 'o1', symbol: sym, side: 'buy', priceTicks: 100, qty: 1, filledQty: 0, status: 'open' } as unknown as WorkingOrderView;
const queued = { ...resting, orderId: null, status: 'queued' } as unknown as WorkingOrderView;

/** An ACTIVE, running engine with one symbol on a two-sided book and nothing working, unless overridden. */
function snap(nowMs: number, over: Partial<SymbolSnapshot> = {}, engine: Partial<EngineSnapshot> = {}): EngineSnapshot {
  const s = { symbol: sym, strategyId: 's', desired: { symbol: sym, bids: [], asks: [] }, working: [], position: { qty: 0, avgPrice: null, markTicks: null }, maxPosition: 10, pnl, tradingState: 'ACTIVE', tradingReason: '', instrumentState: 'OPEN', strategyError: null, lastMarketDataMs: nowMs, bestBidTicks: 114_000, bestAskTicks: 114_002, ...over } as unknown as SymbolSnapshot;
  return { nowMs, running: true, tradingState: 'ACTIVE', killSwitch: { tripped: false, reason: null, detail: null, sinceMs: null, action: null }, symbols: [s], pnl, ...engine } as unknown as EngineSnapshot;
}

describe('NoQuoteWatch (issue 35 #8)', () => {
  it('ACTIVE on a two-sided book with no order at the venue: counts from the first look, on the engine clock', () => {
    const w = new NoQuoteWatch();
    w.observe(snap(10_000));
    w.observe(snap(40_000));
    expect(w.forMs(sym, 40_000)).toBe(30_000);
    w.observe(snap(85_000, { working: [queued] })); // queued is not at the venue yet
    expect(w.forMs(sym, 85_000)).toBe(75_000);
    w.observe(snap(90_000, { working: [resting] }));
    expect(w.forMs(sym, 90_000)).toBe(0);
    w.observe(snap(95_000));
    expect(w.forMs(sym, 100_000)).toBe(5_000);
  });

  it.each([
    ['paused or halted', { tradingState: 'HALTED' }, {}],
    ['reducing (a flat position quotes nothing there)', { tradingState: 'REDUCING' }, {}],
    ['a one-sided book', { bestAskTicks: null }, {}],
    ['an isolated strategy', { strategyError: 'boom' }, {}],
    ['the kill switch', {}, { killSwitch: { tripped: true, reason: 'manual', detail: null, sinceMs: 0, action: 'pause' }, tradingState: 'HALTED' }],
    ['a stopped engine', {}, { running: false }],
  ] as const)('not counted under %s (and the clock restarts after)', (_what, over, engine) => {
    const w = new NoQuoteWatch();
    w.observe(snap(0));
    w.observe(snap(60_000, over as Partial<SymbolSnapshot>, engine as Partial<EngineSnapshot>));
    expect(w.forMs(sym, 60_000)).toBe(0);
    w.observe(snap(70_000));
    expect(w.forMs(sym, 80_000)).toBe(10_000);
  });
});

describe('mmbot status shows it (issue 35 #8)', () => {
  const state = (noQuotesForS: number | null): StatusState => ({
    running: true,
    killSwitch: { tripped: false, reason: null, detail: null },
    connections: { orders: true, 'market-data': true },
    strategies: [{ id: 'eurusd', strategy: 'fixed-spread', paused: false, operatorReason: '', error: null, params: {} }],
    symbols: [
      {
        symbol: 'EURUSD-PERP',
        strategyId: 'eurusd',
        bestBid: '1.14000',
        bestAsk: '1.14002',
        quotes: { bids: [], asks: [] },
        working: [],
        position: { qty: 0, avgPrice: null },
        pnl: { total: '0.00', fees: '0.00', funding: '0.00' },
        tradingState: 'ACTIVE',
        tradingReason: '',
        noQuotesForS,
      },
    ],
    pnl: { total: '0.00', fees: '0.00', funding: '0.00', rewards: '0.00' },
    counters: { fills: 0 },
    execution: { budgets: [] },
  });
  it('ACTIVE with no quotes for 75 s reads "ACTIVE, NO QUOTES for 75 s"; under 10 s (a requote) still "active"', () => {
    expect(formatStatusTable(state(75), 'u').split('\n')[2]).toMatch(/^eurusd\s+EURUSD-PERP\s+ACTIVE, NO QUOTES for 75 s\s+1\.14000 \/ 1\.14002\s+-\s+0\s+flat\s+0\.00$/);
    expect(formatStatusTable(state(9), 'u').split('\n')[2]).toMatch(/^eurusd\s+EURUSD-PERP\s+active\s/);
    expect(formatStatusTable(state(null), 'u').split('\n')[2]).toMatch(/^eurusd\s+EURUSD-PERP\s+active\s/);
  });
});

describe('the console state carries it (issue 35 #8)', () => {
  it('buildState feeds each snapshot to the watch and shows whole seconds per symbol', async () => {
    const { buildState } = await import('../../src/app/control/state.ts');
    const { ConsoleHistory } = await import('../../src/app/control/history.ts');
    const w = new NoQuoteWatch();
    let now = 1_000;
    const full = (): EngineSnapshot => snap(now, {}, { counters: { fills: 0, intentsSent: {}, rejects: {} }, execution: { queued: 0, inFlight: 0, slowedDown: false, budgets: [] } } as unknown as Partial<EngineSnapshot>);
    const engine = { snapshot: full, operatorStates: () => [] } as unknown as Parameters<typeof buildState>[0];
    const catalog = { get: () => undefined, all: () => [] } as unknown as Parameters<typeof buildState>[1];
    const feeds = {
      connections: new Map(),
      fundingRate: new Map(),
      rewardShare: new Map(),
      markouts: () => null,
      observeNoQuotes: (s: EngineSnapshot) => (w.observe(s), (symbol: string) => w.forMs(symbol, s.nowMs)),
    };
    const history = new ConsoleHistory(3_600_000, catalog);
    const look = (): unknown => (buildState(engine, catalog, [], feeds, history, { acting: false, readsRequireToken: false }) as { symbols: { noQuotesForS: unknown }[] }).symbols[0]!.noQuotesForS;
    expect(look()).toBe(0);
    now = 76_500;
    expect(look()).toBe(75);
  });
});
