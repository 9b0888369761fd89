import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import type { BookUpdated, MarketEvent } from '../../src/domain/events.ts';
import { DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG, type Engine, type EngineDeps } from '../../src/engine/index.ts';
import { recordingHeader, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import { buildReport, equityStats, fillsCsv } from '../../src/backtest/report.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings, type BacktestSettings } from '../../src/backtest/settings.ts';
import { testInstrument } from '../record/fixtures.ts';

const S = asSymbol('EURUSD-PERP');
const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
const T0 = Date.UTC(2026, 10, 20, 15, 59, 0); // a Friday, 15:59 UTC = 15:59 London (GMT): funding at 16:00

const book = (t: number, bid: number, ask: number, snapshot = false): BookUpdated => ({
  type: 'book', symbol: S, level: 2, isSnapshot: snapshot, bids: [{ priceTicks: bid, qty: 100 }], asks: [{ priceTicks: ask, qty: 100 }], tsEvent: t, tsRecv: t + 3,
});

/** A scripted engine: buys `qty` with one IOC on the first book it sees, records what it was sent. */
function scripted(qty: number, seen: MarketEvent[]) {
  return (deps: EngineDeps): Engine => {
    const subs = new Subscription();
    let sent = false;
    return {
      start(inputs) {
        subs.add(
          inputs.market$.subscribe((ev) => {
            seen.push(ev);
            if (ev.type === 'book' && !sent && ev.asks[0]) {
              sent = true;
              void deps.gateway.place({ kind: 'place', symbol: S, side: 'buy', priceTicks: ev.asks[0].priceTicks, qty, tif: 'IOC', postOnly: false, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(1), tag: null });
            }
          }),
        );
      },
      async stop() {
        subs.unsubscribe();
        return { cancelRequested: 0, confirmed: true, remaining: [], durationMs: 0 };
      },
      snapshot: () => ({ counters: { fills: 0, intentsSent: {}, rejects: {}, killSwitchTrips: 0, killSwitchEpisodes: [], rejectsByReason: {}, strategyErrors: 0 } }) as never,
      events$: new Subscription() as never,
      setTradingState: () => undefined,
      tripKillSwitch: () => undefined,
      resetKillSwitch: () => undefined,
    };
  };
}

async function replay(events: RecordedEvent[], settings: Partial<BacktestSettings> = {}, qty = 10) {
  const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 'test' }), [inst], events);
  const seen: MarketEvent[] = [];
  const run = await runBacktest({
    data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    settings: defaultSettings({ orderLatency: { entry: 2, response: 2 }, ...settings }), createEngine: scripted(qty, seen),
  });
  return { run, seen };
}

