import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningVenue } from '../../src/sim/index.ts';
import { spawnE2eBot, startBusyVenue, writeBotConfig } from './daemon-kit.ts';
import { spawnBot, type LogLine } from './bot-process.ts';
import { venueRest } from './venue-rest.ts';

/*
 * The daemon end to end, over real sockets: `mmbot run` in a child process against a local venue
 * this test starts (remote mode, so the test reads the venue's own view over REST). The bot must
 * quote, get filled by the synthetic takers, agree with /api/positions, and leave no open order
 * after SIGTERM, exiting 0.
 */

let venue: RunningVenue;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mmbot-e2e-'));
  venue = await startBusyVenue(11, 240);
});

afterAll(async () => {
  await venue?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const botConfig = (): string =>
  writeBotConfig(dir, venue, { params: 'levels: 2, halfSpreadTicks: 1, size: 100, maxPosition: 2000', risk: 'max_position: 3000, max_order_qty: 500', monitoring: '{ port: 0 }' });

const isFill = (l: LogLine): boolean => typeof l.msg === 'string' && l.msg.startsWith('fill ');

describe('mmbot run (e2e)', () => {
  it('quotes, gets filled, matches the venue position, and leaves no open orders after SIGTERM', async () => {
    const rest = await venueRest(venue.baseUrl, venue.credentials);
    const bot = spawnE2eBot(botConfig(), venue);
    try {
      await bot.waitFor((l) => l.msg === 'order stream connected', 15_000, 'the order stream to connect');
      await bot.waitFor(isFill, 20_000, 'a fill');
      expect((await rest.openOrders()).length).toBeGreaterThan(0);
    } finally {
      bot.proc.kill('SIGTERM');
    }
    expect(await bot.exited).toBe(0);

    const final = bot.lines.find((l) => l.msg?.startsWith('final positions')) as (LogLine & { positions: Record<string, number>; fills: number }) | undefined;
    expect(final, 'the daemon logs its final positions').toBeDefined();
    expect(final!.fills).toBeGreaterThan(0);
    const venuePositions = await rest.positions();
    expect(final!.positions['EURUSD-PERP']).toBe(venuePositions['EURUSD-PERP'] ?? 0);
    expect(await rest.openOrders()).toEqual([]);
    expect(bot.lines.filter((l) => l.level === 'error')).toEqual([]);
  }, 45_000);

  it('a bad config exits 2 naming the file, the path and the value', async () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, 'venue: { mode: embedded-sim }\nbot:\n  strategies:\n    - { symbol: EURUSD-PERP, strategy: fixed-spread, params: { levels: lots } }\n');
    const bot = spawnBot(['run', '--config', path]);
    expect(await bot.exited).toBe(2);
    expect(bot.stderr()).toContain(`CONFIG_INVALID: ${path}: bot.strategies[0].params.levels: expected number, got "lots"`);
  });
});
