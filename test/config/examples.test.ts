import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinLookup } from '../../src/app/live/strategies.ts';
import { loadConfig } from '../../src/config/index.ts';
import { MmError } from '../../src/core/errors.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('example configs', () => {
  it('config/demo.yaml: embedded venue, fixed-spread on EURUSD-PERP, metrics on 9464', async () => {
    const c = loadConfig(join(ROOT, 'config/demo.yaml'), { env: {}, strategies: await builtinLookup() });
    expect(c.venue.mode).toBe('embedded-sim');
    expect(c.bot.strategies.map((s) => [s.symbol, s.strategy, s.paramsChecked])).toEqual([['EURUSD-PERP', 'fixed-spread', true]]);
    expect(c.monitoring.port).toBe(9464);
  });

  it('config/live-template.yaml: remote, every secret from the environment', async () => {
    const strategies = await builtinLookup();
    const file = join(ROOT, 'config/live-template.yaml');
    const c = loadConfig(file, { env: { AX_BASE_URL: 'https://gateway.sandbox.example.com', AX_API_KEY: 'k', AX_API_SECRET: 's' }, strategies });
    expect(c.venue).toMatchObject({ mode: 'remote', api_key: 'k', api_secret: 's', ws_url: 'wss://gateway.sandbox.example.com' });
    let err: unknown;
    try {
      loadConfig(file, { env: { AX_BASE_URL: 'https://x.example.com', AX_API_KEY: 'k' }, strategies });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).details).toMatchObject({ path: 'venue.api_secret', variable: 'AX_API_SECRET' });
  });
});
