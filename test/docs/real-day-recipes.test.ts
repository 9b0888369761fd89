import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/index.ts';
import { builtinLookup } from '../../src/app/live/strategies.ts';
import { loadInstrumentDef } from '../../src/record/import/instrument-def.ts';
import { configFor, MAIN_LEGS } from '../bench/strategies/run-real.ts';
import { REAL_MARKETS } from '../bench/strategies/real-markets.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DIR = join(ROOT, 'examples/real-days');
const FULL = { name: 'full', startMs: null, endMs: null };

describe('examples/real-days: recipes that reproduce the strategies README rows', () => {
  it('the AMZN and BTCUSDT recipes are exactly what the real-data bench imports and backtests', () => {
    for (const m of REAL_MARKETS) {
      expect(parse(readFileSync(join(DIR, `${m.name}.instrument.yaml`), 'utf8'))).toEqual(m.instrument);
      for (const leg of MAIN_LEGS.filter((l) => l.label === 'glft' || l.label === 'fixed-spread priceSkew=1')) {
        expect(parse(readFileSync(join(DIR, `${m.name}-${leg.strategy}.yaml`), 'utf8')), `${m.name}-${leg.strategy}.yaml`).toEqual(parse(configFor(m, leg, FULL, null, 0)));
      }
    }
  });

  it('every config is valid and every instrument file loads', async () => {
    const strategies = await builtinLookup();
    const files = readdirSync(DIR);
    const configs = files.filter((f) => f.endsWith('.yaml') && !f.endsWith('.instrument.yaml'));
    expect(configs.length).toBe(8);
    for (const f of configs) expect(() => loadConfig(join(DIR, f), { env: {}, strategies }), f).not.toThrow();
    for (const f of files.filter((x) => x.endsWith('.instrument.yaml'))) expect(loadInstrumentDef(join(DIR, f)).instrument.symbol).toBe(parse(readFileSync(join(DIR, f), 'utf8')).symbol);
  });
});
