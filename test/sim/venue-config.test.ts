import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/errors.ts';
import { loadVenueConfig, parseVenueConfig } from '../../src/sim/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-venue-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function errorOf(f: () => unknown): MmError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(MmError);
    return e as MmError;
  }
  throw new Error('expected an error');
}

describe('venue config: unknown and misplaced sections', () => {
  it('rejects a top-level flow: section, naming it and where synthetic flow belongs', () => {
    const p = file('flow.yaml', 'flow:\n  takers:\n    rate_per_min: 30\n');
    const e = errorOf(() => loadVenueConfig(p));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toBe(`${p}: flow: unknown key (synthetic flow is configured under market: (market.defaults / market.overrides))`);
    expect(e.details).toMatchObject({ source: p, path: 'flow' });
  });

  it('names misspelt keys at any depth', () => {
    expect(errorOf(() => parseVenueConfig({ rate_limt: {} }, 'v.yaml')).message).toBe('v.yaml: rate_limt: unknown key');
    expect(errorOf(() => parseVenueConfig({ rate_limit: { brust: 5 } }, 'v.yaml')).message).toBe('v.yaml: rate_limit.brust: unknown key');
    expect(errorOf(() => parseVenueConfig({ market: { defualts: {} } }, 'v.yaml')).message).toBe('v.yaml: market.defualts: unknown key');
  });

  it('validates the market sections at load, naming the file, the path and the value', () => {
    const p = file('market.yaml', 'market:\n  defaults:\n    takers:\n      median_lots: -3\n');
    const e = errorOf(() => loadVenueConfig(p));
    expect(e.message.startsWith(`${p}: market.defaults.takers.median_lots: `)).toBe(true);
    expect(e.message.endsWith('(got -3)')).toBe(true);
    expect(e.details).toMatchObject({ source: p });
  });

  it('still passes valid market sections through for the plugin', () => {
    const cfg = parseVenueConfig({ market: { symbols: ['EURUSD-PERP'] }, md: {}, liquidation: { enabled: false } });
    expect(cfg.market).toEqual({ symbols: ['EURUSD-PERP'] });
    expect(cfg.liquidation).toEqual({ enabled: false });
  });
});
