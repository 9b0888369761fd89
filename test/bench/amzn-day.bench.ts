/**
 * A full real order-level day: the shared AMZN LOBSTER day (2012-06-21, 09:30–16:00, ~165k events,
 * depth 5 with order ids) replayed with glft as `npm run bench:strategies -- --real-data` runs it
 * (size 100, maxPosition 500, defaults otherwise; exact L3 FIFO fills by order id, the default for
 * this data), and the same day three times in a row (shifted by 24 h and 48 h: `shiftRecording`).
 * Each measurement runs in a fresh child process (amzn-day-child.ts), so a peak RSS is that run's.
 *
 * - `backtest.amzn_day_events_per_s`: recorded events / CPU s of the replay (loading excluded), after
 *   one warm-up replay of the day in the same process, the best of the next four; `_cold` is the first replay.
 * - `backtest.amzn_day_peak_rss_mb` / `backtest.amzn_3days_peak_rss_mb`: process max RSS after one
 *   replay and its report, of one day and of the three days; `_columns_mb` is what the loaded
 *   recording itself holds (it grows with the data; the replay's own state should not).
 * - `backtest.amzn_day_live_heap_mb` / `backtest.amzn_3days_live_heap_mb`: the JS heap after a full
 *   collection at the end, the finished run still held (what the replay keeps: order records, the
 *   report's samples). Peak RSS is mostly garbage V8 has not collected yet (the one-day replay
 *   finishes before its first full collection), so this is the figure that shows what grows.
 *
 * The data: the import cached by the strategy bench (.tmp/strategy-bench/real/amzn.jsonl.gz), else
 * imported from `$MMBOT_BENCH_DATA` or `../shared/data` beside the repo. With neither (or with
 * `MMBOT_BENCH_SYNTHETIC=1`) it replays a synthetic order-level day of the same size and shape
 * instead (`syntheticL3Day`, seed 1: ~164k events over 6.5 h, written once to .tmp/bench-amzn/)
 * and reports the same figures as `backtest.l3_synth_day_*` / `backtest.l3_synth_3days_*`. The
 * repo's tests never read the data folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { syntheticL3Day } from '../../src/backtest/synthetic-l3-day.ts';
import { createRecordingWriter } from '../../src/record/index.ts';
import { shiftRecording } from '../../src/record/time-shift.ts';
import { testInstrument } from '../record/fixtures.ts';
import type { Bench, Metric } from './bench-kit.ts';
import { REAL_MARKETS } from './strategies/real-markets.ts';
import { configFor, importMarket, MAIN_LEGS } from './strategies/run-real.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DAY_MS = 86_400_000;
const exec = promisify(execFile);

/** What one child replay reports (amzn-day-child.ts). */
interface ChildResult {
  readonly events: number;
  readonly fills: number;
  readonly evaluations: number;
  readonly cpuFirstS: number;
  readonly cpuWarmS: number;
  readonly reportHashes: readonly string[];
  readonly columnMb: number;
  readonly liveHeapMb: number;
  readonly peakRssMb: number;
}