describe('backtest runner', () => {
  it('the bot sees each event at its receive time; the order reaches the exchange after the entry latency', async () => {
    const { run, seen } = await replay([book(T0, 11380, 11382, true), book(T0 + 10, 11381, 11382), book(T0 + 20, 11381, 11383)]);
    expect(seen.map((e) => e.tsRecv)).toEqual([T0 + 3, T0 + 13, T0 + 23]);
    expect(run.fills).toHaveLength(1);
    const f = run.fills[0]!;
    expect(f.tsExchange).toBe(T0 + 5); // sent at T0+3 (local), +2 entry
    expect(f.tsLocal).toBe(T0 + 7); // +2 response
    expect([f.priceTicks, f.qty, f.aggressor]).toEqual([11382, 10, true]);
    // No fee config and no account rates in the recording: the venue's tier-1 schedule (taker 0.25%).
    expect(run.fees).toEqual({ 'EURUSD-PERP': { maker: 0.0002, taker: 0.0025, source: 'venue-default' } });
    expect(f.fee.toNumber()).toBeCloseTo(1.1382 * 10 * 0.0025);
    expect(fillsCsv(run).split('\n')[1]).toMatch(/^\d+\.000,\d+\.000,EURUSD-PERP,buy,1\.1382,10,taker,0\.02845500,1\.13810,10,O-/);
  });

  it('a feed_multiple entry latency reads the feed latency of the row the order was sent on', async () => {
    const { run } = await replay([book(T0, 11380, 11382, true), book(T0 + 10, 11381, 11382), book(T0 + 20, 11381, 11383)], {
      orderLatency: { entry: { feed_multiple: { multiplier: 1, offset_ms: 1 } }, response: 2 },
    });
    // Sent at T0+3 on a book received 3 ms after its venue time: entry 1 × 3 + 1 = 4 ms.
    expect(run.fills.map((f) => [f.tsExchange, f.tsLocal])).toEqual([[T0 + 7, T0 + 9]]);
  });

  it('settles recorded funding on the position held at the settlement (longs pay a positive amount)', async () => {
    const funding: RecordedEvent = {
      type: 'funding', tsEvent: T0 + 100, tsRecv: T0 + 101,
      settlement: { symbol: S, rate: new Decimal('0.0001'), amount: new Decimal('0.0002'), benchmarkPrice: new Decimal('1.1381'), settlementPrice: new Decimal('1.1383'), tsEvent: T0 + 100 },
    };
    const { run } = await replay([book(T0, 11380, 11382, true), book(T0 + 50, 11380, 11383), funding, book(T0 + 200, 11380, 11383)]);
    expect(run.exchange.ledgers[0]!.position).toBe(10);
    expect(run.exchange.ledgers[0]!.funding.toNumber()).toBeCloseTo(-10 * 0.0002);
    const r = buildReport(run);
    expect(r.total.pnl.funding).toBe('-0.002000');
    expect(r.total.funding_settlements).toBe(1);
  });

  it('charges a recorded settlement on the position held at its instant, even when the poll that recorded it came later', async () => {
    // The recorder learns of settlements by polling: this one happened at T0+1 (before our buy
    // reaches the exchange at T0+5) but was received at T0+1000 (after it).
    const funding: RecordedEvent = {
      type: 'funding', tsEvent: T0 + 1, tsRecv: T0 + 1000,
      settlement: { symbol: S, rate: new Decimal('0.0001'), amount: new Decimal('0.0002'), benchmarkPrice: new Decimal('1.1381'), settlementPrice: new Decimal('1.1383'), tsEvent: T0 + 1 },
    };
    const { run, seen } = await replay([book(T0, 11380, 11382, true), book(T0 + 500, 11380, 11383), funding, book(T0 + 1200, 11380, 11383)]);
    expect(run.exchange.ledgers[0]!.position).toBe(10);
    expect(run.exchange.ledgers[0]!.fundingEvents).toBe(1);
    expect(run.exchange.ledgers[0]!.funding.toNumber()).toBe(0); // flat at the instant: nothing to pay
    expect(seen.find((e) => e.type === 'funding')?.tsRecv).toBe(T0 + 1000); // the bot hears of it when recorded
  });

  it('settles on the instrument schedule with the last ready estimate when the recording has no settlements', async () => {
    const ticker: RecordedEvent = {
      type: 'ticker', symbol: S, lastTicks: 11381, lastQty: 1, markTicks: 11381, bestBidTicks: 11380, bestAskTicks: 11382, bandLowerTicks: null, bandUpperTicks: null,
      lastSettlementTicks: null, lastSettlementMs: null, state: 'OPEN', volume: 0, openInterest: 0, tsEvent: T0 + 30, tsRecv: T0 + 31,
      funding: { symbol: S, status: 'ready', rate: new Decimal('0.0002'), amount: new Decimal('0.0003'), benchmarkPrice: new Decimal('1.1381'), settlementPrice: new Decimal('1.1384'), reason: null, computedMs: T0 },
    };
    const after = T0 + 61_000; // past 16:00:00 London
    const { run } = await replay([book(T0, 11380, 11382, true), ticker, book(after, 11380, 11383)]);
    expect(run.exchange.ledgers[0]!.fundingEvents).toBe(1);
    expect(run.exchange.ledgers[0]!.funding.toNumber()).toBeCloseTo(-10 * 0.0003);
    const off = await replay([book(T0, 11380, 11382, true), ticker, book(after, 11380, 11383)], { funding: 'off' });
    expect(off.run.exchange.ledgers[0]!.fundingEvents).toBe(0);
  });

  it('applies the feed latency offset and the replay window', async () => {
    const evs = [book(T0, 11380, 11382, true), book(T0 + 10, 11381, 11382), book(T0 + 20, 11381, 11384), book(T0 + 30, 11379, 11384)];
    const { seen } = await replay(evs, { feedLatencyOffsetMs: 5, startMs: T0 + 12, endMs: T0 + 30 });
    // The window selects recorded receive times [T0+12, T0+30): rows 2 and 3, seen 5 ms later. The
    // snapshot before the window builds the book silently, so the first delivered book is complete.
    expect(seen.map((e) => e.tsRecv)).toEqual([T0 + 18, T0 + 28]);
    expect((seen[0] as BookUpdated).bids.map((l) => l.priceTicks)).toEqual([11381, 11380]);
    expect((seen[0] as BookUpdated).asks.map((l) => l.priceTicks)).toEqual([11382]);
  });
});

