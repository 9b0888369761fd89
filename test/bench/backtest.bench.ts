/**
 * Backtest replay throughput through the full pipeline (replay exchange with the risk-averse queue
 * model + the daemon's engine, order manager, execution adapter and risk checks + fixed-spread) on a
 * busy synthetic L2 market: 20 levels a side, ≈2,000 events per second of venue time (single-level
 * deltas, ~28% trades), like a liquid crypto perpetual. The recording is decoded to columns before
 * timing starts. Throughput is measured on this process's CPU time, so other load on a shared
 * machine does not distort it; wall time is shown too. The engine sees books conflated to 50 ms
 * windows (`feed.conflate_ms`), as hftbacktest strategies see the market per `elapse` step. For
 * honesty the bench also reports a sparser market (≈500 events/s: more engine work per recorded
 * event) and the unconflated path (every top-5 book change reaches the engine).
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

async function replay(col: ColumnarRecording, conflateMs: number): Promise<{ cpuS: number; wallS: number; events: number; fills: number; delivered: number }> {
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
    settings: defaultSettings({ feedConflateMs: conflateMs, feedDepth: 5 }),
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

export const benches: Bench[] = [
  {
    name: 'backtest replay (fixed-spread, risk-averse queue)',
    async run() {
      const d0 = process.cpuUsage();
      const col = market(1_500_000);
      const dc = process.cpuUsage(d0);
      const decodeCpuS = (dc.user + dc.system) / 1e6;
      await replay(market(50_000), 50); // warm-up (JIT, module loading)
      let best = { cpuS: Infinity, wallS: Infinity, events: 0, fills: 0, delivered: 0 };
      for (let k = 0; k < 2; k++) {
        const r = await replay(col, 50);
        if (r.cpuS < best.cpuS) best = r;
      }
      const sparse = await replay(market(400_000, 2), 50);
      const decode = await decodeBench(300_000);
      const raw = await replay(market(200_000), 0);
      return {
        'backtest.events_per_s': { value: Math.round(best.events / best.cpuS), unit: 'events/s (CPU, 1 thread)', target: '>= 1000000' },
        'backtest.events_per_s_wall': { value: Math.round(best.events / best.wallS), unit: 'events/s (wall)' },
        'backtest.events_per_s_sparse_market': { value: Math.round(sparse.events / sparse.cpuS), unit: 'events/s (CPU; ≈500 events/s market)' },
        'backtest.events_per_s_unconflated': { value: Math.round(raw.events / raw.cpuS), unit: 'events/s (CPU; every top-5 change to the engine)' },
        'backtest.engine_delivery_ratio': { value: Number((best.delivered / best.events).toFixed(4)), unit: 'engine events / recorded events' },
        'backtest.fills': { value: best.fills, unit: 'fills in the timed run' },
        'backtest.columnar_build_events_per_s': { value: Math.round(col.length / decodeCpuS), unit: 'events/s (generate + columnar)' },
        'record.decode_events_per_s': { value: decode.eventsPerS, unit: 'events/s (gzip JSONL → columns, CPU)' },
        'record.sidecar_load_events_per_s': { value: decode.sidecarEventsPerS, unit: 'events/s (binary sidecar → columns, CPU)' },
        'record.bytes_per_event': { value: decode.bytesPerEvent, unit: 'bytes/event (gzip JSONL, deltas)' },
        'backtest.peak_rss_mb': { value: Math.round(process.resourceUsage().maxRSS / 1024), unit: 'MB (process max RSS)' },
      };
    },
  },
];
