/** The report says how much of our fill volume came from book crossings rather than prints. */
import { describe, expect, it } from 'vitest';
import { asSymbol } from '../../src/core/ids.ts';
import type { BookUpdated, TradePrinted } from '../../src/domain/events.ts';
import { DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { recordingHeader, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import { buildReport } from '../../src/backtest/report.ts';
import { reportHtml } from '../../src/backtest/report-html.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { testInstrument } from '../record/fixtures.ts';
import { oneRestingOrder } from './scripted-engine.ts';

const S = asSymbol('EURUSD-PERP');
const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

const book = (t: number, bids: [number, number][], asks: [number, number][], snapshot = false): BookUpdated => ({
  type: 'book', symbol: S, level: 2, isSnapshot: snapshot, bids: bids.map(([p, q]) => ({ priceTicks: p, qty: q })), asks: asks.map(([p, q]) => ({ priceTicks: p, qty: q })), tsEvent: t, tsRecv: t + 1,
});
const trade = (t: number, p: number, q: number, aggressor: 'buy' | 'sell'): TradePrinted => ({ type: 'trade', symbol: S, priceTicks: p, qty: q, aggressor, tsEvent: t, tsRecv: t + 1 });

describe('report: fill volume from book crossings', () => {
  it('30 contracts by a print through our bid, 25 by an ask crossing it: cross_volume 25 of 55', async () => {
    const events: RecordedEvent[] = [
      book(T0, [[11378, 500]], [[11382, 500]], true),
      trade(T0 + 1_000, 11378, 30, 'sell'), // a sell printed through our bid: it met us first
      book(T0 + 2_000, [], [[11382, 0], [11379, 25]]), // an ask of 25 at our price: the book crosses us
      book(T0 + 3_000, [], [[11379, 0], [11382, 500]]),
      book(T0 + 10_000, [[11378, 500]], []),
    ];
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 'test' }), [inst], events);
    const run = await runBacktest({
      data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
      settings: defaultSettings({ orderLatency: { entry: 2, response: 2 } }), createEngine: oneRestingOrder(S, 'buy', 11379, 100),
    });
    expect(run.fills.map((f) => [f.qty, f.source])).toEqual([[30, 'print'], [25, 'cross']]);
    const r = buildReport(run);
    expect(r.total.fills).toMatchObject({ volume: 55, market_volume: 30, cross_volume: 25, cross_share: 0.454545 });
    expect(r.by_symbol[S]!.fills).toMatchObject({ cross_volume: 25, cross_share: 0.454545 });
    expect(reportHtml(run, r)).toContain('<th>volume from book crossings, not prints (contracts / share)</th><td>25 / 0.454545</td>');
  });
});
