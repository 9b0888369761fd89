import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createBotMetrics } from '../../src/obs/metrics.ts';
import { registerProcessMetrics } from '../../src/obs/process-metrics.ts';
import { createRewardMetrics } from '../../src/obs/reward-metrics.ts';
import { needs, which } from '../setup/system-deps.ts';

/**
 * The alert rules of deploy/prometheus/ (issue 23): promtool checks them and runs their unit tests
 * (mmbot-alerts.test.yml: input series for every alert); every metric they read is one the daemon
 * exports; every alert has a runbook line and a unit test.
 */
const DIR = new URL('../../deploy/prometheus/', import.meta.url).pathname;
const RULES = `${DIR}mmbot-alerts.yml`;
const UNIT_TESTS = `${DIR}mmbot-alerts.test.yml`;

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
const rules = (): Rule[] => (parse(readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

function promtool(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(which('promtool')!, args, { cwd: DIR, timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}${stderr}` })),
  );
}

describe('alert rules (deploy/prometheus/mmbot-alerts.yml)', () => {
  it('has the alerts an operator is paged by, each with a severity, a summary and a runbook line', () => {
    const rs = rules();
    expect(rs.map((r) => r.alert)).toEqual([
      'MmbotKillSwitchTripped',
      'MmbotDisconnected',
      'MmbotStaleMarketData',
      'MmbotRateLimited',
      'MmbotNotQuoting',
      'MmbotQuotesNothing',
      'MmbotPositionNearLimit',
      'MmbotPositionMismatch',
      'MmbotUnknownFills',
      'MmbotMemoryGrowth',
      'MmbotOrderBudgetNearLimit',
      'MmbotMarketDataSuspect',
      'MmbotTargetDown',
    ]);
    for (const r of rs) {
      expect(['critical', 'warning'], r.alert).toContain(r.labels.severity);
      expect(r.annotations.summary, r.alert).toMatch(/\{\{ \$labels\.instance \}\}/);
      expect(r.annotations.runbook?.length ?? 0, r.alert).toBeGreaterThan(40);
    }
    const byName = new Map(rs.map((r) => [r.alert, r]));
    expect(byName.get('MmbotDisconnected')!.for).toBe('30s');
    expect(byName.get('MmbotNotQuoting')!.for).toBe('60s');
    expect(byName.get('MmbotRateLimited')!.expr).toContain('[5m]');
    expect(byName.get('MmbotPositionNearLimit')!.expr).toContain('0.8 * mmbot_position_limit_contracts');
  });

  it('reads only metrics the daemon exports', () => {
    const reg = new Registry();
    createBotMetrics(reg);
    registerProcessMetrics(reg).stop();
    createRewardMetrics(reg);
    const exported = new Set(reg.getMetricsAsArray().map((m) => m.name));
    const used = new Set(rules().flatMap((r) => r.expr.match(/\bmmbot_[a-z0-9_]+/g) ?? []));
    expect([...used].sort()).toEqual([
      'mmbot_connection_up',
      'mmbot_kill_switch_engaged',
      'mmbot_market_data_staleness_seconds',
      'mmbot_md_suspect',
      'mmbot_no_quotes_seconds',
      'mmbot_open_orders',
      'mmbot_order_budget_limit',
      'mmbot_orders_counted',
      'mmbot_position_contracts',
      'mmbot_position_limit_contracts',
      'mmbot_position_mismatches_total',
      'mmbot_process_memory_bytes',
      'mmbot_process_uptime_seconds',
      'mmbot_quote_expected',
      'mmbot_unknown_fills_total',
      'mmbot_venue_backoffs_total',
    ]);
    expect([...used].filter((m) => !exported.has(m))).toEqual([]);
  });

  it('every alert has unit tests with input series', () => {
    const tests = (parse(readFileSync(UNIT_TESTS, 'utf8')) as { tests: { input_series: unknown[]; alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
    const firing = new Set(tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)));
    const quiet = new Set(tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length === 0).map((a) => a.alertname)));
    for (const r of rules()) {
      expect(firing.has(r.alert), `${r.alert} has a test where it fires`).toBe(true);
      expect(quiet.has(r.alert), `${r.alert} has a test where it does not`).toBe(true);
    }
  });

  it.skipIf(!needs('prometheus'))('promtool check rules passes', async () => {
    const r = await promtool(['check', 'rules', RULES]);
    expect(r.output).toContain('SUCCESS: 13 rules found');
    expect(r.code).toBe(0);
  });

  it.skipIf(!needs('prometheus'))('promtool test rules passes (mmbot-alerts.test.yml)', async () => {
    const r = await promtool(['test', 'rules', UNIT_TESTS]);
    expect(r.output).toContain('SUCCESS');
    expect(r.output).not.toContain('FAILED');
    expect(r.code).toBe(0);
  });
});
