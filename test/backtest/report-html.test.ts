import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { buildReport } from '../../src/backtest/report.ts';
import { executeRunSpec } from '../../src/backtest/run-spec.ts';
import type { BacktestRun } from '../../src/backtest/runner.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { loadColumnar } from '../../src/record/columnar.ts';
import { nonSnakeKeys } from '../support/snake-keys.ts';
import { ROOT, runSample } from './golden-summary.ts';

/** The venue's example config (maker-only fixed-spread), whose figures these tests quote; the golden run adds taker exits. */
const SAMPLE_CONFIG = 'config/backtest.yaml';

const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');

const cells = (html: string): string[] => [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);

describe('report.html and report.json of the committed sample', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-report-html-'));
  let html = '';
  let json: Record<string, unknown> = {};
  beforeAll(async () => {
    await runSample(dir, SAMPLE_CONFIG);
    html = readFileSync(join(dir, 'report.html'), 'utf8');
    json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Record<string, unknown>;
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('report.json field names are snake_case at every depth (symbols and strategy parameters are data)', () => {
    expect(nonSnakeKeys(json)).toEqual([]);
    expect(nonSnakeKeys({ settings: { queueModel: 1 }, a: [{ b_c: { dE: 1 } }] })).toEqual(['.settings.queueModel', '.a[0].b_c.dE']); // the check bites
    expect(json['settings']).toMatchObject({ queue_model: { kind: 'risk-averse', n: 2 }, rate_limit: { burst: 100, per_second: 10 }, feed: { latency_offset_ms: 0, depth: 'auto', conflate_ms: 0 }, own_orders: 'subtract', sample_ms: 1000 });
    expect((json['engine'] as { intents_sent: unknown }).intents_sent).toEqual({ place: 498, replace: 138, cancel: 1, cancel_all: 1 });
  });

  it('cells hold human figures: no JSON, USD and bps with 2 decimals, shares in %, times in s with 1 decimal', () => {
    const td = cells(html);
    expect(td.length).toBeGreaterThan(30);
    expect(td.filter((c) => c.includes('{'))).toEqual([]);
    expect(td.filter((c) => /\d\.\d{3}/.test(c))).toEqual([]);
    expect(html).toContain('<td>entry 5 ms, response lognormal median 5 ms σ 0.5</td>');
    expect(html).toMatch(/>net PnL \(USD\)<\/th><td>22\.92<\/td>/);
    expect(html).toMatch(/>max drawdown \(USD\) \/ duration<\/th><td>0\.38 \/ 14\.0 s<\/td>/);
    expect(html).toMatch(/>fee rates \(maker \/ taker\)<\/th><td>EURUSD-PERP 0\.00 bps \/ 2\.00 bps \(config\)<\/td>/);
    expect(html).toMatch(/>markout 1 s \/ 10 s \/ 60 s \(bps, \+ = good\)<\/th><td>0\.00 \/ -0\.03 \/ -0\.09 \(1,156 fills at 60 s\)<\/td>/); // -0.0000x bps reads 0.00, not -0.00
    expect(html).toMatch(/>quote uptime two-sided \/ any side<\/th><td>88\.3% \/ 100\.0%<\/td>/);
    expect(html).toMatch(/>Sortino \(one day, from per-minute PnL\)<\/th><td>n\/a \(7 periods; needs 30\)<\/td>/);
  });

  it('charts come first, a single symbol gets no per-symbol section, and every row explains itself', () => {
    const firstTable = html.indexOf('<table');
    const charts = [...html.matchAll(/<svg[^>]*aria-label="([^"]*)"/g)].map((m) => [m[1]!, m.index]);
    expect(charts.map(([l]) => String(l).split(':')[0])).toEqual(['Price', 'Inventory (contracts)', 'Cumulative PnL by source (USD)', 'Markout curve']);
    expect(charts.every(([, at]) => Number(at) < firstTable)).toBe(true);
    expect([...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual(['Results', 'PnL, fills and quoting', 'Run', 'Definitions']);
    const th = [...html.matchAll(/<th( title="[^"]+")?>([^<]*)<\/th>/g)];
    expect(th.length).toBe(cells(html).length);
    expect(th.filter((m) => m[1] === undefined).map((m) => m[2])).toEqual([]);
    const terms = [...html.matchAll(/<dt>([^<]*)<\/dt>/g)].map((m) => m[1]);
    expect(terms).toEqual(expect.arrayContaining(['Sortino', 'Fill ratio', 'Cancel-to-fill', 'Markouts', 'Volume from book crossings', 'Sharpe']));
  });
});

describe('cumulative PnL by source', () => {
  let run: BacktestRun;
  beforeAll(async () => {
    // The sample with fees charged, so all four parts move.
    const setup = await loadBacktestSetup(join(ROOT, SAMPLE_CONFIG));
    const spec = { ...setup.spec, settings: { ...setup.spec.settings, fees: { maker: 0.0001, taker: 0.0003 } } };
    run = await executeRunSpec(spec, await loadColumnar([SAMPLE]), setup.config.source.dir);
  }, 60_000);

  it('spread capture + inventory + fees + funding is the equity at every sample, exactly; the last sample is the report\'s split', () => {
    const o = { equity: run.observer.equity.toArray() };
    const parts = run.observer.pnlParts;
    const p = { spread: parts.spread.toArray(), inventory: parts.inventory.toArray(), fees: parts.fees.toArray(), funding: parts.funding.toArray(), rewards: parts.rewards.toArray() };
    expect([p.spread.length, p.inventory.length, p.fees.length, p.funding.length, p.rewards.length]).toEqual(Array(5).fill(o.equity.length));
    expect(o.equity.length).toBe(480);
    const off: number[] = [];
    for (let k = 0; k < o.equity.length; k++) {
      const sum = new Decimal(p.spread[k]!).plus(p.inventory[k]!).plus(p.fees[k]!).plus(p.funding[k]!);
      if (!sum.eq(o.equity[k]!)) off.push(k);
    }
    expect(off).toEqual([]);
    const total = buildReport(run).total;
    const r = total.pnl;
    const last = (a: number[]): string => a.at(-1)!.toFixed(6);
    expect([last(p.spread), last(p.inventory), last(p.fees), last(p.funding), last(p.rewards), last(o.equity)]).toEqual([r.spread_capture, r.inventory, r.fees, r.funding, r.estimated_rewards, r.net]);
    expect(total.fills.taker).toBe(0);
    expect(r.fees).toBe(new Decimal(total.fills.notional_usd).mul(-0.0001).toFixed(6)); // 1 bp of the (all maker) notional
    expect(Number(r.funding)).not.toBe(0);
  });
});
