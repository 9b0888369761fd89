/** The preset flags as a user runs them: `mmbot sim --preset-report`, `--preset`, `mmbot record --local --preset`. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withPreset } from '../../../src/cli/commands/sim.ts';
import { parseVenueConfig } from '../../../src/sim/config/venue-config.ts';
import { parseMarketConfig } from '../../../src/sim/market/market-config.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

function mmbot(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  return new Promise((r) => child.on('exit', (code) => r({ code, out, err })));
}

describe('preset flags', () => {
  it('--preset sets market.preset over the venue YAML and keeps its other market keys', () => {
    const base = parseVenueConfig({ market: { preset: 'calm', step_ms: 500 } }, 'v.yaml');
    const cfg = withPreset(base, 'toxic', 'v.yaml');
    expect(parseMarketConfig(cfg).market).toMatchObject({ preset: 'toxic', step_ms: 500 });
    expect(withPreset(base, undefined, 'v.yaml')).toBe(base);
    expect(() => withPreset(base, 'wild', 'v.yaml')).toThrow(/unknown preset "wild"/);
  });

  it('mmbot sim --preset-report prints the figures as JSON; bad names and misplaced flags are usage errors', async () => {
    const [report, bad, record] = await Promise.all([
      mmbot(['sim', '--preset-report', '--presets', 'calm', '--symbols', 'EURUSD-PERP', '--minutes', '1', '--json']),
      mmbot(['sim', '--preset', 'wild']),
      mmbot(['record', '--preset', 'toxic', '--symbols', 'EURUSD-PERP', '--out', '/tmp/never.jsonl.gz']),
    ]);
    expect(report.code, report.err).toBe(0);
    const j = JSON.parse(report.out);
    expect(j.rows).toHaveLength(1);
    expect(j.rows[0].preset).toBe('calm');
    expect(j.rows[0].report.symbol).toBe('EURUSD-PERP');
    expect(j.rows[0].report.tradesPerMin).toBeGreaterThan(0);
    expect(j.rows[0].report.quoter.fills).toBeGreaterThan(0);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown preset "wild"/);
    expect(record.code).toBe(2);
    expect(record.err).toMatch(/--preset .*needs --local/);
  });
});
