import { describe, expect, it } from 'vitest';
import { formatStatusLine } from '../../../src/app/live/status-line.ts';
import { Decimal } from '../../../src/core/decimal.ts';
import { asSymbol } from '../../../src/core/ids.ts';
import { instrumentCatalog, type Instrument } from '../../../src/domain/instrument.ts';
import { TickGrid } from '../../../src/domain/tick-grid.ts';
import type { EngineSnapshot, PnlBreakdown, SymbolSnapshot } from '../../../src/engine/index.ts';

const sym = asSymbol('EURUSD-PERP');
const catalog = instrumentCatalog([{ symbol: sym, grid: new TickGrid('0.0001') } as unknown as Instrument]);
const d = (v: string): Decimal => new Decimal(v);
const pnl = (total: string, fees = '0', funding = '0'): PnlBreakdown => ({
  spreadCapture: d('0'),
  inventory: d('0'),
  fees: d(fees),
  funding: d(funding),
  rewards: d('0'),
  total: d(total),
  realized: d('0'),
  unrealized: d('0'),
});

function snapshot(s: Partial<SymbolSnapshot>, extra: Partial<EngineSnapshot> = {}): EngineSnapshot {
  const symbol: SymbolSnapshot = {
    symbol: sym,
    strategyId: 'eurusd',
    desired: null,
    working: [],
    position: { qty: 0, avgPrice: null, costBasis: d('0'), markTicks: null },
    maxPosition: 100,
    pnl: pnl('0'),
    tradingState: 'ACTIVE',
    tradingReason: '',
    marketDataSuspect: null,
    instrumentState: 'OPEN',
    strategyError: null,
    lastMarketDataMs: null,
    bestBidTicks: null,
    bestAskTicks: null,
    ...s,
  };
  const zero = { place: 0, replace: 0, cancel: 0, 'cancel-all': 0 };
  return {
    nowMs: 0,
    running: true,
    tradingState: 'ACTIVE',
    killSwitch: { tripped: false, reason: null, detail: null, sinceMs: null, action: null },
    orderBudget: { lastMinute: 0, today: 0, perMinute: 0, perDay: 0 },
    symbols: [symbol],
    pnl: symbol.pnl,
    counters: { intentsSent: { ...zero, place: 4, replace: 2, cancel: 1 }, fills: 3, rejects: { venue: 1, risk: 0, gateway: 0 } } as unknown as EngineSnapshot['counters'],
    execution: { queued: 0, inFlight: 0, slowedDown: false, budgets: [] },
    ...extra,
  };
}

describe('formatStatusLine', () => {
  it('shows best quotes as prices, levels, working orders, position, PnL and fills', () => {
    const line = formatStatusLine(
      snapshot({
        desired: { symbol: sym, bids: [{ priceTicks: 11401, qty: 100 }, { priceTicks: 11400, qty: 100 }], asks: [{ priceTicks: 11403, qty: 100 }] },
        working: [{}, {}, {}] as unknown as SymbolSnapshot['working'],
        position: { qty: -200, avgPrice: d('1.14025'), costBasis: d('-228.05'), markTicks: 11402 },
        pnl: pnl('1.5', '-0.02'),
      }),
      catalog,
    );
    expect(line).toBe(
      'EURUSD-PERP 100@1.1401 / 100@1.1403 (2x1 lvls, 3 working) pos -200@1.1403 | fills 3 pnl +1.50 USD (fees -0.02) | sent 4p/2r/1c rejects 1', // one symbol: its PnL is the total, printed once
    );
  });

  it('shows funding beside fees once some was booked', () => {
    const line = formatStatusLine(snapshot({ pnl: pnl('-1.25', '-0.05', '-1.2') }), catalog);
    expect(line).toContain('pnl -1.25 USD (fees -0.05, funding -1.20)');
  });

  it('says when there are no quotes and flags a non-active state and a tripped kill switch', () => {
    const line = formatStatusLine(
      snapshot(
        { tradingState: 'HALTED', tradingReason: 'kill switch' },
        { killSwitch: { tripped: true, reason: 'max-drawdown' as never, detail: 'drawdown 600 > 500', sinceMs: 1, action: 'pause' } },
      ),
      catalog,
    );
    expect(line).toContain('EURUSD-PERP no quotes (0 working) pos flat HALTED(kill switch)');
    expect(line).toMatch(/KILL SWITCH: max-drawdown drawdown 600 > 500$/);
  });

  it('after stop shows "stopped" and the working count instead of the last desired quotes', () => {
    const desired = { symbol: sym, bids: [{ priceTicks: 11401, qty: 100 }], asks: [{ priceTicks: 11403, qty: 100 }] };
    const line = formatStatusLine(snapshot({ desired, position: { qty: 100, avgPrice: d('1.14'), costBasis: d('114'), markTicks: 11402 } }, { running: false }), catalog);
    expect(line).toMatch(/^EURUSD-PERP stopped \(0 working\) pos \+100@1\.1400 \| fills 3/);
    expect(line).not.toContain('1.1401');
    const unconfirmed = formatStatusLine(snapshot({ desired, working: [{}] as unknown as SymbolSnapshot['working'] }, { running: false }), catalog);
    expect(unconfirmed).toContain('EURUSD-PERP stopped (1 working) pos flat');
  });
});
