import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { asSymbol } from '../../src/core/ids.ts';
import { fillBound } from '../../src/backtest/fill-bound.ts';
import type { BacktestFill } from '../../src/backtest/ledger.ts';
import { recordingHeader, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import { testInstrument } from '../record/fixtures.ts';
import { checkFillBound } from './fill-bound-run.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-fill-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mmbot = (args: string[]) => run(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });

describe('fillBound: our maker fills per price and side against the prints at or through the price', () => {
  it('counts sell prints at or below a buy price, buy prints at or above a sell price; crossings apart; takers left out', () => {
    const inst = testInstrument('X-PERP', '0.01', 1);
    const S = asSymbol('X-PERP');
    const tr = (p: number, q: number, aggressor: 'buy' | 'sell'): RecordedEvent => ({ type: 'trade', symbol: S, priceTicks: p, qty: q, aggressor, tsEvent: 1, tsRecv: 1 });
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: 0, source: 't' }), [inst], [tr(100, 5, 'sell'), tr(99, 7, 'sell'), tr(101, 50, 'sell'), tr(102, 4, 'buy'), tr(103, 6, 'buy')]);
    const f = (side: 'buy' | 'sell', priceTicks: number, qty: number, source: BacktestFill['source']) => ({ symbol: S, side, priceTicks, qty, aggressor: source === 'taker', source }) as BacktestFill;
    const c = fillBound(col, [f('buy', 100, 10, 'print'), f('buy', 100, 4, 'cross'), f('sell', 103, 6, 'print'), f('sell', 102, 3, 'cross'), f('buy', 105, 99, 'taker')]);
    expect(c.rows).toEqual([
      { symbol: S, side: 'buy', priceTicks: 100, ours: 14, crossed: 4, market: 12 }, // sells at 100 and 99
      { symbol: S, side: 'sell', priceTicks: 102, ours: 3, crossed: 3, market: 10 },
      { symbol: S, side: 'sell', priceTicks: 103, ours: 6, crossed: 0, market: 6 },
    ]);
    expect(c.over.map((r) => r.priceTicks)).toEqual([100]); // 14 > 12 with the crossing
    expect(c.overFromPrints).toEqual([]); // 10 ≤ 12 without it
    expect([c.oursTotal, c.crossedTotal]).toEqual([23, 7]);
  });
});

describe('on real data our fills never exceed what the market traded at or through our prices', () => {
  it('30 s of Binance BTCUSDT (Tardis import), fixed-spread ±1 tick', async () => {
    const FIX = join(ROOT, 'test/fixtures/tardis');
    const rec = join(dir, 'btc.jsonl.gz');
    await mmbot(['import', 'tardis', '--book', join(FIX, 'btcusdt-book-30s.csv.gz'), '--trades', join(FIX, 'btcusdt-trades-30s.csv.gz'), '--instrument', join(FIX, 'btcusdt.yaml'), '--out', rec]);
    const cfg = join(dir, 'btc.yaml');
    writeFileSync(cfg, [
      'venue: { mode: embedded-sim }',
      'bot: { strategies: [ { id: btc, symbol: BTCUSDT, strategy: fixed-spread, params: { halfSpreadTicks: 1, size: 10, maxPosition: 100 } } ] }',
      'risk: { max_position: 200, max_order_qty: 100, max_order_notional_usd: 100000 }',
      'monitoring: { enabled: false }',
      '',
    ].join('\n'));
    const c = await checkFillBound(cfg, rec);
    expect(c.over).toEqual([]);
    expect(c.overFromPrints).toEqual([]);
    expect({ fills: c.fills, ours: c.oursTotal, crossed: c.crossedTotal, levels: c.rows.length }).toEqual(BTC_FIGURES);
  }, 90_000);

  it('the first 15 minutes of NASDAQ AMZN (LOBSTER import, order-level FIFO), fixed-spread ±1 tick', async () => {
    const FIX = join(ROOT, 'test/fixtures/lobster/amzn');
    const rec = join(dir, 'amzn.jsonl.gz');
    await mmbot([
      'import', 'lobster', '--messages', join(FIX, 'AMZN_2012-06-21_first-6000_message_5.csv.gz'), '--orderbook', join(FIX, 'AMZN_2012-06-21_first-6000_orderbook_5.csv.gz'),
      '--date', '2012-06-21', '--instrument', join(FIX, 'amzn.yaml'), '--out', rec,
    ]);
    const cfg = join(dir, 'amzn.yaml');
    writeFileSync(cfg, [
      'venue: { mode: embedded-sim }',
      'bot: { strategies: [ { id: amzn, symbol: AMZN, strategy: fixed-spread, params: { halfSpreadTicks: 1, size: 100, maxPosition: 1000 } } ] }',
      'risk: { max_position: 2000, max_order_qty: 1000, max_order_notional_usd: 1000000 }',
      'monitoring: { enabled: false }',
      '',
    ].join('\n'));
    const c = await checkFillBound(cfg, rec);
    expect(c.over).toEqual([]);
    expect(c.overFromPrints).toEqual([]);
    expect({ fills: c.fills, ours: c.oursTotal, crossed: c.crossedTotal, levels: c.rows.length }).toEqual(AMZN_FIGURES);
  }, 90_000);
});

/** This tree's figures (a drift guard; the bound above is the point). */
const BTC_FIGURES = { fills: 76, ours: 434, crossed: 202, levels: 26 };
const AMZN_FIGURES = { fills: 153, ours: 8312, crossed: 1352, levels: 55 };
