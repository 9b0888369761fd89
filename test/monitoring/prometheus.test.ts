import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot, until, type TestBot } from './bot-harness.ts';
import { dashboardExprs } from './dashboard.ts';
import { startPrometheus, type TestPrometheus } from './prometheus.ts';
import { PROMETHEUS_MISSING, promtoolCheckMetrics, which } from './promtool.ts';

/**
 * A real Prometheus (Debian's package) scrapes a bot quoting against the local venue, and the
 * series come back through Prometheus's HTTP API. Prometheus missing is a failure, not a skip:
 * CI installs it (.ci/run).
 */
const SYMBOL = 'AAPL-PERP';
let bot: TestBot | undefined;
let prom: TestPrometheus | undefined;

beforeAll(async () => {
  if (!which('prometheus') || !which('promtool')) throw new Error(PROMETHEUS_MISSING);
  bot = await startTestBot({
    symbol: SYMBOL,
    venueConfig: { instruments: { only: [SYMBOL] } },
    strategyParams: { levels: 2, halfSpreadTicks: 1, size: 1 },
  });
  const target = new URL(bot.monitoring.url!).host;
  prom = await startPrometheus([target]);
}, 30_000);

afterAll(async () => {
  await prom?.stop();
  await bot?.stop();
}, 20_000);

describe('Prometheus scraping a bot on the local venue', () => {
  it('prometheus is installed (CI installs it; a missing binary fails here with the install hint)', () => {
    expect(which('prometheus'), PROMETHEUS_MISSING).not.toBeNull();
    expect(which('promtool'), PROMETHEUS_MISSING).not.toBeNull();
  });

  it('the bot quotes and /metrics passes promtool check metrics', async () => {
    const b = bot!;
    await until(() => b.engine.snapshot().symbols.some((s) => s.working.some((w) => w.status === 'open')), 15_000, 'open quotes');
    const text = await (await fetch(`${b.monitoring.url}/metrics`)).text();
    expect(text).toContain(`mmbot_open_orders{symbol="${SYMBOL}",side="buy"}`);
    const check = await promtoolCheckMetrics(text);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  });

  it('position, open-orders and latency series read back through the Prometheus HTTP API', async () => {
    const p = prom!;
    const up = await p.waitFor('up{job="mmbot"}', (r) => r.length === 1 && r[0]!.value[1] === '1');
    expect(up[0]!.metric['instance']).toBe(new URL(bot!.monitoring.url!).host);

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
  });

  it('every Grafana dashboard query parses and runs on this Prometheus', async () => {
    const failures: string[] = [];
    for (const expr of dashboardExprs()) await prom!.query(expr).catch((e: Error) => failures.push(e.message));
    expect(failures).toEqual([]);
  });
});
