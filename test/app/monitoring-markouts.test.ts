import { Registry } from 'prom-client';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { Decimal } from '../../src/core/decimal.ts';
import { asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import type { BookUpdated } from '../../src/domain/events.ts';
import type { EngineEvent, EngineSnapshot } from '../../src/engine/index.ts';
import { startMarkoutMonitoring } from '../../src/app/monitoring-markouts.ts';
import { startMonitoring } from '../../src/app/monitoring.ts';
import { createBotMetrics } from '../../src/obs/metrics.ts';

const S = asSymbol('EURUSD-PERP');
const book = (t: number, bid: number, ask: number): BookUpdated => ({
  type: 'book',
  symbol: S,
  level: 2,
  isSnapshot: true,
  bids: [{ priceTicks: bid, qty: 10 }],
  asks: [{ priceTicks: ask, qty: 10 }],
  tsEvent: t,
  tsRecv: t,
});
const fill = (t: number, side: 'buy' | 'sell', priceTicks: number, recovered = false): EngineEvent => ({
  type: 'fill',
  symbol: S,
  orderId: asVenueOrderId(`O-${t}`),
  clientOrderId: null,
  tradeId: `T-${t}`,
  side,
  priceTicks,
  qty: 5,
  liquidity: 'maker',
  fee: new Decimal(0),
  feeSource: 'estimated',
  position: side === 'buy' ? 5 : -5,
  recovered,
  tsMs: t,
});

async function histogram(reg: Registry, horizon: string): Promise<{ count: number; sum: number }> {
  const m = (await reg.getSingleMetric('mmbot_fill_markout_bps')!.get()) as { values: { value: number; labels: Record<string, string | number | undefined>; metricName?: string }[] };
  const pick = (suffix: string) => m.values.find((v) => v.metricName === `mmbot_fill_markout_bps${suffix}` && v.labels['horizon'] === horizon && v.labels['symbol'] === S)?.value ?? 0;
  return { count: pick('_count'), sum: pick('_sum') };
}

async function recent(reg: Registry, horizon: string): Promise<number | undefined> {
  const m = await reg.getSingleMetric('mmbot_fill_markout_recent_mean_bps')!.get();
  return m.values.find((v) => v.labels['horizon'] === horizon)?.value;
}

describe('live fill markouts', () => {
  it('observes each fill’s markout per horizon, signed good-for-us, and the rolling mean', async () => {
    const reg = new Registry();
    const metrics = createBotMetrics(reg, { clock: new VirtualClock(0) });
    const books$ = new Subject<BookUpdated>();
    const events$ = new Subject<EngineEvent>();
    const mon = startMarkoutMonitoring({ books$, events$, metrics });
    books$.next(book(0, 9999, 10001)); // mid 10000
    events$.next(fill(100, 'buy', 9999));
    events$.next(fill(200, 'sell', 10001));
    events$.next(fill(300, 'buy', 9999, true)); // recovered from REST: mid unknown, skipped
    books$.next(book(500, 10009, 10011)); // mid 10010: +10 bps for the buy, −10 for the sell
    mon.advance(1_500); // a quiet book: the scrape-time advance matures the 1 s markouts
    expect(await histogram(reg, '1s')).toEqual({ count: 2, sum: expect.closeTo(0, 9) });
    expect(await recent(reg, '1s')).toBeCloseTo(0, 9);
    books$.next(book(5_000, 9989, 9991)); // mid 9990: −10 bps for the buy, +10 for the sell
    mon.advance(61_000);
    expect((await histogram(reg, '10s')).count).toBe(2);
    expect((await histogram(reg, '60s')).count).toBe(2);
    expect(mon.tracker(S)!.stats(1).buyMeanBps).toBeCloseTo(-10, 9);
    expect(mon.tracker(S)!.stats(1).sellMeanBps).toBeCloseTo(10, 9);
    mon.stop();
    events$.next(fill(70_000, 'buy', 9989));
    expect(mon.tracker(S)!.fills).toBe(2);
  });

  it('startMonitoring wires books and engine fills into the metric and matures markouts at each sync', async () => {
    const clock = new VirtualClock(0);
    const books$ = new Subject<BookUpdated>();
    const events$ = new Subject<EngineEvent>();
    const snapshot = { killSwitch: { tripped: false, reason: null }, tradingState: 'ACTIVE', orderBudget: { lastMinute: 0, today: 0, perMinute: 0, perDay: 0 }, execution: { queued: 0, inFlight: 0, slowedDown: false, budgets: [] }, symbols: [] } as unknown as EngineSnapshot;
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const mon = await startMonitoring({
      config: { monitoring: { enabled: false, host: '127.0.0.1', port: 0 }, rewards: { enabled: false, poll_interval_ms: 1000 }, bot: { strategies: [{ symbol: S }] } },
      engine: { events$, snapshot: () => snapshot },
      clients: { md: { connection$: new Subject(), books$ } },
      log,
      clock,
    });
    books$.next(book(0, 9999, 10001));
    events$.next(fill(0, 'sell', 10001));
    books$.next(book(10, 9979, 9981)); // mid −20 bps: +20 for our sell
    clock.advanceTo(2_000);
    mon.sync();
    expect(await histogram(mon.registry, '1s')).toEqual({ count: 1, sum: expect.closeTo(20, 9) });
    await mon.stop();
  });
});
