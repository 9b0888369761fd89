import { describe, expect, it } from 'vitest';
import type { Symbol } from '../../src/core/ids.ts';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { reportHtml } from '../../src/backtest/report-html.ts';
import { buildReport, fillsCsv } from '../../src/backtest/report.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { recordingHeader, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import type { OwnFill, RewardView, Strategy, StrategyContext, StrategyOutput } from '../../src/strategy/contract.ts';
import { testInstrument } from '../record/fixtures.ts';

/*
 * A two-symbol recording replayed through the real engine: a strategy quotes a tight ladder on the
 * perpetual and delta-hedges every fill there with an IOC on the second symbol, which the replay
 * exchange fills against the recorded book as taker. Two runs must be byte-identical.
 */

const A = testInstrument('XAU-PERP', '0.1', 1);
const B = testInstrument('XAU-2026-DEC', '0.1', 1);
const T0 = Date.UTC(2026, 10, 18, 10, 0, 0);

function recording(): RecordedEvent[] {
  const evs = [
    ...syntheticMarket({ instrument: A, seed: 3, events: 6_000, startMs: T0, midTicks: 40_000, levels: 5, meanGapMs: 5, tickerEveryMs: 1_000 }),
    ...syntheticMarket({ instrument: B, seed: 4, events: 3_000, startMs: T0, midTicks: 40_500, levels: 5, meanGapMs: 10, tickerEveryMs: 1_000 }),
  ];
  return evs.sort((x, y) => x.tsRecv - y.tsRecv);
}

