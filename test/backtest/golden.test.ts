import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { currentReadmeBlock, GOLDEN_CONFIG, goldenSummary, readGolden, README_PATH, readmeBlock } from './golden-summary.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-golden-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A hard timeout: a hung child must die with the test, not outlive it. Generous: two CPU-bound
// backtests run side by side, 13 s on a 2-core box under load.
const backtest = (out: string) =>
  run(process.execPath, ['bin/mmbot.js', 'backtest', '--config', GOLDEN_CONFIG, '--out', out, '--quiet'], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });

describe('golden replay of the committed sample recording', () => {
  it('the sample is small enough to ship (< 1 MB)', () => {
    expect(statSync(join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz')).size).toBeLessThan(1_000_000);
  });

  it('`mmbot backtest --config test/backtest/golden.yaml` works and two runs give byte-identical reports', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    await Promise.all([backtest(a), backtest(b)]);
    for (const f of ['report.json', 'fills.csv', 'report.html']) {
      const x = readFileSync(join(a, f));
      expect(x.length).toBeGreaterThan(100);
      expect(x.equals(readFileSync(join(b, f))), `${f} differs between runs`).toBe(true);
    }
    const report = JSON.parse(readFileSync(join(a, 'report.json'), 'utf8'));
    expect(report.format).toBe('mmbot-backtest-report');
    expect(report.events.replayed).toBeGreaterThan(1000);
    expect(report.total.fills.count).toBeGreaterThan(0);
    // The sample spans EURUSD-PERP's 16:00 London settlement on a weekday with the bot holding a
    // position, and the config's order-manager tolerances let quotes rest past the reward
    // program's 3 s minimum: funding and the reward estimate must both be non-zero.
    expect(report.total.funding_settlements).toBeGreaterThanOrEqual(1);
    expect(Number(report.total.pnl.funding)).not.toBe(0);
    // Both kinds of fill and both fee rates: maker quotes at 0.5 bp, the inventory exit as taker at 2 bp.
    expect(report.fees['EURUSD-PERP']).toMatchObject({ maker: 0.00005, taker: 0.0002, source: 'config' });
    expect(report.total.fills.maker).toBeGreaterThan(0);
    expect(report.total.fills.taker).toBeGreaterThan(0);
    expect(Number(report.total.pnl.estimated_rewards)).toBeGreaterThan(0);
    expect(report.total.quoting.mean_reward_share).toBeGreaterThan(0);
    expect(report.total.quoting.scored_minutes).toBeGreaterThanOrEqual(7);
    expect(Object.keys(report.total.pnl)).toEqual(['spread_capture', 'inventory', 'fees', 'funding', 'net', 'estimated_rewards', 'net_with_rewards']);
    const csv = readFileSync(join(a, 'fills.csv'), 'utf8').trim().split('\n');
    expect(csv.length - 1).toBe(report.total.fills.count);
    // The headline figures, exactly: a change that moves them on purpose runs `npm run golden:update`.
    expect(goldenSummary(report), 'the sample figures changed: if on purpose, run `npm run golden:update` and commit test/backtest/golden-summary.json and README.md').toEqual(readGolden());
    expect(Object.keys(report.total.markouts_bps)).toEqual(['1s', '10s', '60s']);
    expect(report.total.inventory.p95_abs).toBeGreaterThan(0);
    expect(report.total.fills.volume_share).toBeCloseTo(report.total.fills.volume / report.total.fills.market_volume, 6);
    const html = readFileSync(join(a, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//); // opens offline: nothing external
    expect(html).not.toContain('<script');
    expect(html).toContain('aria-label="Markout curve');
  }, 90_000);

  it('the README quotes the golden figures (the block `npm run golden:update` writes)', () => {
    const block = currentReadmeBlock(readFileSync(README_PATH, 'utf8'));
    expect(block, 'README.md lost its golden markers').not.toBeNull();
    expect(block, 'README.md quotes other figures than test/backtest/golden-summary.json: run `npm run golden:update`').toBe(readmeBlock(readGolden()));
  });
});
