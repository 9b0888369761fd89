/**
 * `npm run soak -- --minutes N [--speed 20] [--config config/demo.yaml] [--sample-s 10] [--gc-every-s 60]
 * [--malloc-arena-max N] [--retention small|default] [--snapshots] [--no-record]`:
 * runs the local venue (`mmbot sim`, its own process, at clock speed `--speed`) and the demo daemon
 * (`mmbot run`, remote mode against it) for N wall minutes. Samples both processes' resident memory
 * and, through the heap probe (src/cli/heap-probe.ts: SIGUSR2 + --expose-gc), their heap after a
 * full GC, with what lies outside it (V8's heap pages, external/ArrayBuffer memory, V8's own
 * malloc). Reports per process the slopes (least squares over the samples after the warm-up, MB per
 * 10 min) of RSS, anonymous RSS, heap after GC and those outside parts, then stops both with
 * SIGTERM (daemon first) and checks they exit 0. Figures go into test/bench/results.json under
 * `soak.*` (merged: other benches' figures stay; a failed soak removes its old figures instead of
 * leaving stale ones; `--no-record` leaves the file alone, for experiments). `--malloc-arena-max N`
 * runs both processes with glibc's MALLOC_ARENA_MAX=N (allocator experiments). `--snapshots` takes
 * a heap snapshot of each process at the end of the warm-up and a tenth of the run before its end
 * and prints which owners' live objects grew in between (test/bench/heap-diff.ts); a snapshot
 * costs a process tens of MB of RSS, so such a run's slopes are not recorded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parse, stringify } from 'yaml';
import { flagNumber, flagString, parseArgs } from '../../src/cli/args.ts';
import { HEAP_PROBE_MARK } from '../../src/cli/heap-probe.ts';
import type { Metric } from './bench-kit.ts';
import { formatHeapGrowth, heapGrowthByOwner, readHeapSnapshot } from './heap-diff.ts';
import { machineInfo, mergeResults } from './results-file.ts';
import { linearSlope, residentMb } from './soak-kit.ts';
import type { HeapProbeReport } from '../../src/cli/heap-probe.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The machine and its load when the soak started (stored beside each figure). */
const machine = machineInfo();
const args = parseArgs(process.argv.slice(2), {
  valued: ['minutes', 'config', 'sample-s', 'speed', 'gc-every-s', 'warmup-min', 'retention', 'malloc-arena-max'],
  boolean: ['no-record', 'snapshots'],
});
const snapshots = args.flags.has('snapshots');
const arenaMax = flagNumber(args, 'malloc-arena-max');
const record = !args.flags.has('no-record') && !args.flags.has('snapshots');
const minutes = flagNumber(args, 'minutes') ?? 10;
const speed = flagNumber(args, 'speed') ?? 20;
const sampleS = flagNumber(args, 'sample-s') ?? Math.min(10, Math.max(1, (minutes * 60) / 30));
const gcEveryS = flagNumber(args, 'gc-every-s') ?? Math.max(sampleS, Math.min(60, (minutes * 60) / 20));
// Start-up allocations (JIT, caches, the venue's first price histories) are not a leak: fit after them.
const warmupMin = flagNumber(args, 'warmup-min') ?? minutes / 4;
const source = resolve(flagString(args, 'config') ?? join(ROOT, 'config/demo.yaml'));
const SLOPE_TARGET = 2;
// Every history of both processes is bounded, by count (venue `retention`, `md.*_history`) or by a
// time window (the console's `monitoring.control.history_ms`). With the shipped sizes (50 000 fills,
// 100 000 orders per account, 2 000 candles per width, two days of underlying prices, an hour of
// console chart...) they take hours at the demo's pace to fill, so memory climbs legitimately for
// the whole soak; `--retention small` (the default here) sizes them to fill within a few minutes,
// well inside the warm-up, so what the slope measures is leaks, not filling. `--retention default`
// keeps the shipped sizes.
const retentionMode = flagString(args, 'retention') ?? 'small';
const SMALL_RETENTION = {
  fills_per_account: 1_000,
  ledger_per_account: 2_000,
  liquidations_per_account: 100,
  orders_per_account: 1_000,
  funding_rates: 20,
  funding_transactions: 50,
  funding_slot_days: 1,
  reward_rows: 50,
};
// At ×20 a venue minute lasts 3 s: 60 candles of 5 minutes fill in 15 wall minutes, 200 one-minute
// underlying rows in 10 (wider candles add a few KB an hour).
const SMALL_MD = { trade_history: 500, candle_history: 60, underlying_history: 200 };
// The console's chart window (its minimum, a minute; one point per 50 ms at most).
const SMALL_CONSOLE_HISTORY_MS = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'mmbot-soak-'));
const bot = parse(readFileSync(source, 'utf8')) as Record<string, Record<string, unknown>>;
const sim = (bot['venue']?.['sim'] ?? {}) as Record<string, unknown>;
const symbols = [...new Set(((bot['bot']?.['strategies'] ?? []) as { symbol?: string; symbols?: string[] }[]).flatMap((s) => s.symbols ?? (s.symbol ? [s.symbol] : [])))];

