import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import type { BookUpdated } from '../../src/domain/events.ts';
import { DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG, type Engine, type EngineDeps } from '../../src/engine/index.ts';
import { recordingHeader, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import { CURVE_HORIZONS_MS } from '../../src/backtest/fill-markouts.ts';
import { buildReport, fillsCsv } from '../../src/backtest/report.ts';
import { reportHtml } from '../../src/backtest/report-html.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { testInstrument } from '../record/fixtures.ts';
import { parseSvg } from '../support/svg-parse.ts';

const S = asSymbol('EURUSD-PERP');
const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const RECV_MS = 3;

/** A one-level book every 100 ms for `seconds`, the mid on a seeded ±1 tick walk (spread 2 ticks). */
function walk(seconds: number, seed = 5): { events: RecordedEvent[]; mids: [number, number][] } {
  let x = seed;
  const rnd = (): number => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let mid = 11380;
  const events: RecordedEvent[] = [];
  const mids: [number, number][] = [];
  for (let k = 0; k <= seconds * 10; k++) {
    const t = T0 + k * 100;
    if (k > 0) mid += rnd() < 0.5 ? -1 : 1;
    const book: BookUpdated = { type: 'book', symbol: S, level: 2, isSnapshot: true, bids: [{ priceTicks: mid - 1, qty: 1000 }], asks: [{ priceTicks: mid + 1, qty: 1000 }], tsEvent: t, tsRecv: t + RECV_MS };
    events.push(book);
    mids.push([t, mid]);
  }
  return { events, mids };
}

/** A scripted engine: an IOC every `everyMs` on the book it sees, alternating buy/sell (`sides` overrides), counting intents. */
function ioc(everyMs: number, qty: number, sides?: readonly ('buy' | 'sell')[]) {
  return (deps: EngineDeps): Engine => {
    const subs = new Subscription();
    let next = -Infinity;
    let n = 0;
    return {
      start(inputs) {
        subs.add(
          inputs.market$.subscribe((ev) => {
            if (ev.type !== 'book' || ev.tsRecv < next || !ev.asks[0] || !ev.bids[0]) return;
            next = ev.tsRecv + everyMs;
            const side = sides ? sides[n % sides.length]! : n % 2 ? 'sell' : 'buy';
            if (sides && n >= sides.length) return;
            n++;
            const priceTicks = side === 'buy' ? ev.asks[0].priceTicks : ev.bids[0].priceTicks;
            void deps.gateway.place({ kind: 'place', symbol: S, side, priceTicks, qty, tif: 'IOC', postOnly: false, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(n), tag: null });
          }),
        );
      },
      async stop() {
        subs.unsubscribe();
        return { cancelRequested: 0, confirmed: true, remaining: [], durationMs: 0 };
      },
      snapshot: () => ({ counters: { fills: n, intentsSent: { place: n, replace: 0, cancel: 2, 'cancel-all': 0 }, rejects: {}, killSwitchTrips: 0, killSwitchEpisodes: [], rejectsByReason: {}, strategyErrors: 0 } }) as never,
      events$: new Subscription() as never,
      setTradingState: () => undefined,
      tripKillSwitch: () => undefined,
      resetKillSwitch: () => undefined,
    };
  };
}

async function replay(seconds: number, engine: (deps: EngineDeps) => Engine) {
  const { events, mids } = walk(seconds);
  const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 'test' }), [inst], events);
  const run = await runBacktest({
    data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    settings: defaultSettings({ orderLatency: { entry: 2, response: 2 } }), createEngine: engine,
  });
  return { run, mids };
}

