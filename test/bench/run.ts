/**
 * `npm run bench`: runs every `test/bench/*.bench.ts`, prints a table and writes
 * `test/bench/results.json` (metric name → { value, unit, target, bench, machine: CPU model, cores, load
 * average when the bench file started }). Each bench file exports
 * `benches: Bench[]`; add a file to add metrics. Each file runs in its own child process. Pass name filters to run a subset:
 * `npm run bench -- wire sim`.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bench, Metric } from './bench-kit.ts';
import { machineInfo, readResults, replaceBench, type MachineInfo } from './results-file.ts';

const RESULT_MARK = '@@bench-result ';

const dir = import.meta.dirname;
const args = process.argv.slice(2);

// Child mode: run one bench file and hand its metrics to the parent as JSON on a marked line.
// Each file runs in a fresh process so one bench's heap (RSS, GC pauses) cannot skew another's.
if (args[0] === '--child') {
  const mod = (await import(pathToFileURL(join(dir, args[1]!)).href)) as { benches: Bench[] };
  const out: Record<string, Metric> = {};
  for (const bench of mod.benches) {
    process.stderr.write(`running ${bench.name} ...\n`);
    const metrics = await bench.run();
    for (const [name, m] of Object.entries(metrics)) {
      out[name] = m;
      process.stderr.write(`  ${name} = ${fmt(m.value)} ${m.unit}${m.target ? `  (target ${m.target})` : ''}\n`);
    }
  }
  process.stdout.write(`\n${RESULT_MARK}${JSON.stringify(out)}\n`);
  process.exit(0);
}

const filters = args;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));

const results: Record<string, Metric> = {};
const byFile = new Map<string, Record<string, Metric> | null>();
// The machine and its load average as each bench file starts: stored beside each of its figures.
const machineByFile = new Map<string, MachineInfo>();
for (const file of files) {
  machineByFile.set(file, machineInfo());
  const child = spawnSync(process.execPath, [join(dir, '../../bin/run-ts.js'), join(dir, 'run.ts'), '--child', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (child.status !== 0 || !line) {
    process.stderr.write(`bench ${file} failed (exit ${child.status ?? child.signal}); its metrics are missing\n${child.stdout}\n`);
    process.exitCode = 1;
    byFile.set(file, null);
    continue;
  }
  const metrics = JSON.parse(line.slice(RESULT_MARK.length)) as Record<string, Metric>;
  byFile.set(file, metrics);
  Object.assign(results, metrics);
}

const rows = Object.entries(results).map(([name, m]) => [name, fmt(m.value), m.unit, m.target ?? '']);
const head = ['metric', 'value', 'unit', 'target'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]): string => r.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
process.stdout.write(`\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; load average at each bench's start: ${[...machineByFile].map(([f, m]) => `${f.replace(/\.bench\.ts$/, '')} ${m.load_avg_at_start[0]}`).join(', ')}\n`);
process.stdout.write(`${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
for (const r of rows) process.stdout.write(`${line(r)}\n`);

// Merge into earlier results: a filtered run (or the separate soak script) must not erase the
// figures other benches wrote, and a bench that failed must not leave its old figures behind.
const file = join(dir, 'results.json');
let merged = readResults(file);
for (const [f, metrics] of byFile) merged = replaceBench(merged, f.replace(/\.bench\.ts$/, ''), metrics, machineByFile.get(f)!);
writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
const failed = [...byFile].filter(([, m]) => m === null).map(([f]) => f);
if (failed.length > 0) process.stdout.write(`removed the old figures of failed bench(es): ${failed.join(', ')}\n`);
process.stdout.write(`\nwrote test/bench/results.json (${rows.length} metrics updated, ${Object.keys(merged).length} in all)\n`);
process.exit(process.exitCode ?? 0);

function fmt(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}
