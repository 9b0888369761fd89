import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../../src/record/index.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIX = join(ROOT, 'test/fixtures/tardis');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-tardis-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mmbot = (args: string[]) => run(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });

describe('mmbot import → mmbot backtest (Tardis: 30 s of real Binance BTCUSDT; LOBSTER: a sample written from the format)', () => {
  it('imports the real slice with no bad rows, and a fixed-spread backtest of it needs no venue', async () => {
    const rec = join(dir, 'btc.jsonl.gz');
    const imp = await mmbot(['import', 'tardis', '--book', join(FIX, 'btcusdt-book-30s.csv.gz'), '--trades', join(FIX, 'btcusdt-trades-30s.csv.gz'), '--instrument', join(FIX, 'btcusdt.yaml'), '--out', rec, '--json']);
    const summary = JSON.parse(imp.stdout) as Record<string, unknown>;
    expect(summary['bad_rows']).toEqual({});
    expect(summary['bookRows']).toBe(38_178);
    expect(summary['tradeRows']).toBe(1_159);
    expect(summary['trades']).toBe(1_159);

    const loaded = await readRecording(rec);
    expect(loaded.header.symbols).toEqual(['BTCUSDT']);
    expect(loaded.header.fees).toEqual({ BTCUSDT: { maker: '0.0002', taker: '0.0005' } });
    expect(loaded.instruments[0]!.grid.tickSize.toFixed()).toBe('0.1');
    const books = loaded.events.filter((e) => e.type === 'book');
    expect(books.length).toBeGreaterThan(100);
    for (const b of books.slice(0, 200)) if (b.type === 'book' && b.isSnapshot && b.bids[0] && b.asks[0]) expect(b.bids[0].priceTicks).toBeLessThan(b.asks[0].priceTicks);

    const cfg = join(dir, 'bt.yaml');
    writeFileSync(
      cfg,
      [
        'venue: { mode: embedded-sim }',
        'bot:',
        '  strategies:',
        '    - { id: btc, symbol: BTCUSDT, strategy: fixed-spread, params: { halfSpreadTicks: 1, size: 10, maxPosition: 100 } }',
        'risk: { max_position: 200, max_order_qty: 100, max_order_notional_usd: 100000 }',
        'monitoring: { enabled: false }',
        'backtest: { fees: { maker: 0.0002, taker: 0.0005 } }',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'report');
    await mmbot(['backtest', '--config', cfg, '--data', rec, '--out', out, '--quiet']);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { total: { fills: { count: number } } };
    expect(report.total.fills.count).toBeGreaterThan(0);
  }, 90_000);

  it('mmbot import lobster makes an order-level recording that a fixed-spread backtest replays with the FIFO queue', async () => {
    const LOB = join(ROOT, 'test/fixtures/lobster');
    const rec = join(dir, 'aapl.jsonl.gz');
    const imp = await mmbot([
      'import', 'lobster',
      '--messages', join(LOB, 'AAPL_2012-06-21_34200000_57600000_message_2.csv'),
      '--orderbook', join(LOB, 'AAPL_2012-06-21_34200000_57600000_orderbook_2.csv'),
      '--date', '2012-06-21', '--instrument', join(LOB, 'aapl.yaml'), '--out', rec, '--json',
    ]);
    const summary = JSON.parse(imp.stdout) as Record<string, unknown>;
    expect(summary['bad_rows']).toEqual({});
    // A depth-2 file: the two levels of pre-file orders that came into view are reconciled, not bad rows.
    expect(summary).toMatchObject({ reconciledLevels: 2, hiddenTrades: 3, crossTrades: 1, halts: 3 });
    expect(summary['firstMs']).toBe(Date.parse('2012-06-21T13:30:00.311Z') + 0.828);
    const loaded = await readRecording(rec);
    expect(loaded.header).toMatchObject({ book_level: 3, version: 5, order_ids: true });
    const firstBook = loaded.events.find((e) => e.type === 'book');
    expect(firstBook?.type === 'book' && firstBook.bids[0]?.orders).toEqual([300, 100]);

    const cfg = join(dir, 'aapl.yaml');
    writeFileSync(
      cfg,
      [
        'venue: { mode: embedded-sim }',
        'bot:',
        '  strategies:',
        '    - { id: aapl, symbol: AAPL, strategy: fixed-spread, params: { halfSpreadTicks: 1, size: 100, maxPosition: 1000 } }',
        'risk: { max_position: 2000, max_order_qty: 1000, max_order_notional_usd: 1000000 }',
        'monitoring: { enabled: false }',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'report-aapl');
    await mmbot(['backtest', '--config', cfg, '--data', rec, '--out', out, '--quiet']);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { total: { fills: { count: number } }; fees: Record<string, { source: string; maker: number }> };
    expect(report.total.fills.count).toBeGreaterThan(0);
    // The source's rates from the instrument file (a rebate for makers) apply.
    expect(report.fees['AAPL']).toMatchObject({ source: 'recording', maker: -0.00002 });
  }, 90_000);

  it('--out in a folder that does not exist yet: the folder is made', async () => {
    const out = join(dir, 'new', 'deeper', 'btc.jsonl.gz');
    await mmbot(['import', 'tardis', '--book', join(FIX, 'btcusdt-book-30s.csv.gz'), '--instrument', join(FIX, 'btcusdt.yaml'), '--out', out, '--json']);
    expect(existsSync(out)).toBe(true);
  }, 30_000);

  it('a missing instrument file is a clear error, exit code non-zero', async () => {
    const err = (await mmbot(['import', 'tardis', '--book', join(FIX, 'btcusdt-book-30s.csv.gz'), '--instrument', join(dir, 'nope.yaml'), '--out', join(dir, 'x.jsonl.gz')]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(err.code).not.toBe(0);
    expect(err.stderr).toMatch(/nope\.yaml/);
  });
});