describe('report metrics', () => {
  it('markouts in report.json and fills.csv equal a brute-force recomputation from the recorded mids', async () => {
    const { run, mids } = await replay(200, ioc(1_500, 2));
    const midAt = (t: number): number => {
      let m = NaN;
      for (const [u, v] of mids) if (u <= t) m = v;
      return m;
    };
    const end = run.endMs;
    expect(run.fills.length).toBeGreaterThan(100);
    const expected = CURVE_HORIZONS_MS.map((h) => {
      let w = 0;
      let wm = 0;
      let wb = 0;
      let wmb = 0;
      let n = 0;
      for (const f of run.fills) {
        if (f.tsExchange + h >= end) continue; // matured only when time passed the horizon inside the window
        const s = f.side === 'buy' ? 1 : -1;
        const m = ((s * (midAt(f.tsExchange + h) - f.midTicks)) / f.midTicks) * 1e4;
        const wt = f.qty * f.priceTicks;
        n++;
        w += wt;
        wm += wt * m;
        if (s > 0) ((wb += wt), (wmb += wt * m));
      }
      return { n, mean: wm / w, buy: wmb / wb, sell: (wm - wmb) / (w - wb) };
    });
    const r = buildReport(run);
    const curve = r.total.markouts.curve;
    expect(curve.map((p) => p.horizon_s)).toEqual(CURVE_HORIZONS_MS.map((h) => h / 1000));
    curve.forEach((p, k) => {
      expect(p.fills, `fills at ${p.horizon_s}s`).toBe(expected[k]!.n);
      expect(p.mean_bps!).toBeCloseTo(expected[k]!.mean, 3);
      expect(p.buy_bps!).toBeCloseTo(expected[k]!.buy, 3);
      expect(p.sell_bps!).toBeCloseTo(expected[k]!.sell, 3);
    });
    expect(Object.keys(r.total.markouts_bps)).toEqual(['1s', '10s', '60s']);
    expect(r.total.markouts_bps['10s']).toBe(curve[CURVE_HORIZONS_MS.indexOf(10_000)]!.mean_bps);
    expect(r.by_symbol[S]!.markouts_bps).toEqual(r.total.markouts_bps);
    // IOCs cross the 2-tick spread: the edge is minus half of it, ~ −0.88 bps at 11380 ticks.
    expect(r.total.markouts.edge_bps!).toBeCloseTo((-1 / 11380) * 1e4, 2);
    // fills.csv: each fill's own 60 s markout (empty past the window's end).
    const rows = fillsCsv(run).trim().split('\n');
    const head = rows[0]!.split(',');
    expect(head.slice(-3)).toEqual(['markout_1s_bps', 'markout_10s_bps', 'markout_60s_bps']);
    run.fills.forEach((f, k) => {
      const cell = rows[k + 1]!.split(',')[head.indexOf('markout_60s_bps')]!;
      if (f.tsExchange + 60_000 >= end) expect(cell).toBe('');
      else expect(Number(cell)).toBeCloseTo(((f.side === 'buy' ? 1 : -1) * (midAt(f.tsExchange + 60_000) - f.midTicks)) / f.midTicks * 1e4, 3);
    });
  });

  it('Sharpe and Sortino come from per-minute PnL (undefined under 30 minutes), with drawdown duration, inventory percentiles, time at the limit and order ratios', async () => {
    // Buy the risk limit (100) at once, then hold: |position| = 100 from the fill to the end.
    const { run } = await replay(300, ioc(1_000, 100, ['buy']));
    const r = buildReport(run);
    const t = r.total;
    expect(t.sharpe_sample_ms).toBe(60_000);
    expect(t.pnl_periods).toBe(run.observer.minuteEquity.length - 1);
    expect(t.pnl_periods).toBeGreaterThanOrEqual(3);
    expect(t.sharpe_basis).toMatch(/per-minute .* √1440/);
    // 5 one-minute changes: too few for a ratio (MIN_RATIO_PERIODS); report-stats.test checks the formula.
    expect(t.sharpe).toBeNull();
    expect(t.sortino).toBeNull();
    expect(t.inventory.position_limit).toBe(DEFAULT_RISK_CONFIG.defaults.maxPosition);
    expect(t.inventory.p95_abs).toBe(100);
    const fillAt = run.fills[0]!.tsExchange;
    expect(t.inventory.time_at_limit).toBeCloseTo((run.endMs - fillAt) / (run.endMs - T0), 2);
    expect(t.max_drawdown_duration_s).toBeGreaterThan(0);
    expect(t.orders).toEqual({ placed: 1, cancels: 2, filled_orders: 1, fill_ratio: 1, filled_order_share: 1, cancel_to_fill: 2 });
    expect([t.fills.market_volume, t.fills.volume_share]).toEqual([0, 0]); // the walk has no prints
  });

  it('report.html carries the markout curve as a well-formed SVG whose lines stay inside the plot', async () => {
    const { run } = await replay(150, ioc(1_500, 2));
    const r = buildReport(run);
    const html = reportHtml(run, r);
    const svgs = [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    const curve = svgs.find((s) => s.includes('aria-label="Markout curve'));
    expect(curve).toBeDefined();
    const svg = parseSvg(curve!);
    expect(svg.name).toBe('svg');
    const [, , w, h] = svg.attrs['viewBox']!.split(' ').map(Number);
    const paths = svg.children.filter((c) => c.name === 'path' && c.attrs['fill'] === 'none');
    expect(paths.map((p) => p.attrs['stroke'])).toEqual(['#bbb', '#1f6feb', '#2da44e', '#cf222e']);
    for (const p of paths) {
      const pts = [...p.attrs['d']!.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      expect(pts.length).toBe(CURVE_HORIZONS_MS.length - r.total.markouts.curve.filter((c) => c.mean_bps === null).length);
      for (const [x, y] of pts) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(w!);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(h!);
      }
    }
    const labels = svg.children.filter((c) => c.name === 'text').map((c) => c.text);
    expect(labels).toContain('0s');
    expect(labels).toContain('120s');
    expect(html).toContain('Sortino');
  });
});
