import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, type AddressInfo } from 'node:net';
import { embeddedVenueConfig, openVenue } from '../../../src/app/live/venue-endpoint.ts';
import { MmError } from '../../../src/core/errors.ts';
import { createLogger } from '../../../src/obs/logger.ts';
import { parseConfig } from '../../../src/config/index.ts';
import type { StrategyDefinition } from '../../../src/strategy/contract.ts';

const def: StrategyDefinition = { name: 's', description: '', params: z.object({}), create: () => ({ quote: () => null }) };
const dir = mkdtempSync(join(tmpdir(), 'mmbot-venue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bot = (venue: string): ReturnType<typeof parseConfig> =>
  parseConfig(`venue:\n${venue}\nbot:\n  strategies: [{ symbol: EURUSD-PERP, strategy: s }, { symbol: XAU-PERP, strategy: s }]\n`, join(dir, 'bot.yaml'), {
    strategies: () => def,
  });

describe('embeddedVenueConfig', () => {
  it('defaults to the venue defaults with synthetic flow only on the configured symbols', () => {
    const v = embeddedVenueConfig(bot('  mode: embedded-sim'));
    expect(v.seed).toBe(1);
    expect(v.clock_speed).toBe(1);
    expect(v.market).toEqual({ symbols: ['EURUSD-PERP', 'XAU-PERP'] });
    expect(v.instruments.only).toEqual(['EURUSD-PERP', 'XAU-PERP']);
  });

  it('layers the venue YAML, then the inline knobs, then the sim fields that were set', () => {
    writeFileSync(join(dir, 'venue.yaml'), 'seed: 5\nclock_speed: 10\nack_latency_ms: 20\nmarket: { step_ms: 500 }\n');
    const v = embeddedVenueConfig(
      bot(`  mode: embedded-sim
  sim:
    config: venue.yaml
    seed: 9
    synthetic_market: false
    knobs: { ack_latency_ms: 50, market: { symbols: [EURUSD-PERP] }, instruments: { only: [EURUSD-PERP, XAU-PERP, GBPUSD-PERP] } }`),
    );
    expect(v.instruments.only).toEqual(['EURUSD-PERP', 'XAU-PERP', 'GBPUSD-PERP']);
    expect(v.seed).toBe(9);
    expect(v.clock_speed).toBe(10);
    expect(v.ack_latency_ms).toBe(50);
    expect(v.market).toEqual({ step_ms: 500, symbols: ['EURUSD-PERP'], enabled: false });
  });

  it('bad knobs are the venue\'s config errors, naming the path', () => {
    expect(() => embeddedVenueConfig(bot('  mode: embedded-sim\n  sim: { knobs: { ack_latency_ms: -1 } }'))).toThrow(/ack_latency_ms/);
  });
});

describe('openVenue', () => {
  it('a taken venue.sim.port is CONFIG_INVALID naming the file, the path and the port', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const e = await openVenue(bot(`  mode: embedded-sim\n  sim: { port: ${port}, synthetic_market: false }`), createLogger({ level: 'silent' })).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MmError);
      expect((e as MmError).code).toBe('CONFIG_INVALID');
      expect((e as MmError).message).toBe(
        `${join(dir, 'bot.yaml')}: venue.sim.port: 127.0.0.1:${port} is already in use (another venue or mmbot?); pick another port, or 0 for any free one`,
      );
      expect((e as MmError).details).toEqual({ file: join(dir, 'bot.yaml'), path: 'venue.sim.port', value: port });
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});
