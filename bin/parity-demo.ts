/**
 * `npm run parity:demo [-- --minutes N --out DIR --tolerance F --config FILE]`: the live-vs-replay
 * parity run of the demo. Starts `mmbot run` with the demo config (config/demo.yaml: the local venue
 * embedded, fixed-spread on EURUSD-PERP) and recording on for N minutes (default 10), stops it like
 * an operator would (SIGINT: cancel all, confirm), then runs `mmbot backtest --parity` on the
 * recording with the same config and prints the side-by-side table. Exits with the backtest's code:
 * 0 within tolerance (fills and spread capture, default ±20%), 1 beyond it, 2 on bad usage.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mmbot = join(root, 'bin', 'mmbot.js');

function arg(name: string): string | undefined {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

const minutes = Number(arg('minutes') ?? process.env['PARITY_MINUTES'] ?? 10);
const tolerance = arg('tolerance') ?? '0.2';
const source = resolve(arg('config') ?? join(root, 'config', 'demo.yaml'));
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const out = resolve(arg('out') ?? join(root, 'backtests', `parity-${stamp}`));
if (!(minutes > 0)) {
  process.stderr.write(`--minutes must be > 0, got ${arg('minutes')}\n`);
  process.exit(2);
}
mkdirSync(out, { recursive: true });

// The demo config, recording into the output folder; monitoring off (another bot may hold port 9464).
const cfg = parse(readFileSync(source, 'utf8')) as Record<string, unknown>;
const recording = join(out, 'live.jsonl.gz');
cfg['recording'] = { path: recording, funding_poll_ms: 30_000 };
cfg['monitoring'] = { enabled: false };
cfg['logging'] = { level: 'warn', pretty: false };
cfg['bot'] = { ...(cfg['bot'] as object), status_interval_ms: 0 };
const config = join(out, 'parity.yaml');
writeFileSync(config, stringify(cfg));

const run = (args: string[], opts: { inherit: boolean }) => spawn(process.execPath, [mmbot, ...args], { stdio: ['ignore', opts.inherit ? 'inherit' : 'pipe', 'inherit'], cwd: root });
const exited = (child: ReturnType<typeof run>): Promise<number> => new Promise((r) => child.on('exit', (code, signal) => r(code ?? (signal ? 1 : 0))));

process.stdout.write(`parity demo: trading ${source} on the local venue for ${minutes} min, recording to ${recording}\n`);
const daemon = run(['run', '--config', config], { inherit: true });
const daemonExit = exited(daemon);
const t0 = Date.now();
const totalMs = minutes * 60_000;
const done = await new Promise<'time' | 'exited'>((resolveWait) => {
  const tick = setInterval(() => process.stdout.write(`  ${((Date.now() - t0) / 60_000).toFixed(1)} / ${minutes} min\n`), 60_000);
  const timer = setTimeout(() => {
    clearInterval(tick);
    resolveWait('time');
  }, totalMs);
  void daemonExit.then(() => {
    clearInterval(tick);
    clearTimeout(timer);
    resolveWait('exited');
  });
});
if (done === 'exited') {
  process.stderr.write(`the daemon exited early (code ${await daemonExit}); no parity run\n`);
  process.exit(1);
}
daemon.kill('SIGINT'); // graceful: cancel everything, wait for the venue, close the recording
const code = await daemonExit;
if (code !== 0) process.stderr.write(`warning: the daemon exited ${code} on SIGINT\n`);

process.stdout.write(`replaying ${recording} with the same config (mmbot backtest --parity)\n`);
const bt = run(['backtest', '--config', config, '--parity', recording, '--out', join(out, 'report'), '--tolerance', tolerance, '--no-cache'], { inherit: true });
process.exit(await exited(bt));
