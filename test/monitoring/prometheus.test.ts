import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './bot-harness.ts';
import { dashboardExprs } from './dashboard.ts';
import { freePort, startPrometheus, type TestPrometheus } from './prometheus.ts';
import { needs } from '../setup/system-deps.ts';
import { promtoolCheckMetrics } from './promtool.ts';

/**
 * A real Prometheus (Debian's package) scrapes `mmbot run` (spawned, embedded local venue, one
 * quoting strategy), and the series come back through Prometheus's HTTP API. The test setup installs
 * Prometheus when it can; otherwise this file is skipped with a loud line (CI requires it: .ci/run).
 */
const HAS_PROMETHEUS = needs('prometheus');
const SYMBOL = 'AAPL-PERP';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let daemon: ChildProcess | undefined;
let daemonLog = '';
let metricsUrl = '';
let dir = '';
let prom: TestPrometheus | undefined;

/** The config the spawned `mmbot run` uses: the embedded venue, one quoting strategy, metrics on `port`. */
function daemonConfig(port: number): string {
  return [
    'venue:',
    '  mode: embedded-sim',
    '  sim: { seed: 7, synthetic_market: true }',
    'bot:',
    '  strategies:',
    `    - { id: aapl, symbol: ${SYMBOL}, strategy: fixed-spread, params: { levels: 2, halfSpreadTicks: 1, size: 1 } }`,
    'monitoring: { enabled: true, host: 127.0.0.1, port: ' + port + ' }',
    'logging: { level: warn, pretty: false }',
    '',
  ].join('\n');
}

beforeAll(async () => {
  if (!HAS_PROMETHEUS) return;
  dir = mkdtempSync(join(tmpdir(), 'mmbot-run-'));
  const port = await freePort();
  writeFileSync(join(dir, 'bot.yaml'), daemonConfig(port));
  metricsUrl = `http://127.0.0.1:${port}`;
  daemon = spawn(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'run', '--config', join(dir, 'bot.yaml')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  daemon.stdout?.on('data', (d: Buffer) => (daemonLog += d.toString()));
  daemon.stderr?.on('data', (d: Buffer) => (daemonLog += d.toString()));
  await until(
    async () => {
      if (daemon!.exitCode !== null) throw new Error(`mmbot run exited with ${daemon!.exitCode}:\n${daemonLog}`);
      return fetch(`${metricsUrl}/readyz`).then((r) => r.status === 200, () => false);
    },
    25_000,
    'mmbot run to be ready',
  ).catch((e: Error) => {
    throw new Error(`${e.message}\n${daemonLog}`);
  });
  prom = await startPrometheus([`127.0.0.1:${port}`]);
}, 45_000);

afterAll(async () => {
  await prom?.stop();
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((r) => daemon!.once('exit', r));
    daemon.kill('SIGTERM'); // the daemon cancels its orders and exits
    const t = setTimeout(() => daemon!.kill('SIGKILL'), 8_000);
    await exited;
    clearTimeout(t);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 20_000);

describe.skipIf(!HAS_PROMETHEUS)('Prometheus scraping a bot on the local venue', () => {
  it('the bot quotes and /metrics passes promtool check metrics', async () => {
    let text = '';
    await until(async () => /mmbot_open_orders\{[^}]*\} [1-9]/.test((text = await (await fetch(`${metricsUrl}/metrics`)).text())), 15_000, 'open quotes');
    expect(text).toContain(`mmbot_open_orders{symbol="${SYMBOL}",side="buy"}`);
    const check = await promtoolCheckMetrics(text);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  });

  it('position, open-orders and latency series read back through the Prometheus HTTP API', async () => {
    const p = prom!;
    const up = await p.waitFor('up{job="mmbot"}', (r) => r.length === 1 && r[0]!.value[1] === '1');
    expect(up[0]!.metric['instance']).toBe(new URL(metricsUrl).host);

    const open = await p.waitFor(`sum(mmbot_open_orders{symbol="${SYMBOL}"})`, (r) => r.length === 1 && Number(r[0]!.value[1]) > 0);
    expect(Number(open[0]!.value[1])).toBeGreaterThanOrEqual(2);

    const pos = await p.waitFor(`mmbot_position_contracts{symbol="${SYMBOL}"}`, (r) => r.length === 1);
    // Position is whole contracts, within the engine's default position limit.
    expect(Number.isInteger(Number(pos[0]!.value[1]))).toBe(true);
    expect(Math.abs(Number(pos[0]!.value[1]))).toBeLessThanOrEqual(100);
    const notional = await p.query(`mmbot_notional_usd{symbol="${SYMBOL}"}`);
    expect(notional).toHaveLength(1);

    const rt = await p.waitFor('sum(mmbot_order_round_trip_latency_seconds_count)', (r) => r.length === 1 && Number(r[0]!.value[1]) > 0);
    expect(Number(rt[0]!.value[1])).toBeGreaterThan(0);
    const buckets = await p.query('sum by (le) (mmbot_order_round_trip_latency_seconds_bucket)');
    expect(buckets.map((x) => x.metric['le'])).toContain('+Inf');

    const t2i = await p.waitFor('sum(mmbot_tick_to_intent_latency_seconds_count)', (r) => r.length === 1 && Number(r[0]!.value[1]) > 0);
    expect(Number(t2i[0]!.value[1])).toBeGreaterThan(0);

    const lag = await p.query('mmbot_event_loop_lag_seconds');
    expect(lag).toHaveLength(1);
    const mem = await p.query('mmbot_process_memory_bytes{kind="rss"}');
    expect(Number(mem[0]!.value[1])).toBeGreaterThan(1e6);

    // The rate budget is fed from the engine's executor: a capacity per budget, remaining ≤ capacity.
    const cap = await p.query('mmbot_rate_limiter_capacity_requests');
    expect(cap.length).toBeGreaterThan(0);
    const left = await p.query('mmbot_rate_limiter_budget_requests');
    expect(Number(left[0]!.value[1])).toBeLessThanOrEqual(Number(cap[0]!.value[1]));
  });

  it('every Grafana dashboard query parses and runs on this Prometheus', async () => {
    const failures: string[] = [];
    for (const expr of dashboardExprs()) await prom!.query(expr).catch((e: Error) => failures.push(e.message));
    expect(failures).toEqual([]);
  });
});
