import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { BacktestReport } from '../../src/backtest/report.ts';
import { dataProvenance, killSwitchReport } from '../../src/backtest/report-stops.ts';
import type { RecordingHeader } from '../../src/record/format.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-stops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a backtest never hides a stop', () => {
  it('a kill switch that trips is named, with when, why and the share of the window, in the summary, report.json and report.html', async () => {
    // The committed sample with an order budget of 60 a minute: the quoter (about 80 a minute) trips it.
    const base = readFileSync(join(ROOT, 'config/backtest.yaml'), 'utf8')
      .replace('../data/sample/eurusd-perp-local.jsonl.gz', join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz'))
      .replace('risk:\n', 'risk:\n  max_orders_per_minute: 60\n');
    const cfg = join(dir, 'ks.yaml');
    writeFileSync(cfg, base);
    const out = join(dir, 'out');
    const r = await promisify(execFile)(process.execPath, ['bin/mmbot.js', 'backtest', '--config', cfg, '--out', out], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });
    const lines = r.stdout.split('\n');
    // Provenance and the limits come first, then the trips, before any PnL figure.
    expect(lines[0]).toBe('data: synthetic (local venue (simulated market); L2; EURUSD-PERP; fees from EURUSD-PERP: config)');
    expect(lines[1]).toContain('orders/min 60');
    expect(lines[2]).toMatch(/^KILL SWITCH TRIPPED at 15:56:58 UTC \(\+55\.4 s\): order-budget: 60 orders in the last minute/);
    const netLine = lines.findIndex((l) => l.startsWith('net '));
    const tripLines = lines.filter((l) => l.startsWith('KILL SWITCH TRIPPED'));
    expect(tripLines.length).toBe(6);
    expect(lines.findIndex((l) => l.includes('the bot was stopped for'))).toBeLessThan(netLine);

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as BacktestReport;
    const ks = report.engine.kill_switch;
    expect(report.engine.kill_switch_trips).toBe(6);
    expect(ks.trips.map((t) => t.reason)).toEqual(Array(6).fill('order-budget'));
    expect(ks.trips.at(-1)!.cleared_at_ms).toBeNull(); // still tripped when the window ended
    expect(ks.paused_share).toBeGreaterThan(0.3);
    expect(ks.paused_share).toBeLessThan(0.6);
    expect(report.data[0]).toMatchObject({ kind: 'synthetic', source: 'local-venue' });
    expect(report.limits).toMatchObject({ max_position: 2000, kill_switch: { max_orders_per_minute: 60 } });

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('id="kill-switch"');
    expect(html).toContain('Kill switch tripped 6 time(s)');
    expect(html).toContain('kill switch tripped'); // the marker on the PnL chart
    expect(html.indexOf('id="kill-switch"')).toBeLessThan(html.indexOf('<svg'));
  }, 90_000);
});

describe('stop and provenance figures', () => {
  it('paused time is clipped to the window; a trip still open runs to its end', () => {
    const k = killSwitchReport(
      [
        { trippedAtMs: 500, reason: 'drawdown', detail: 'd', action: 'pause', clearedAtMs: 2_000, clearedBy: 'manual-reset' },
        { trippedAtMs: 9_000, reason: 'reject-storm', detail: 'r', action: 'stop', clearedAtMs: null, clearedBy: null },
      ],
      1_000,
      11_000,
    );
    expect(k.paused_s).toBe(3); // 1 s (1,000..2,000) + 2 s (9,000..11,000)
    expect(k.paused_share).toBe(0.3);
    expect(k.trips[1]).toEqual({ at_ms: 9_000, reason: 'reject-storm', detail: 'r', action: 'stop', cleared_at_ms: null, cleared_by: null });
  });

  it('a recording says where it came from', () => {
    const h = (source: string, l3 = false): RecordingHeader => ({ format: 'mmbot-recording', version: 5, symbols: ['X'], instruments: {}, started_at: 0, source, ...(l3 ? { book_level: 3 as const } : {}) });
    expect(dataProvenance(h('lobster:/d/AMZN_message_5.csv', true))).toMatchObject({ kind: 'real', origin: 'lobster', book_level: 3 });
    expect(dataProvenance(h('tardis:/d/book.csv.gz'))).toMatchObject({ kind: 'real', origin: 'tardis', book_level: 2 });
    expect(dataProvenance(h('local-venue preset=toxic seed=3 clock_speed=1 virtual-clock'))).toMatchObject({ kind: 'synthetic' });
    expect(dataProvenance(h('http://127.0.0.1:8080'))).toMatchObject({ kind: 'synthetic', origin: 'local venue at http://127.0.0.1:8080' });
    expect(dataProvenance(h('https://sandbox.example.com'))).toMatchObject({ kind: 'real' });
    expect(dataProvenance(h('something else'))).toMatchObject({ kind: 'unknown' });
  });
});