describe('several symbols and gaps', () => {
  it('replays two instruments with a gap, booking fills and PnL per symbol', async () => {
    const other = testInstrument('XAU-PERP', '0.1', 1);
    const X = other.symbol;
    const xbook = (t: number, bid: number, ask: number, snapshot = false): RecordedEvent => ({ ...book(t, bid, ask, snapshot), symbol: X });
    const evs: RecordedEvent[] = [
      book(T0, 11380, 11382, true),
      xbook(T0 + 1, 26000, 26004, true),
      { type: 'gap', symbol: null, tsEvent: T0 + 5, tsRecv: T0 + 50, reason: 'reconnect: test' },
      book(T0 + 50, 11380, 11382, true),
      xbook(T0 + 51, 26001, 26004, true),
      xbook(T0 + 80, 26001, 26005),
    ];
    const col = toColumnar(recordingHeader({ instruments: [inst, other], startedAtMs: T0, source: 'test' }), [inst, other], evs);
    const seen: MarketEvent[] = [];
    const conn: boolean[] = [];
    const engine = (deps: EngineDeps): Engine => {
      const base = scripted(0, seen)(deps);
      let sent = false;
      return {
        ...base,
        start(inputs) {
          base.start(inputs);
          inputs.connection$.subscribe((c) => conn.push(c.connected));
          inputs.market$.subscribe((ev) => {
            if (ev.type === 'book' && ev.symbol === X && !sent) {
              sent = true;
              void deps.gateway.place({ kind: 'place', symbol: X, side: 'sell', priceTicks: 26000, qty: 3, tif: 'IOC', postOnly: false, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(9), tag: null });
            }
          });
        },
      };
    };
    const run = await runBacktest({ data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG, settings: defaultSettings({ orderLatency: { entry: 1, response: 1 } }), createEngine: engine });
    expect(run.fills.map((f) => [f.symbol, f.side, f.priceTicks, f.qty])).toEqual([['XAU-PERP', 'sell', 26000, 3]]);
    expect(conn.slice(-2)).toEqual([false, true]); // the gap reached the engine as a market-data reconnect
    const r = buildReport(run);
    expect(Object.keys(r.by_symbol)).toEqual(['EURUSD-PERP', 'XAU-PERP']);
    expect(r.by_symbol['XAU-PERP']!.fills.taker).toBe(1);
    expect(r.by_symbol['EURUSD-PERP']!.fills.count).toBe(0);
    expect(r.by_symbol['XAU-PERP']!.inventory.final).toBe(-3);
    expect(fillsCsv(run)).toContain(',XAU-PERP,sell,2600.0,3,taker,');
  });
});

describe('engine timers', () => {
  it('a request sent from an engine timer reaches the exchange before a later timer asks about it', async () => {
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 'test' }), [inst], [book(T0, 11380, 11382, true), book(T0 + 1_000, 11380, 11383)]);
    const seen: (string | null)[] = [];
    const engine = (deps: EngineDeps): Engine => {
      const base = scripted(0, [])(deps);
      return {
        ...base,
        start(inputs) {
          base.start(inputs);
          const t = deps.clock.nowMs();
          deps.clock.setTimer(100, () => void deps.gateway.place({ kind: 'place', symbol: S, side: 'buy', priceTicks: 11379, qty: 1, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(7), tag: null }));
          deps.clock.setTimer(150, () => void deps.gateway.status({ clientOrderId: asClientOrderId(7) }).then((st) => seen.push(st ? `${st.state}@${deps.clock.nowMs() - t}` : null)));
        },
      };
    };
    await runBacktest({ data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG, settings: defaultSettings({ orderLatency: { entry: 2, response: 2 } }), createEngine: engine });
    // The status query pays a round trip (2 ms in, 2 ms back) and sees the order accepted at 102.
    expect(seen).toEqual(['ACCEPTED@154']);
  });
});

describe('conflation', () => {
  it('with conflate_ms the bot gets the last trade and the book as of each window end; the exchange still sees every event', async () => {
    const trade = (t: number, p: number): RecordedEvent => ({ type: 'trade', symbol: S, priceTicks: p, qty: 1, aggressor: 'sell', tsEvent: t, tsRecv: t + 3 });
    const evs = [book(T0, 11380, 11382, true), book(T0 + 10, 11381, 11382), trade(T0 + 20, 11381), trade(T0 + 25, 11380), book(T0 + 30, 11379, 11382), book(T0 + 100, 11379, 11383)];
    const { seen, run } = await replay(evs, { feedConflateMs: 50 }, 1);
    expect(seen.map((e) => [e.type, e.tsRecv])).toEqual([
      ['trade', T0 + 53],
      ['book', T0 + 53],
      ['book', T0 + 153],
    ]);
    expect(seen[0]!.type === 'trade' && seen[0]!.priceTicks).toBe(11380);
    expect((seen[1] as BookUpdated).bids.map((l) => l.priceTicks)).toEqual([11381, 11380, 11379]);
    expect(run.eventsReplayed).toBe(6);
    expect(run.eventsDelivered).toBe(3);
  });
});

describe('equity statistics', () => {
  it('max drawdown is the largest fall from a previous peak (more in report-stats.test.ts)', () => {
    expect(equityStats([0, 5, 3, 8, 1, 4], [0, 1, 2, 3, 4, 5]).maxDrawdown).toBe(7);
  });
});
