import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.ts';
import { positionOf } from '../../src/sim/accounts/account.ts';
import type { RunningVenue } from '../../src/sim/index.ts';
import type { BotProcess, LogLine } from './bot-process.ts';
import { E2E_SYMBOL as SYMBOL, fillLines, spawnE2eBot, startBusyVenue, until, writeBotConfig } from './daemon-kit.ts';
import { venueRest, type VenueRest } from './venue-rest.ts';

/*
 * Restarts are exact (issue 23): `mmbot run` in a child process against a local venue this test
 * starts (remote mode, real sockets). The daemon is stopped (SIGKILL mid-quoting, or a clean
 * SIGINT) and started again with the same config; the second session must take the venue's
 * position as the truth and book only the fills after it. After the second session's SIGINT its
 * position, cost basis and realized PnL equal the venue's, and its fill count equals the fills the
 * venue booked since the restart. A third case starts against a position opened "days ago", whose
 * fills no fills window holds any more.
 */


let venue: RunningVenue;
let dir: string;
let rest: VenueRest;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mmbot-restart-'));
  venue = await startBusyVenue(23);
  rest = await venueRest(venue.baseUrl, venue.credentials);
});

afterEach(async () => {
  await venue?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const startBot = (): BotProcess =>
  spawnE2eBot(writeBotConfig(dir, venue, { params: 'levels: 2, halfSpreadTicks: 1, size: 100, maxPosition: 2500', risk: 'max_position: 3000, max_order_qty: 500' }), venue);

/** Waits until the bot has logged `n` fills (the venue's takers fill quotes at the touch within seconds). */
const waitForFills = (bot: BotProcess, n: number): Promise<LogLine> =>
  bot.waitFor(() => fillLines(bot).length >= n, 30_000, `${n} fills`);

interface FinalLine {
  readonly positions: Record<string, number>;
  readonly books: Record<string, { qty: number; costBasis: string; realized: string }>;
  readonly fills: number;
}

/** Stops the bot with SIGINT (a clean stop, as a redeploy does) and returns its final positions line. */
async function stopCleanly(bot: BotProcess): Promise<FinalLine> {
  bot.proc.kill('SIGINT');
  expect(await bot.exited).toBe(0);
  const final = bot.lines.find((l) => l.msg?.startsWith('final positions'));
  expect(final, 'the daemon logs its final positions').toBeDefined();
  return final as unknown as FinalLine;
}

/** What the venue says before the second session starts: the baseline its figures are compared with. */
async function venueBaseline(): Promise<{ fills: number; realized: Decimal }> {
  // Cancel-on-disconnect (SIGKILL) or the clean stop left nothing working: nothing fills any more.
  await until(async () => (await rest.openOrders()).length === 0, 'the venue to hold none of our orders');
  const row = (await rest.positionRows())[SYMBOL];
  return { fills: await rest.fillCount(), realized: new Decimal(row?.realized_pnl ?? 0) };
}

/** The second session's figures equal the venue's: position, cost basis, realized PnL since the restart, fills since the restart. */
async function expectAgreesWithVenue(final: FinalLine, baseline: { fills: number; realized: Decimal }): Promise<void> {
  const row = (await rest.positionRows())[SYMBOL]!;
  const book = final.books[SYMBOL]!;
  const venueFillsSinceRestart = (await rest.fillCount()) - baseline.fills;
  expect({
    position: final.positions[SYMBOL],
    costBasis: book.costBasis,
    realized: book.realized,
    fills: final.fills,
  }).toEqual({
    position: row.signed_quantity,
    costBasis: new Decimal(row.signed_cost_basis).toFixed(8),
    realized: new Decimal(row.realized_pnl).minus(baseline.realized).toFixed(8),
    fills: venueFillsSinceRestart,
  });
}

const recoveredFromEarlierSession = (bot: BotProcess): LogLine[] => fillLines(bot).filter((l) => l.recovered === true);

describe('restarts are exact (e2e, real sockets)', () => {
  it('SIGKILL mid-quoting, then a restart: position, cost basis, realized PnL and fills equal the venue', async () => {
    const first = startBot();
    try {
      await waitForFills(first, 3);
    } finally {
      first.proc.kill('SIGKILL');
    }
    expect(await first.exited).toBe('SIGKILL');
    const baseline = await venueBaseline();

    const second = startBot();
    try {
      await second.waitFor((l) => l.msg === 'reconciled with the venue' && l.trigger === 'resync', 20_000, 'the first resync');
      await waitForFills(second, 3);
    } catch (e) {
      second.proc.kill('SIGKILL');
      throw e;
    }
    const final = await stopCleanly(second);
    expect(recoveredFromEarlierSession(second)).toEqual([]);
    await expectAgreesWithVenue(final, baseline);
  }, 90_000);

  it('a clean SIGINT, then a restart: the same figures equal the venue', async () => {
    const first = startBot();
    try {
      await waitForFills(first, 3);
    } catch (e) {
      first.proc.kill('SIGKILL');
      throw e;
    }
    await stopCleanly(first);
    const baseline = await venueBaseline();

    const second = startBot();
    try {
      await second.waitFor((l) => l.msg === 'reconciled with the venue' && l.trigger === 'resync', 20_000, 'the first resync');
      await waitForFills(second, 3);
    } catch (e) {
      second.proc.kill('SIGKILL');
      throw e;
    }
    const final = await stopCleanly(second);
    expect(recoveredFromEarlierSession(second)).toEqual([]);
    await expectAgreesWithVenue(final, baseline);
  }, 90_000);

  it('a position opened days ago (no fills window holds its fills): seeded with the venue cost basis, figures equal the venue', async () => {
    // The account has been short 700 since three days ago at 1.1000; the venue keeps no fill of it.
    const account = venue.venue.accounts.accounts.get(venue.credentials.account_id)!;
    const pos = positionOf(account, SYMBOL);
    pos.signedQty = -700;
    pos.costBasis = new Decimal('-770.0000');
    pos.realizedPnl = new Decimal('12.5');
    pos.lastFillNs = (BigInt(Date.now()) - 3n * 86_400_000n) * 1_000_000n;
    const baseline = await venueBaseline();
    expect(baseline.fills).toBe(0);

    const bot = startBot();
    try {
      await bot.waitFor((l) => l.msg === 'reconciled with the venue' && l.trigger === 'resync', 20_000, 'the first resync');
      await waitForFills(bot, 3);
    } catch (e) {
      bot.proc.kill('SIGKILL');
      throw e;
    }
    const final = await stopCleanly(bot);
    expect(bot.lines.filter((l) => l.level === 'error')).toEqual([]);
    await expectAgreesWithVenue(final, baseline);
  }, 90_000);
});
