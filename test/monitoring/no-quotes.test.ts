/**
 * Issue 35 #8 end to end: a bot whose strategy wants no quotes while nothing halts it (fixed-spread
 * with `sizes: [0]`: its one level has no size on either side) on a two-sided book shows it in
 * /metrics: mmbot_no_quotes_seconds grows while mmbot_quote_expected stays 0 (MmbotQuotesNothing's
 * inputs; before, the bot looked ACTIVE and no alert could fire).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot, until, type TestBot } from './bot-harness.ts';

const SYMBOL = 'AAPL-PERP';
let bot: TestBot | undefined;

beforeAll(async () => {
  bot = await startTestBot({ symbol: SYMBOL, venueConfig: { instruments: { only: [SYMBOL] } }, strategyParams: { levels: 1, halfSpreadTicks: 2, size: 1, sizes: [0] } });
}, 30_000);
afterAll(async () => {
  await bot?.stop();
}, 20_000);

const gauge = (text: string, name: string): number | null => {
  const m = new RegExp(`^${name}\\{symbol="${SYMBOL}"\\} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
};

describe('an ACTIVE strategy that wants no quotes is visible (issue 35 #8)', () => {
  it('mmbot_no_quotes_seconds grows past 2 s with quote_expected 0 and no open order', async () => {
    let text = '';
    await until(
      async () => {
        text = await (await fetch(`${bot!.monitoring.url}/metrics`)).text();
        return (gauge(text, 'mmbot_no_quotes_seconds') ?? 0) >= 2;
      },
      20_000,
      'mmbot_no_quotes_seconds >= 2',
    );
    expect(gauge(text, 'mmbot_quote_expected')).toBe(0);
    expect(text).not.toMatch(new RegExp(`^mmbot_open_orders\\{symbol="${SYMBOL}",side="\\w+"\\} [1-9]`, 'm'));
    const snap = bot!.engine.snapshot();
    expect(snap.symbols[0]!.tradingState).toBe('ACTIVE');
    expect(snap.symbols[0]!.bestBidTicks).not.toBeNull();
  }, 40_000);
});