async function child(config: string, runs: number, cacheDir: string, paths: readonly string[]): Promise<ChildResult> {
  const { stdout } = await exec(process.execPath, ['--expose-gc', join(ROOT, 'bin/run-ts.js'), join(import.meta.dirname, 'amzn-day-child.ts'), config, String(runs), cacheDir, ...paths], { cwd: ROOT, maxBuffer: 16 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildResult;
}

/** The imported day (cached), or null when neither the import nor the shared data is there. */
async function amznDay(work: string): Promise<string | null> {
  const amzn = REAL_MARKETS.find((m) => m.name === 'amzn')!;
  const cached = join(work, 'amzn.jsonl.gz');
  const dataDir = resolve(ROOT, process.env['MMBOT_BENCH_DATA'] ?? '../shared/data');
  if (!existsSync(cached) && !existsSync(join(dataDir, amzn.folder))) return null;
  mkdirSync(work, { recursive: true });
  return importMarket(amzn, dataDir, work);
}

/** The synthetic order-level day (written once), at AMZN's tick, fees and session. */
async function syntheticDay(work: string): Promise<string> {
  const out = join(work, 'synthetic-l3-day.jsonl.gz');
  if (existsSync(out)) return out;
  const inst = testInstrument('SYNTH', '0.01', 1);
  const startMs = Date.UTC(2012, 5, 21, 13, 30);
  const w = createRecordingWriter(out, { instruments: [inst], startedAtMs: startMs, source: 'synthetic-l3-day seed 1', bookLevel: 3, orderIds: true, fees: { SYNTH: { maker: '-0.000011', taker: '0.000013' } } });
  for (const ev of syntheticL3Day({ instrument: inst, seed: 1, startMs, midTicks: 22390 })) w.write(ev);
  await w.close();
  return out;
}

const mb = (x: number): number => Math.round(x);

export const benches: Bench[] = [
  {
    name: 'AMZN order-level day: glft, exact L3 fills (1 day and 3 days)',
    async run() {
      const work = join(ROOT, '.tmp/bench-amzn');
      mkdirSync(work, { recursive: true });
      const real = process.env['MMBOT_BENCH_SYNTHETIC'] === '1' ? null : await amznDay(join(ROOT, '.tmp/strategy-bench/real'));
      if (real === null) process.stderr.write('  no AMZN day (.tmp/strategy-bench/real/amzn.jsonl.gz, $MMBOT_BENCH_DATA or ../shared/data/amzn-2012-06-21-lobster-L5): a synthetic order-level day of its size instead\n');
      const day = real ?? (await syntheticDay(work));
      const tag = real ? 'amzn' : 'l3_synth';
      const days = [day];
      for (const k of [1, 2]) {
        const next = join(work, `${tag}-day${k + 1}.jsonl.gz`);
        if (!existsSync(next)) await shiftRecording(day, next, k * DAY_MS);
        days.push(next);
      }
      const amzn = REAL_MARKETS.find((m) => m.name === 'amzn')!;
      const config = join(work, `glft-${tag}.yaml`);
      writeFileSync(config, configFor(real ? amzn : { ...amzn, symbol: 'SYNTH' }, MAIN_LEGS.find((l) => l.label === 'glft')!, { name: 'full', startMs: null, endMs: null }, null, 0));
      const cache = join(work, 'cache');
      // Sidecars first (decoded once), so every measured child loads the columns the same way.
      await child(config, 0, cache, [day]);
      await child(config, 0, cache, days);
      // V8 needs a few replays of the day to settle its tiers (the 2nd and 3rd replays still read
      // 10–40 % below the 4th and 5th here): the warm figure is the best of four after the first.
      const rate = await child(config, 5, cache, [day]);
      const one = await child(config, 1, cache, [day]);
      const three = await child(config, 1, cache, days);
      if (rate.reportHashes.length !== 1) throw new Error(`two replays of the same day gave different reports (${rate.reportHashes.join(', ')})`);
      const ratio = three.peakRssMb / one.peakRssMb;
      const out: Record<string, Metric> = {
        [`backtest.${tag}_day_events_per_s`]: { value: Math.round(rate.events / rate.cpuWarmS), unit: `events/s (CPU, 1 thread; glft, L3 FIFO by id; ${rate.events} events; best of 4 after a warm-up replay)`, target: '>= 1000000' },
        [`backtest.${tag}_day_events_per_s_cold`]: { value: Math.round(rate.events / rate.cpuFirstS), unit: 'events/s (CPU; the first replay in a fresh process)' },
        [`backtest.${tag}_day_evaluations_per_event`]: { value: Number((rate.evaluations / rate.events).toFixed(3)), unit: 'strategy evaluations / recorded event (engine ticks every 250 ms included)' },
        [`backtest.${tag}_day_fills`]: { value: rate.fills, unit: 'fills (glft, the day)' },
        [`backtest.${tag}_day_peak_rss_mb`]: { value: mb(one.peakRssMb), unit: 'MB (max RSS of a fresh process: load, replay, report; one day)' },
        [`backtest.${tag}_3days_peak_rss_mb`]: { value: mb(three.peakRssMb), unit: 'MB (max RSS; the day and two copies shifted by 24 h and 48 h)', target: `<= ${mb(1.2 * one.peakRssMb)} (1.2 × one day)` },
        [`backtest.${tag}_3days_rss_ratio`]: { value: Number(ratio.toFixed(3)), unit: '3-day peak RSS / 1-day peak RSS', target: '<= 1.2' },
        [`backtest.${tag}_day_live_heap_mb`]: { value: Number(one.liveHeapMb.toFixed(1)), unit: 'MB (JS heap after a full GC, the finished run held; one day)' },
        [`backtest.${tag}_3days_live_heap_mb`]: { value: Number(three.liveHeapMb.toFixed(1)), unit: 'MB (JS heap after a full GC, the finished run held; three days)', target: `<= ${(1.2 * one.liveHeapMb).toFixed(1)} (1.2 × one day)` },
        [`backtest.${tag}_day_columns_mb`]: { value: Number(one.columnMb.toFixed(1)), unit: 'MB (the loaded day\'s columns: input, grows with the data)' },
        [`backtest.${tag}_3days_columns_mb`]: { value: Number(three.columnMb.toFixed(1)), unit: 'MB (the three days\' columns)' },
      };
      return out;
    },
  },
];
