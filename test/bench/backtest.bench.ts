/**
 * Backtest replay throughput through the full pipeline (replay exchange with the risk-averse queue
 * model + the daemon's engine, order manager, execution adapter and risk checks + fixed-spread) on a
 * busy synthetic L2 market: 20 levels a side, ≈2,000 events per second of venue time (single-level
 * deltas, ~28% trades), like a liquid crypto perpetual. The recording is decoded to columns before
 * timing starts. Throughput is measured on this process's CPU time, so other load on a shared
 * machine distorts it less; wall time is shown too.
 *
 * - `backtest.events_per_s`: the default config path (`feed.conflate_ms: 0`, `feed.depth: auto`):
 *   every change of the levels the strategy reads (fixed-spread: the touch) and every trade and
 *   ticker reach the engine; the exchange side processes every recorded event.
 * - `backtest.events_per_s_depth20`: `feed.depth: 20`: every change of the top 20 levels reaches the
 *   engine (≈97% of recorded events here), which re-quotes only on touch changes (same fills).
 * - `backtest.events_per_s_unconflated`: every change of the top 5 levels reaches the engine.
 * - `backtest.events_per_s_conflated`: opt-in `feed.conflate_ms: 50` (depth 5): at most one book and
 *   the last trade per 50 ms window reach the engine, as hftbacktest strategies see the market per
 *   `elapse` step; the exchange side still processes every event.
 * - `backtest.events_per_s_sparse_market`: conflated, on a sparser market (≈500 events/s: more engine
 *   work per recorded event).
 */
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecordingWriter, loadColumnar, recordingHeader, toColumnar, type ColumnarRecording } from '../../src/record/index.ts';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { testInstrument } from '../record/fixtures.ts';
import type { Bench } from './bench-kit.ts';

const START = 1_700_000_000_000;

function market(events: number, meanGapMs = 0.5): ColumnarRecording {
  const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
  const header = recordingHeader({ instruments: [inst], startedAtMs: START, source: 'synthetic' });
  return toColumnar(header, [inst], syntheticMarket({ instrument: inst, seed: 1, events, startMs: START, midTicks: 11380, levels: 20, meanGapMs, tickerEveryMs: 1000, fundingAtMs: START + 600_000 }));
}

async function replay(col: ColumnarRecording, conflateMs: number, feedDepth: number | 'auto'): Promise<{ cpuS: number; wallS: number; events: number; fills: number; delivered: number }> {
  const def = await loadStrategy('fixed-spread');
  const strategy = def.create(parseStrategyParams(def, { halfSpreadTicks: 1, size: 5, maxPosition: 50 }));
  const cpu0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  const run = await runBacktest({
    data: col,
    strategies: [{ id: 'fixed-spread:EURUSD-PERP', symbol: col.instruments[0]!.symbol, strategy }],
    risk: DEFAULT_RISK_CONFIG,
    execution: DEFAULT_EXECUTION_CONFIG,
    orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    settings: defaultSettings({ feedConflateMs: conflateMs, feedDepth }),
    createEngine,
  });
  const c = process.cpuUsage(cpu0);
  return { cpuS: (c.user + c.system) / 1e6, wallS: Number(process.hrtime.bigint() - w0) / 1e9, events: run.eventsReplayed, fills: run.fills.length, delivered: run.eventsDelivered };
}