// The venue: what the demo's embedded venue would run, at `speed`.
const venuePath = join(dir, 'venue.yaml');
writeFileSync(
  venuePath,
  stringify({
    seed: sim['seed'] ?? 7,
    clock_speed: speed,
    instruments: { only: symbols },
    market: { enabled: true, symbols },
    ...(retentionMode === 'small' ? { retention: SMALL_RETENTION, md: SMALL_MD } : {}),
  }),
);
const credsPath = join(dir, 'creds.json');

/** One sample: minutes since the start, MB. */
interface Sample {
  readonly t: number;
  readonly mb: number;
}

/** What the heap probe reports, sampled: the series the soak fits a slope to. */
const PROBE_SERIES = {
  heap_after_gc: 'heap_used_mb',
  heap_total_after_gc: 'heap_total_mb',
  external_after_gc: 'external_mb',
  array_buffers_after_gc: 'array_buffers_mb',
  v8_malloced_after_gc: 'v8_malloced_mb',
  old_space_after_gc: 'old_space_mb',
  new_space_after_gc: 'new_space_mb',
  other_spaces_after_gc: 'other_spaces_mb',
  heap_resident_after_gc: 'heap_resident_mb',
  new_space_resident_after_gc: 'new_space_resident_mb',
} as const satisfies Record<string, keyof HeapProbeReport>;

interface Proc {
  readonly name: 'daemon' | 'venue';
  readonly child: ChildProcess;
  readonly exited: Promise<number>;
  readonly rss: Sample[];
  readonly anon: Sample[];
  readonly probe: Record<keyof typeof PROBE_SERIES, Sample[]>;
  /** RSS at the probe minus the resident JS heap pages and external memory: malloc, code, thread stacks. */
  readonly other: Sample[];
  errors: number;
}

const t0 = Date.now();
const tMin = (): number => (Date.now() - t0) / 60_000;

