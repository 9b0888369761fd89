import { readFileSync } from 'node:fs';

/** Every query expression of deploy/grafana/mmbot-dashboard.json, Grafana variables replaced so Prometheus can run it. */
export function dashboardExprs(): string[] {
  const dash = JSON.parse(readFileSync(new URL('../../deploy/grafana/mmbot-dashboard.json', import.meta.url), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  return dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr.replaceAll('$__rate_interval', '5s').replaceAll('$instance', '.*').replaceAll('$symbol', '.*')));
}
