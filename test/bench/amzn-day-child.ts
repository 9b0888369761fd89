/**
 * One measured replay for amzn-day.bench.ts, in a fresh process so its peak RSS is its own:
 * `node bin/run-ts.js test/bench/amzn-day-child.ts <config.yaml> <runs> <cacheDir> <recording>...`.
 * Loads the recordings (concatenated in the order given) into columns, replays them `runs` times
 * and builds the report each time; prints one JSON line: events, CPU seconds of the first run and
 * the least of the later ones (the first is also the JIT's warm-up), fills, strategy evaluations, the report's
 * hash (the same on every run), the columns' size and the process's peak RSS; run with
 * `--expose-gc`, also the live JS heap after a full collection with the last run still held (what a
 * finished replay keeps for its report: it should not grow with the day's length).
 */
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { buildReport, reportJson } from '../../src/backtest/report.ts';
import { executeRunSpec } from '../../src/backtest/run-spec.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { loadColumnar, type ColumnarRecording } from '../../src/record/columnar.ts';

const [config, runsArg, cacheDir, ...paths] = process.argv.slice(2);
if (!config || !runsArg || !cacheDir || paths.length === 0) throw new Error('usage: amzn-day-child.ts <config> <runs> <cacheDir> <recording>...');

/** Bytes held by the recording's columns (the input itself: it grows with the data, the replay state should not). */
function columnBytes(col: ColumnarRecording): number {
  const arrays = [col.kind, col.sym, col.tsEvent, col.tsRecv, col.a, col.b, col.c, col.levels, col.orderStart, col.orderQty, col.orderId];
  return arrays.reduce((s, a) => s + (a?.byteLength ?? 0), 0);
}

const setup = await loadBacktestSetup(config);
const col = await loadColumnar(paths.map((p) => resolve(p)), { cacheDir });
const cpuS: number[] = [];
const hashes = new Set<string>();
let last: { events: number; fills: number; evaluations: number } | null = null;
let held: unknown = null;
for (let k = 0; k < Number(runsArg); k++) {
  const c0 = process.cpuUsage();
  const run = await executeRunSpec(setup.spec, col, dirname(resolve(config)));
  const c = process.cpuUsage(c0);
  cpuS.push((c.user + c.system) / 1e6);
  const report = buildReport(run, { config: 'bench', data: paths.map((_, i) => `day${i + 1}`), strategies: setup.spec.strategies });
  hashes.add(createHash('sha256').update(reportJson(report)).digest('hex').slice(0, 16));
  last = { events: run.eventsReplayed, fills: run.fills.length, evaluations: run.engine.counters.strategyEvaluations };
  held = run;
}
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const liveHeapMb = gc && held ? process.memoryUsage().heapUsed / 2 ** 20 : null;
process.stdout.write(
  `${JSON.stringify({ ...last, cpuFirstS: cpuS[0], cpuWarmS: cpuS.length > 1 ? Math.min(...cpuS.slice(1)) : null, reportHashes: [...hashes], columnMb: columnBytes(col) / 2 ** 20, liveHeapMb, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
