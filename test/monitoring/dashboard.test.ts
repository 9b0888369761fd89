import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createBotMetrics } from '../../src/obs/metrics.ts';
import { registerProcessMetrics } from '../../src/obs/process-metrics.ts';
import { createRewardMetrics } from '../../src/obs/reward-metrics.ts';
import { dashboardExprs } from './dashboard.ts';
import { needs, which } from '../setup/system-deps.ts';

const ROOT = new URL('../../', import.meta.url);

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string }[];
}

describe('Grafana dashboard and Prometheus config', () => {
  it('the dashboard is valid JSON with unique panel ids inside a 24-column grid', () => {
    const dash = JSON.parse(readFileSync(new URL('deploy/grafana/mmbot-dashboard.json', ROOT), 'utf8')) as { uid: string; panels: Panel[]; templating: { list: { name: string }[] } };
    expect(dash.uid).toBe('mmbot-overview');
    const ids = dash.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dash.panels) expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
    expect(dash.templating.list.map((v) => v.name)).toEqual(['datasource', 'instance', 'symbol']);
  });

  it('every metric the dashboard queries is one the bot exports', () => {
    const reg = new Registry();
    createBotMetrics(reg);
    registerProcessMetrics(reg).stop();
    createRewardMetrics(reg);
    const exported = new Set(reg.getMetricsAsArray().flatMap((m) => [m.name, `${m.name}_bucket`, `${m.name}_count`, `${m.name}_sum`]));
    const used = new Set(dashboardExprs().flatMap((e) => e.match(/\bmmbot_[a-z0-9_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(25);
    expect([...used].filter((m) => !exported.has(m))).toEqual([]);
    // And the reverse: nothing the bot exports is missing from the dashboard (except the internals below).
    const shown = new Set([...used].map((m) => m.replace(/_(bucket|count|sum)$/, '')));
    const notShown = reg.getMetricsAsArray().map((m) => m.name).filter((n) => !shown.has(n));
    expect(notShown).toEqual(['mmbot_filled_contracts_total']);
  });

  it.skipIf(!needs('prometheus'))('the example scrape config passes promtool check config', async () => {
    const promtool = which('promtool')!;
    const path = new URL('deploy/prometheus/prometheus.yml', ROOT).pathname;
    const out = await new Promise<{ code: number; text: string }>((resolve) =>
      execFile(promtool, ['check', 'config', path], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, text: `${stdout}${stderr}` })),
    );
    expect(out.text).toContain('SUCCESS');
    expect(out.code).toBe(0);
  });
});
