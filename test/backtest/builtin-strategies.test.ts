import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinStrategies } from '../../src/strategy/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-builtins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** config/backtest.yaml with the strategy entry swapped for `name` with only size and maxPosition. */
function configFor(name: string, overlays = ''): string {
  const base = readFileSync(join(ROOT, 'config/backtest.yaml'), 'utf8');
  const start = base.indexOf('      strategy: fixed-spread');
  const end = base.indexOf('  fee_rates');
  expect(start).toBeGreaterThan(0);
  const extra = overlays ? `      overlays: ${overlays}\n` : '';
  const yaml = `${base.slice(0, start)}      strategy: ${name}\n      params: { size: 200, maxPosition: 1500 }\n${extra}${base.slice(end)}`;
  const file = join(dir, `${name}${overlays ? '-overlays' : ''}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

describe('every built-in runs through the backtest on the committed sample with only size and maxPosition', () => {
  // basis needs a second (liquid) leg: it has its own multi-symbol backtest test.
  const cases = builtinStrategies.map((b) => [b.name, ''] as [string, string]).filter(([n]) => n !== 'basis');
  cases.push(['glft', '[{ kind: funding-carry }, { kind: volatility }, { kind: toxicity }, { kind: reward-aware, poolUsdPerDay: 1000 }]']);
  it.each(cases)('%s %s', async (name, overlays) => {
    const out = join(dir, `${name}${overlays ? '-overlays' : ''}`);
    await run(process.execPath, ['bin/mmbot.js', 'backtest', '--config', configFor(name, overlays), '--data', join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz'), '--out', out, '--quiet'], {
      cwd: ROOT,
      // A hang guard, generous: a CPU-bound backtest took 14 s on a 2-core box under load.
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.events.replayed).toBeGreaterThan(1000);
    expect(report.total.fills.count).toBeGreaterThan(0);
    // Post-only quoting: every fill is a maker fill. The hard cap holds.
    expect(report.total.fills.taker).toBe(0);
    expect(report.total.inventory.max_long).toBeLessThanOrEqual(1500);
    expect(report.total.inventory.max_short).toBeGreaterThanOrEqual(-1500);
    expect(report.total.quoting.uptime_any_side).toBeGreaterThan(0.99);
    // The sample trends: with every overlay widening on top of the default floor (minSpreadShare
    // 0.5), glft sits at its cap most of the time and then quotes only the side that reduces
    // (13.6 % two-sided; 94 % with the floor off, 76 % without the overlays).
    expect(report.total.quoting.uptime_two_sided).toBeGreaterThan(overlays ? 0.1 : 0.5);
  }, 90_000);
});
