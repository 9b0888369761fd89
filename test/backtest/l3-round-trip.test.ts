import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordVenue } from '../../src/cli/commands/record.ts';
import { asSymbol } from '../../src/core/ids.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { loadColumnar, readRecording } from '../../src/record/index.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { buildReport } from '../../src/backtest/report.ts';
import { reportHtml } from '../../src/backtest/report-html.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { startVenue } from '../../src/sim/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-l3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const waitFor = async (cond: () => boolean, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
};

describe('order-level (L3) recording → FIFO replay', () => {
  it('records the local venue\'s LEVEL_3 channel over its WebSocket and replays it with exact FIFO queues', async () => {
    // Only the recorded symbol is listed: flow on all 29 at 20x would compete with the recorder for the CPU.
    const venue = await startVenue({ seed: 5, config: { clock_speed: 20, seed: 5, instruments: { only: ['EURUSD-PERP'] }, market: { step_ms: 100, defaults: { takers: { rate_per_min: 600 } } } } as never });
    const out = join(dir, 'l3.jsonl.gz');
    try {
      const session = await recordVenue({
        baseUrl: venue.baseUrl,
        wsUrl: venue.wsUrl,
        credentials: { apiKey: venue.credentials.api_key, apiSecret: venue.credentials.api_secret },
        clock: venue.venue.clock,
        symbols: ['EURUSD-PERP'],
        out,
        fundingPollMs: 0,
        source: 'local-venue',
        level: 3,
      });
      // A loaded machine slows the venue's flow (wall time): wait longer rather than fail.
      await waitFor(() => session.stats.books >= 150 && session.stats.trades >= 20, 30_000);
      const stats = await session.stop();
      expect(stats.books).toBeGreaterThanOrEqual(40);
      expect(stats.trades).toBeGreaterThanOrEqual(5);
    } finally {
      await venue.stop();
    }

    // The file: version 4, every level with its orders (sizes add up to the level).
    const rec = await readRecording(out);
    expect(rec.header).toMatchObject({ version: 4, book_level: 3 });
    const books = rec.events.filter((e) => e.type === 'book');
    expect(books[0]!.isSnapshot).toBe(true);
    let levelsWithSeveralOrders = 0;
    for (const b of books)
      for (const l of [...b.bids, ...b.asks]) {
        expect(l.orders).toBeDefined();
        expect(l.orders!.reduce((a, q) => a + q, 0)).toBe(l.qty);
        if (l.orders!.length > 1) levelsWithSeveralOrders++;
      }
    expect(levelsWithSeveralOrders).toBeGreaterThan(0); // real queues, not one order a level

    // Columns carry the order lists; a second load comes from the sidecar cache with the same lists.
    const cacheDir = join(dir, 'cache');
    const col = await loadColumnar([out], { cacheDir });
    expect(col.orderStart).toBeDefined();
    expect(col.orderStart!.length).toBe(col.levels.length / 2 + 1);
    const cached = await loadColumnar([out], { cacheDir });
    expect(Array.from(cached.orderQty!)).toEqual(Array.from(col.orderQty!));

    // Replay: the exchange keeps FIFO queues for the symbol; the bot quotes three levels from a
    // half-spread of 4 ticks, so some of its orders join queues with market orders ahead.
    const def = await loadStrategy('fixed-spread');
    const run = async () =>
      runBacktest({
        data: col,
        strategies: [{ id: 'fs', symbol: asSymbol('EURUSD-PERP'), strategy: def.create(parseStrategyParams(def, { halfSpreadTicks: 4, levels: 3, size: 100, maxPosition: 1000 })) }],
        risk: { ...DEFAULT_RISK_CONFIG, defaults: { ...DEFAULT_RISK_CONFIG.defaults, maxPosition: 2000, maxOrderQty: 500 } },
        execution: DEFAULT_EXECUTION_CONFIG,
        orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
        settings: defaultSettings({}),
        createEngine,
      });
    const a = await run();
    expect(a.exchange.l3[0]).not.toBeNull();
    expect(a.fills.filter((f) => !f.aggressor).length).toBeGreaterThan(0);
    const trades = rec.events.filter((e) => e.type === 'trade');
    const marketVolume = trades.reduce((s, t) => s + t.qty, 0);
    const ours = a.fills.reduce((s, f) => s + f.qty, 0);
    expect(ours).toBeLessThanOrEqual(marketVolume + a.fills.filter((f) => f.aggressor).reduce((s, f) => s + f.qty, 0));
    expect(reportHtml(a, buildReport(a))).toContain('l3-fifo (order-level recording)');
    const b = await run();
    expect(b.fills.map((f) => [f.tsExchange, f.priceTicks, f.qty])).toEqual(a.fills.map((f) => [f.tsExchange, f.priceTicks, f.qty]));
  }, 60_000);
});