/** Quotes A at the touch; hedges A's position on B; also asks to be woken at 7 ms past each second. */
class DeltaHedger implements Strategy {
  fills: OwnFill[] = [];
  wakes = 0;
  #nextWake = 0;
  quote(ctx: StrategyContext): StrategyOutput {
    this.fills.push(...ctx.fills);
    if (ctx.nowMs === this.#nextWake) this.wakes++;
    const b = ctx.view(B.symbol as Symbol);
    const bid = ctx.book?.bids[0]?.priceTicks;
    const ask = ctx.book?.asks[0]?.priceTicks;
    const hb = b.book?.bids[0]?.priceTicks;
    const ha = b.book?.asks[0]?.priceTicks;
    if (bid === undefined || ask === undefined || hb === undefined || ha === undefined) return null;
    const net = ctx.position.qty + b.position.qty;
    const working = b.workingOrders.length;
    const hedges = net === 0 || working > 0 ? [] : [{ symbol: B.symbol as Symbol, side: net > 0 ? ('sell' as const) : ('buy' as const), qty: Math.abs(net), limitTicks: net > 0 ? hb - 2 : ha + 2 }];
    this.#nextWake = Math.floor((ctx.nowMs - 7) / 1_000) * 1_000 + 1_007;
    return { quotes: [{ symbol: ctx.symbol, bids: [{ priceTicks: bid, qty: 2 }], asks: [{ priceTicks: ask, qty: 2 }] }], hedges, wakeAtMs: this.#nextWake };
  }
}

async function run() {
  const col = toColumnar(recordingHeader({ instruments: [A, B], startedAtMs: T0, source: 'test' }), [A, B], recording());
  const strategy = new DeltaHedger();
  const r = await runBacktest({
    data: col,
    strategies: [{ id: 'hedger', symbol: A.symbol, symbols: [A.symbol, B.symbol], strategy }],
    risk: DEFAULT_RISK_CONFIG,
    execution: DEFAULT_EXECUTION_CONFIG,
    orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    settings: defaultSettings({ orderLatency: { entry: 2, response: 2 } }),
    createEngine,
  });
  return { r, strategy };
}

describe('backtest of a multi-symbol strategy with hedges', () => {
  it('hedges fills on the second symbol as taker, keeps the net position small, wakes on virtual time, and is deterministic', async () => {
    const one = await run();
    const { r, strategy } = one;
    const makerA = r.fills.filter((f) => f.symbol === A.symbol && !f.aggressor);
    const takerB = r.fills.filter((f) => f.symbol === B.symbol && f.aggressor);
    expect(makerA.length).toBeGreaterThan(5);
    expect(takerB.length).toBeGreaterThan(0);
    expect(r.fills.filter((f) => f.symbol === B.symbol && !f.aggressor)).toEqual([]);
    expect(r.engine.counters.hedges).toBeGreaterThan(0);
    // Every taker fill on B belongs to a hedge the run reports (by client order id).
    const hedgeCids = new Set(r.hedges.filter((h) => h.sent).map((h) => h.clientOrderId));
    expect(r.hedges.filter((h) => h.sent)).toHaveLength(r.engine.counters.hedges);
    expect(takerB.every((f) => hedgeCids.has(f.clientOrderId))).toBe(true);
    const report = buildReport(r);
    // The report names every symbol of the strategy, not only its primary one.
    expect(report.strategies[0]!.symbols).toEqual([A.symbol, B.symbol]);
    // Several symbols: a section (table and markout curve) for each after the total's, and both price charts first.
    const html = reportHtml(r, report);
    expect([...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual(['Results', 'Total (all symbols; inventory and quoting of the primary symbol)', 'Run', A.symbol, B.symbol, 'Definitions']);
    expect([...html.matchAll(/aria-label="([^":]*):/g)].map((m) => m[1])).toEqual([A.symbol, A.symbol, B.symbol, B.symbol, 'Markout curve', A.symbol, B.symbol]);
    const rep = report.total.hedges;
    expect(rep).toMatchObject({ sent: r.engine.counters.hedges, fills: takerB.length, filled_qty: takerB.reduce((a, f) => a + f.qty, 0) });
    const fees = takerB.reduce((a, f) => a + f.fee.toNumber(), 0);
    expect(Number(rep.fees_usd)).toBeCloseTo(fees, 6);
    expect(Number(rep.cost_usd)).toBeGreaterThan(fees); // crossing the spread costs more than the fees alone
    // The strategy saw its own fills: maker on A, taker on B, as booked.
    expect(strategy.fills.filter((f) => f.symbol === A.symbol).every((f) => f.liquidity === 'maker')).toBe(true);
    expect(strategy.fills.filter((f) => f.symbol === B.symbol).every((f) => f.liquidity === 'taker')).toBe(true);
    expect(strategy.fills.filter((f) => f.symbol === B.symbol).reduce((a, f) => a + f.qty, 0)).toBe(takerB.reduce((a, f) => a + f.qty, 0));
    expect(strategy.wakes).toBeGreaterThan(0);
    const pos = new Map(r.engine.symbols.map((s) => [s.symbol as string, s.position.qty]));
    expect(Math.abs(pos.get(A.symbol)! + pos.get(B.symbol)!)).toBeLessThanOrEqual(4);
    const two = await run();
    expect(fillsCsv(two.r)).toBe(fillsCsv(r));
    expect(JSON.stringify(buildReport(two.r))).toBe(JSON.stringify(buildReport(r)));
  });
});

describe('ctx.rewards in backtests', () => {
  it('strategies see each minute\'s local reward-share estimate, the same the report sums', async () => {
    const evs = [...syntheticMarket({ instrument: A, seed: 8, events: 20_000, startMs: T0, midTicks: 40_000, levels: 5, meanGapMs: 10, tickerEveryMs: 1_000 })];
    const col = toColumnar(recordingHeader({ instruments: [A], startedAtMs: T0, source: 'test' }), [A], evs);
    const views: RewardView[] = [];
    let anchor: number | undefined;
    const strategy: Strategy = {
      quote(ctx) {
        if (ctx.rewards !== null && ctx.rewards !== views.at(-1)) views.push(ctx.rewards);
        // A ladder that stays put (orders must rest to score): 10 ticks around the first mid.
        const bid = ctx.book?.bids[0]?.priceTicks;
        if (bid === undefined) return null;
        anchor ??= bid;
        return { symbol: ctx.symbol, bids: [{ priceTicks: anchor - 10, qty: 1 }], asks: [{ priceTicks: anchor + 12, qty: 1 }] };
      },
    };
    const settings = defaultSettings({ orderLatency: { entry: 2, response: 2 } });
    const r = await runBacktest({ data: col, strategies: [{ id: 'q', symbol: A.symbol, strategy }], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG, settings, createEngine });
    const t = r.observer.times[0]!;
    expect(t.scoredMinutes).toBeGreaterThanOrEqual(2);
    expect(views.length).toBe(t.scoredMinutes);
    expect(views.reduce((a, v) => a + v.estimatedShare, 0)).toBeCloseTo(t.shareSum, 12);
    expect(views.some((v) => v.estimatedShare > 0)).toBe(true);
    expect(views[0]).toMatchObject({ maxSpreadBps: settings.rewards.maxSpreadBps, minNotionalUsd: settings.rewards.minNotionalUsd });
  });
});
