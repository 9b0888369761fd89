import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './bot-harness.ts';
import { dashboardExprs } from './dashboard.ts';
import { freePort, startPrometheus, type PromAlert, type TestPrometheus } from './prometheus.ts';
import { needs } from '../setup/system-deps.ts';

/**
 * The alert rules against the real thing (issue 23): a real Prometheus loads
 * deploy/prometheus/mmbot-alerts.yml and scrapes a spawned `mmbot run` (embedded local venue, one
 * quoting strategy); the operator trips the kill switch through the control API, and
 * MmbotKillSwitchTripped is seen firing in Prometheus's /api/v1/alerts.
 */
const HAS_PROMETHEUS = needs('prometheus');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULES = join(ROOT, 'deploy/prometheus/mmbot-alerts.yml');
const TOKEN = 'alerts-test-token-0123456789abcdef'; // 32+ characters: shorter control tokens are refused
let daemon: ChildProcess | undefined;
let daemonLog = '';
let base = '';
let dir = '';
let prom: TestPrometheus | undefined;

beforeAll(async () => {
  if (!HAS_PROMETHEUS) return;
  dir = mkdtempSync(join(tmpdir(), 'mmbot-alerts-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'bot.yaml'),
    [
      'venue:',
      '  mode: embedded-sim',
      '  sim: { seed: 7, synthetic_market: true }',
      'bot:',
      '  strategies:',
      '    - { id: aapl, symbol: AAPL-PERP, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 2, size: 1 } }',
      `monitoring: { enabled: true, host: 127.0.0.1, port: ${port}, control: { token: "\${MMBOT_ALERTS_TOKEN}" } }`, // from the environment, as a secret should be
      'logging: { level: warn, pretty: false }',
      '',
    ].join('\n'),
  );
  base = `http://127.0.0.1:${port}`;
  daemon = spawn(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'run', '--config', join(dir, 'bot.yaml')], { cwd: ROOT, env: { ...process.env, MMBOT_ALERTS_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
  daemon.stdout?.on('data', (d: Buffer) => (daemonLog += d.toString()));
  daemon.stderr?.on('data', (d: Buffer) => (daemonLog += d.toString()));
  await until(
    async () => {
      if (daemon!.exitCode !== null) throw new Error(`mmbot run exited with ${daemon!.exitCode}:\n${daemonLog}`);
      return fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
    },
    25_000,
    'mmbot run to be ready',
  ).catch((e: Error) => {
    throw new Error(`${e.message}\n${daemonLog}`);
  });
  prom = await startPrometheus([`127.0.0.1:${port}`], { ruleFiles: [RULES] });
}, 45_000);

afterAll(async () => {
  await prom?.stop();
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((r) => daemon!.once('exit', r));
    daemon.kill('SIGTERM');
    const t = setTimeout(() => daemon!.kill('SIGKILL'), 8_000);
    await exited;
    clearTimeout(t);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 20_000);

async function waitForAlert(p: TestPrometheus, name: string, state: PromAlert['state'], timeoutMs: number): Promise<PromAlert> {
  let last: PromAlert[] = [];
  const end = Date.now() + timeoutMs;
  for (;;) {
    last = await p.alerts();
    const a = last.find((x) => x.labels.alertname === name && x.state === state);
    if (a) return a;
    if (Date.now() > end) throw new Error(`${name} not ${state} within ${timeoutMs} ms; alerts: ${JSON.stringify(last)}\n${p.logs()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!HAS_PROMETHEUS)('alert rules on a real Prometheus scraping the daemon', () => {
  it('the rules load, nothing fires while the bot quotes, and MmbotKillSwitchTripped fires when the kill switch trips', async () => {
    const p = prom!;
    // The rules are loaded (one group, every alert inactive) and the engaged gauge reads 0.
    const rules = (await (await fetch(`${p.url}/api/v1/rules?type=alert`)).json()) as { data: { groups: { name: string; rules: { name: string; health: string }[] }[] } };
    expect(rules.data.groups.map((g) => g.name)).toEqual(['mmbot']);
    expect(rules.data.groups[0]!.rules).toHaveLength(13);
    await p.waitFor('mmbot_kill_switch_engaged', (r) => r.length === 1 && r[0]!.value[1] === '0');
    await p.waitFor('sum(mmbot_open_orders)', (r) => r.length === 1 && Number(r[0]!.value[1]) === 2);
    expect((await p.alerts()).filter((a) => a.labels.alertname === 'MmbotKillSwitchTripped')).toEqual([]);

    const r = await fetch(`${base}/api/v1/kill-switch/trip`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ detail: 'alert test' }),
    });
    const body = (await r.json()) as { ok: boolean; message: string };
    expect(body).toEqual({ ok: true, message: 'kill switch tripped: every quote pulled (alert test)' });

    const firing = await waitForAlert(p, 'MmbotKillSwitchTripped', 'firing', 20_000);
    expect(firing.labels).toEqual({ alertname: 'MmbotKillSwitchTripped', severity: 'critical', instance: new URL(base).host, job: 'mmbot' });
    expect(firing.annotations.summary).toBe(`mmbot ${new URL(base).host}: kill switch tripped, quoting halted`);
    expect(firing.value).toBe('1e+00');
    // The quotes are pulled: the venue holds none of our orders.
    await p.waitFor('sum(mmbot_open_orders)', (x) => x.length === 1 && x[0]!.value[1] === '0');
    // The dashboard's alert panels show it: 2 = firing on the state timeline, 1 firing alert.
    const alertExprs = dashboardExprs().filter((e) => e.includes('ALERTS{'));
    expect(alertExprs).toHaveLength(2);
    const timeline = await p.query(alertExprs[0]!);
    expect(timeline.map((x) => [x.metric['alertname'], x.value[1]])).toEqual([['MmbotKillSwitchTripped', '2']]);
    const count = await p.query(alertExprs[1]!);
    expect(count.map((x) => x.value[1])).toEqual(['1']);
  }, 60_000);
});
