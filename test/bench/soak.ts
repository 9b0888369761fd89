/**
 * `npm run soak -- --minutes N [--config config/demo.yaml] [--sample-s 10]`: runs the demo daemon
 * (embedded local venue + bot, one process) for N minutes, samples its resident memory, then stops
 * it with SIGTERM and checks it exits 0. Reports `daemon.rss_mb` (at the end; target < 150 MB
 * after 10 minutes) and the growth rate over the second half (flat = near 0), merged into
 * test/bench/results.json. Not part of `npm run bench`: it takes minutes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parse, stringify } from 'yaml';
import { parseArgs, flagNumber, flagString } from '../../src/cli/args.ts';
import type { Metric } from './bench-kit.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const args = parseArgs(process.argv.slice(2), { valued: ['minutes', 'config', 'sample-s'] });
const minutes = flagNumber(args, 'minutes') ?? 10;
const sampleS = flagNumber(args, 'sample-s') ?? Math.min(10, Math.max(1, (minutes * 60) / 30));
const source = resolve(flagString(args, 'config') ?? join(ROOT, 'config/demo.yaml'));

// A copy of the demo config with metrics on any free port and JSON logs (we parse them).
const dir = mkdtempSync(join(tmpdir(), 'mmbot-soak-'));
const doc = parse(readFileSync(source, 'utf8')) as Record<string, Record<string, unknown>>;
doc['monitoring'] = { ...doc['monitoring'], port: 0 };
doc['logging'] = { ...doc['logging'], pretty: false, level: 'info' };
const configPath = join(dir, 'soak.yaml');
writeFileSync(configPath, stringify(doc));

function rssMb(pid: number): number | null {
  try {
    if (existsSync(`/proc/${pid}/status`)) {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : null;
    }
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;
  } catch {
    return null;
  }
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

process.stderr.write(`soak: ${minutes} min of ${source} (sampling every ${sampleS} s)\n`);
const child = spawn(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'run', '--config', configPath, '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
let fills = 0;
let lastStatus = '';
let errors = 0;
createInterface({ input: child.stdout! }).on('line', (text) => {
  try {
    const l = JSON.parse(text) as { msg?: string; level?: string };
    if (l.msg?.startsWith('fill ')) fills++;
    else if (l.msg?.includes(' fills ')) lastStatus = l.msg;
    if (l.level === 'error' || l.level === 'fatal') {
      errors++;
      process.stderr.write(`  daemon error: ${l.msg ?? text}\n`);
    }
  } catch {
    /* not JSON: ignore */
  }
});
const exited = new Promise<number>((r) => child.on('exit', (code, sig) => r(code ?? (sig ? 128 : -1))));

const t0 = Date.now();
const samples: { tMin: number; mb: number }[] = [];
const endAt = t0 + minutes * 60_000;
while (Date.now() < endAt && child.exitCode === null) {
  await new Promise((r) => setTimeout(r, Math.min(sampleS * 1000, Math.max(0, endAt - Date.now()))));
  const mb = rssMb(child.pid!);
  if (mb !== null) {
    samples.push({ tMin: (Date.now() - t0) / 60_000, mb });
    process.stderr.write(`  t=${samples.at(-1)!.tMin.toFixed(1)} min rss=${mb.toFixed(1)} MB fills=${fills}\n`);
  }
}
const stopT = Date.now();
child.kill('SIGTERM');
const code = await exited;
const stopS = (Date.now() - stopT) / 1000;
rmSync(dir, { recursive: true, force: true });

const second = samples.filter((s) => s.tMin >= minutes / 2);
const growthPer10Min = slope(second.map((s) => s.tMin), second.map((s) => s.mb)) * 10;
const last = samples.at(-1)?.mb ?? NaN;
const peak = Math.max(...samples.map((s) => s.mb));
const metrics: Record<string, Metric> = {
  'daemon.rss_mb': { value: last, unit: 'MB', target: '< 150 after 10 min' },
  'daemon.rss_mb_peak': { value: peak, unit: 'MB' },
  'daemon.rss_growth_mb_per_10min': { value: growthPer10Min, unit: 'MB/10min', target: '≈ 0 (flat), second half' },
  'daemon.soak_minutes': { value: minutes, unit: 'min' },
  'daemon.soak_fills': { value: fills, unit: 'fills' },
  'daemon.soak_errors': { value: errors, unit: 'lines' },
  'daemon.soak_exit_code': { value: code, unit: 'code', target: '0' },
  'daemon.soak_stop_s': { value: stopS, unit: 's' },
};

process.stdout.write(`\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}\n`);
for (const [k, m] of Object.entries(metrics)) process.stdout.write(`${k.padEnd(34)} ${m.value.toFixed(m.unit.startsWith('MB') || m.unit === 's' ? 1 : 0).padStart(8)} ${m.unit}${m.target ? `  (target ${m.target})` : ''}\n`);
if (lastStatus) process.stdout.write(`last status: ${lastStatus}\n`);

const resultsPath = join(import.meta.dirname, 'results.json');
const existing = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, unknown>) : {};
for (const [k, m] of Object.entries(metrics)) existing[k] = { value: Number(m.value.toFixed(3)), unit: m.unit };
writeFileSync(resultsPath, `${JSON.stringify(existing, null, 2)}\n`);
process.stdout.write(`merged ${Object.keys(metrics).length} metrics into test/bench/results.json\n`);
process.exit(code === 0 ? 0 : 1);