function start(name: Proc['name'], argv: string[], onLine: (l: string) => void): Proc {
  const heapFlags = snapshots ? ['--heapsnapshot-signal=SIGTTIN', `--diagnostic-dir=${dir}`] : [];
  const child = spawn('nice', ['-n', '10', process.execPath, '--expose-gc', ...heapFlags, join(ROOT, 'bin/mmbot.js'), ...argv], {
    cwd: ROOT,
    env: { ...process.env, MMBOT_HEAP_PROBE: '1', ...(arenaMax !== undefined ? { MALLOC_ARENA_MAX: String(arenaMax) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const p: Proc = {
    name,
    child,
    exited: new Promise<number>((r) => child.on('exit', (code, sig) => r(code ?? (sig ? 128 : -1)))),
    rss: [],
    anon: [],
    probe: Object.fromEntries(Object.keys(PROBE_SERIES).map((k) => [k, []])) as unknown as Proc['probe'],
    other: [],
    errors: 0,
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', (l) => {
    if (l.startsWith(HEAP_PROBE_MARK)) {
      const r = JSON.parse(l.slice(HEAP_PROBE_MARK.length)) as HeapProbeReport;
      const t = tMin();
      for (const [series, key] of Object.entries(PROBE_SERIES) as [keyof typeof PROBE_SERIES, keyof HeapProbeReport][]) p.probe[series].push({ t, mb: r[key] });
      p.other.push({ t, mb: r.rss_mb - r.heap_resident_mb - r.external_mb });
    } else if (l.trim()) process.stderr.write(`  ${name} stderr: ${l}\n`);
  });
  return p;
}

process.stderr.write(
  `soak: ${minutes} min, venue clock ×${speed}, ${retentionMode} retention, ${source} (rss every ${sampleS} s, heap after GC every ${gcEveryS} s)` +
    `${arenaMax !== undefined ? `, MALLOC_ARENA_MAX=${arenaMax}` : ''}\n`,
);
const venue = start('venue', ['sim', '--config', venuePath, '--credentials-out', credsPath], () => {});
for (let i = 0; !existsSync(credsPath) || readFileSync(credsPath, 'utf8').trim() === ''; i++) {
  // A loaded machine can take a minute or more to start it: wait up to five.
  if (i > 3_000 || venue.child.exitCode !== null) {
    venue.child.kill('SIGTERM');
    throw new Error('soak: the venue did not start');
  }
  await new Promise((r) => setTimeout(r, 100));
}
await new Promise((r) => setTimeout(r, 200));
const creds = JSON.parse(readFileSync(credsPath, 'utf8')) as Record<string, string>;
const botCfg = {
  ...bot,
  venue: { mode: 'remote', base_url: creds['base_url'], ws_url: creds['ws_url'], api_key: creds['api_key'], api_secret: creds['api_secret'], account_id: creds['account_id'] },
  monitoring: {
    ...bot['monitoring'],
    port: 0,
    ...(retentionMode === 'small' ? { control: { ...(bot['monitoring']?.['control'] as object), history_ms: SMALL_CONSOLE_HISTORY_MS } } : {}),
  },
  logging: { ...bot['logging'], pretty: false, level: 'info' },
};
const botPath = join(dir, 'bot.yaml');
// The local venue's credentials are written into the file: owner-only, as `mmbot run` requires.
writeFileSync(botPath, stringify(botCfg));
chmodSync(botPath, 0o600);

let fills = 0;
let lastStatus = '';
const daemon = start('daemon', ['run', '--config', botPath, '--json'], (text) => {
  try {
    const l = JSON.parse(text) as { msg?: string; level?: string | number };
    if (l.msg?.startsWith('fill ')) fills++;
    else if (l.msg?.includes(' fills ')) lastStatus = l.msg;
    if (l.level === 'error' || l.level === 'fatal' || (typeof l.level === 'number' && l.level >= 50)) {
      daemon.errors++;
      process.stderr.write(`  daemon error: ${l.msg ?? text}\n`);
    }
  } catch {
    /* not JSON: ignore */
  }
});
const procs = [daemon, venue];

const endAt = t0 + minutes * 60_000;
let nextGc = Date.now() + gcEveryS * 1000;
// Heap snapshots (--snapshots): at the end of the warm-up and a tenth of the run before its end.
const snapshotAtMin = snapshots ? [warmupMin, minutes * 0.9] : [];
while (Date.now() < endAt && procs.every((p) => p.child.exitCode === null)) {
  await new Promise((r) => setTimeout(r, Math.min(sampleS * 1000, Math.max(0, endAt - Date.now()))));
  const line: string[] = [];
  for (const p of procs) {
    const r = residentMb(p.child.pid!);
    if (r !== null) p.rss.push({ t: tMin(), mb: r.rss });
    if (r?.anon != null) p.anon.push({ t: tMin(), mb: r.anon });
    const last = (xs: Sample[]): string => xs.at(-1)?.mb.toFixed(1) ?? '?';
    line.push(
      `${p.name} rss=${r?.rss.toFixed(1) ?? '?'} anon=${r?.anon?.toFixed(1) ?? '?'} heap=${last(p.probe.heap_after_gc)}/${last(p.probe.heap_total_after_gc)} ` +
        `(old ${last(p.probe.old_space_after_gc)} new ${last(p.probe.new_space_after_gc)}, resident ${last(p.probe.heap_resident_after_gc)}) ext=${last(p.probe.external_after_gc)} ab=${last(p.probe.array_buffers_after_gc)} other=${last(p.other)} MB`,
    );
  }
  if (snapshotAtMin.length > 0 && tMin() >= snapshotAtMin[0]!) {
    snapshotAtMin.shift();
    for (const p of procs) p.child.kill('SIGTTIN');
    process.stderr.write(`  t=${tMin().toFixed(1)} min: heap snapshots requested\n`);
  }
  if (Date.now() >= nextGc || Date.now() >= endAt - 1000) {
    nextGc = Date.now() + gcEveryS * 1000;
    for (const p of procs) p.child.kill('SIGUSR2');
  }
  process.stderr.write(`  t=${tMin().toFixed(1)} min ${line.join(', ')} fills=${fills}\n`);
}
await new Promise((r) => setTimeout(r, 1000)); // the last heap probes
const early = procs.find((p) => p.child.exitCode !== null);
const stopT = Date.now();
daemon.child.kill('SIGTERM');
const daemonCode = await daemon.exited;
const stopS = (Date.now() - stopT) / 1000;
venue.child.kill('SIGTERM');
const venueCode = await venue.exited;
if (snapshots) {
  for (const p of procs) {
    const files = readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot') && f.includes(`.${p.child.pid}.`)).sort();
    if (files.length < 2) {
      process.stderr.write(`${p.name}: ${files.length} heap snapshot(s), need 2\n`);
      continue;
    }
    const r = heapGrowthByOwner(readHeapSnapshot(join(dir, files[0]!)), readHeapSnapshot(join(dir, files.at(-1)!)));
    process.stdout.write(`\n${p.name}: live-heap growth by owner between the snapshots\n${formatHeapGrowth(r, 12)}\n`);
  }
}
rmSync(dir, { recursive: true, force: true });

const metrics: Record<string, Metric> = {};
for (const p of procs) {
  const steady = (xs: Sample[]): Sample[] => xs.filter((s) => s.t >= warmupMin);
  const slope = (xs: Sample[]): number => {
    const s = steady(xs);
    return linearSlope(s.map((x) => x.t), s.map((x) => x.mb)) * 10;
  };
  const k = `soak.${p.name}`;
  const series: [string, Sample[], boolean][] = [
    ['rss', p.rss, true],
    ['rss_anon', p.anon, false],
    ['heap_after_gc', p.probe.heap_after_gc, true],
    ['heap_total_after_gc', p.probe.heap_total_after_gc, false],
    ['external_after_gc', p.probe.external_after_gc, false],
    ['array_buffers_after_gc', p.probe.array_buffers_after_gc, false],
    ['v8_malloced_after_gc', p.probe.v8_malloced_after_gc, false],
    ['old_space_after_gc', p.probe.old_space_after_gc, false],
    ['new_space_after_gc', p.probe.new_space_after_gc, false],
    ['other_spaces_after_gc', p.probe.other_spaces_after_gc, false],
    ['heap_resident_after_gc', p.probe.heap_resident_after_gc, false],
    ['new_space_resident_after_gc', p.probe.new_space_resident_after_gc, false],
    ['other_after_gc', p.other, false],
  ];
  for (const [name, xs, targeted] of series) {
    if (xs.length === 0) continue;
    metrics[`${k}.${name}_slope_mb_per_10min`] = { value: slope(xs), unit: 'MB/10min', ...(targeted ? { target: `< ${SLOPE_TARGET}` } : {}) };
    metrics[`${k}.${name}_mb_start`] = { value: steady(xs)[0]?.mb ?? NaN, unit: 'MB' };
    metrics[`${k}.${name}_mb_end`] = { value: xs.at(-1)?.mb ?? NaN, unit: 'MB' };
  }
  metrics[`${k}.rss_mb_peak`] = { value: Math.max(...p.rss.map((s) => s.mb)), unit: 'MB' };
}
metrics['soak.minutes'] = { value: minutes, unit: 'min' };
metrics['soak.clock_speed'] = { value: speed, unit: '×' };
if (arenaMax !== undefined) metrics['soak.malloc_arena_max'] = { value: arenaMax, unit: 'arenas' };
metrics['soak.daemon.fills'] = { value: fills, unit: 'fills' };
metrics['soak.daemon.error_lines'] = { value: daemon.errors, unit: 'lines', target: '0' };
metrics['soak.daemon.exit_code'] = { value: daemonCode, unit: 'code', target: '0' };
metrics['soak.venue.exit_code'] = { value: venueCode, unit: 'code', target: '0' };
metrics['soak.daemon.stop_s'] = { value: stopS, unit: 's' };

process.stdout.write(`\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}\n`);
for (const [k, m] of Object.entries(metrics)) {
  process.stdout.write(`${k.padEnd(56)} ${m.value.toFixed(m.unit.startsWith('MB') || m.unit === 's' ? 2 : 0).padStart(9)} ${m.unit}${m.target ? `  (target ${m.target})` : ''}\n`);
}
if (lastStatus) process.stdout.write(`last status: ${lastStatus}\n`);

const failures: string[] = [];
if (early) failures.push(`${early.name} exited early (code ${early.child.exitCode})`);
if (daemonCode !== 0) failures.push(`daemon exit code ${daemonCode}`);
if (venueCode !== 0) failures.push(`venue exit code ${venueCode}`);
if (procs.some((p) => p.rss.length < 3)) failures.push('too few RSS samples');
const resultsPath = join(import.meta.dirname, 'results.json');
if (record) mergeResults(resultsPath, 'soak', failures.length === 0 ? metrics : null, machine);
if (failures.length > 0) {
  process.stdout.write(`soak FAILED: ${failures.join('; ')}${record ? ' (its figures were removed from test/bench/results.json)' : ''}\n`);
  process.exit(1);
}
const over = Object.entries(metrics).filter(([k, m]) => k.endsWith('rss_slope_mb_per_10min') && !(m.value < SLOPE_TARGET));
process.stdout.write(`${record ? `merged ${Object.keys(metrics).length} soak metrics into test/bench/results.json` : 'not recorded (--no-record)'}${over.length ? `; over target: ${over.map(([k]) => k).join(', ')}` : ''}\n`);
process.exit(over.length > 0 ? 1 : 0);