/** Writes a synthetic gzip JSONL recording and times decoding it back into columns (the interchange path). */
async function decodeBench(events: number): Promise<{ eventsPerS: number; bytesPerEvent: number; sidecarEventsPerS: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-bench-'));
  try {
    const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
    const path = join(dir, 'bench.jsonl.gz');
    const w = createRecordingWriter(path, { instruments: [inst], startedAtMs: START, source: 'synthetic' });
    for (const ev of syntheticMarket({ instrument: inst, seed: 2, events, startMs: START, midTicks: 11380, levels: 20, meanGapMs: 0.5, tickerEveryMs: 1000 })) w.write(ev);
    await w.close();
    const c0 = process.cpuUsage();
    const col = await loadColumnar([path]);
    const c = process.cpuUsage(c0);
    const cacheDir = join(dir, 'cache');
    await loadColumnar([path], { cacheDir }); // writes the sidecar
    const s0 = process.cpuUsage();
    await loadColumnar([path], { cacheDir });
    const sc = process.cpuUsage(s0);
    return {
      eventsPerS: Math.round(col.length / ((c.user + c.system) / 1e6)),
      bytesPerEvent: Number((statSync(path).size / col.length).toFixed(1)),
      sidecarEventsPerS: Math.round(col.length / ((sc.user + sc.system) / 1e6)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Timed = Awaited<ReturnType<typeof replay>>;

/** Best (least CPU) of `n` runs. */
async function best(n: number, run: () => Promise<Timed>): Promise<Timed> {
  let b: Timed | null = null;
  for (let k = 0; k < n; k++) {
    const r = await run();
    if (!b || r.cpuS < b.cpuS) b = r;
  }
  return b!;
}

const perS = (r: Timed): number => Math.round(r.events / r.cpuS);

export const benches: Bench[] = [
  {
    name: 'backtest replay (fixed-spread, risk-averse queue)',
    async run() {
      const defaults = defaultSettings();
      const d0 = process.cpuUsage();
      const big = market(1_500_000);
      const dc = process.cpuUsage(d0);
      const decodeCpuS = (dc.user + dc.system) / 1e6;
      const mid = market(600_000);
      // Warm-up (module loading, JIT: V8 needs a few hundred thousand events to settle its tiers) of every path.
      const warm = market(200_000);
      await replay(warm, 50, 5);
      for (let k = 0; k < 3; k++) await replay(warm, 0, k === 1 ? 20 : defaults.feedDepth);
      const dflt = await best(2, () => replay(mid, defaults.feedConflateMs, defaults.feedDepth));
      const top5 = await best(2, () => replay(mid, 0, 5));
      const depth20 = await best(2, () => replay(mid, 0, 20));
      const conflated = await best(2, () => replay(big, 50, 5));
      const sparse = await replay(market(400_000, 2), 50, 5);
      const decode = await decodeBench(300_000);
      return {
        'backtest.events_per_s': { value: perS(dflt), unit: `events/s (CPU, 1 thread; default config: conflate_ms ${defaults.feedConflateMs}, depth ${defaults.feedDepth})`, target: '>= 3000000' },
        'backtest.events_per_s_wall': { value: Math.round(dflt.events / dflt.wallS), unit: 'events/s (wall; default config)' },
        'backtest.events_per_s_depth20': { value: perS(depth20), unit: 'events/s (CPU; conflate_ms 0, depth 20: every top-20 change to the engine)' },
        'backtest.engine_delivery_ratio_depth20': { value: Number((depth20.delivered / depth20.events).toFixed(4)), unit: 'engine events / recorded events (depth 20)' },
        'backtest.events_per_s_unconflated': { value: perS(top5), unit: 'events/s (CPU; conflate_ms 0, depth 5: every top-5 change to the engine)' },
        'backtest.events_per_s_conflated': { value: perS(conflated), unit: 'events/s (CPU; opt-in conflate_ms 50, depth 5)', target: '>= 1000000' },
        'backtest.events_per_s_sparse_market': { value: perS(sparse), unit: 'events/s (CPU; conflate_ms 50, ≈500 events/s market)' },
        'backtest.engine_delivery_ratio': { value: Number((dflt.delivered / dflt.events).toFixed(4)), unit: 'engine events / recorded events (default config)' },
        'backtest.engine_delivery_ratio_conflated': { value: Number((conflated.delivered / conflated.events).toFixed(4)), unit: 'engine events / recorded events (conflate_ms 50)' },
        'backtest.fills': { value: dflt.fills, unit: 'fills in the timed default-config run' },
        'backtest.columnar_build_events_per_s': { value: Math.round(big.length / decodeCpuS), unit: 'events/s (generate + columnar)' },
        'record.decode_events_per_s': { value: decode.eventsPerS, unit: 'events/s (gzip JSONL → columns, CPU)' },
        'record.sidecar_load_events_per_s': { value: decode.sidecarEventsPerS, unit: 'events/s (binary sidecar → columns, CPU)' },
        'record.bytes_per_event': { value: decode.bytesPerEvent, unit: 'bytes/event (gzip JSONL, deltas)' },
        'backtest.peak_rss_mb': { value: Math.round(process.resourceUsage().maxRSS / 1024), unit: 'MB (process max RSS)' },
      };
    },
  },
];
