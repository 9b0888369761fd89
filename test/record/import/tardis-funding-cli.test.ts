import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-tardis-funding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mmbot = (args: string[]) => run(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });

const T0 = 1_723_161_600_000_000; // µs
const s = (sec: number): number => T0 + sec * 1_000_000;

describe('mmbot import tardis --derivative-ticker → mmbot backtest: an imported perpetual pays and earns funding', () => {
  it('a long of 10 pays 10 × 0.00012 × 100.75 at the first instant and earns 10 × 0.0002 × 101.1 at the second', async () => {
    const book = join(dir, 'book.csv');
    writeFileSync(
      book,
      [
        'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount',
        `x,PERP,${s(0)},${s(0)},true,bid,100.0,100`,
        `x,PERP,${s(0)},${s(0)},true,ask,101.0,100`,
        `x,PERP,${s(130)},${s(130)},false,bid,99.0,5`,
        '',
      ].join('\n'),
    );
    const trades = join(dir, 'trades.csv');
    // A sell print through our bid (inside the spread): we buy 10 and hold them.
    writeFileSync(trades, ['exchange,symbol,timestamp,local_timestamp,id,side,price,amount', `x,PERP,${s(10)},${s(10)},1,sell,100.0,50`, ''].join('\n'));
    const ticker = join(dir, 'ticker.csv');
    const k = (t: number, funding: number, rate: string, mark: string, index: string): string => `x,PERP,${s(t)},${s(t)},${s(funding)},${rate},,0,${mark},${index},${mark}`;
    writeFileSync(
      ticker,
      [
        'exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,predicted_funding_rate,open_interest,last_price,index_price,mark_price',
        k(1, 60, '0.0001', '100.5', '100.4'),
        k(59, 60, '0.00012', '100.75', '100.6'),
        k(61, 120, '-0.0002', '101.1', '100.9'),
        k(121, 180, '0.0003', '102', '101.9'),
        '',
      ].join('\n'),
    );
    const inst = join(dir, 'perp.yaml');
    writeFileSync(inst, 'symbol: PERP\ntick_size: "0.1"\nlot_size: "1"\nmultiplier: "1"\nmaker_fee: "0"\ntaker_fee: "0"\n');
    const rec = join(dir, 'perp.jsonl.gz');
    const imp = await mmbot(['import', 'tardis', '--book', book, '--trades', trades, '--derivative-ticker', ticker, '--instrument', inst, '--out', rec, '--json']);
    expect(JSON.parse(imp.stdout)).toMatchObject({ bad_rows: {}, tickerRows: 4, fundings: 2, trades: 1 });

    const cfg = join(dir, 'bt.yaml');
    writeFileSync(
      cfg,
      [
        'venue: { mode: embedded-sim }',
        'bot:',
        '  strategies:',
        '    - { id: p, symbol: PERP, strategy: fixed-spread, params: { halfSpreadTicks: 2, size: 10, maxPosition: 10 } }',
        'risk: { max_position: 100, max_order_qty: 100, max_order_notional_usd: 100000 }',
        'monitoring: { enabled: false }',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'report');
    await mmbot(['backtest', '--config', cfg, '--data', rec, '--out', out, '--quiet']);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { total: { fills: { count: number; volume: number }; funding_settlements: number; pnl: { funding: string } } };
    expect(report.total.fills).toMatchObject({ count: 1, volume: 10 });
    expect(report.total.funding_settlements).toBe(2);
    // −10 × 0.01209 + 10 × 0.02022 = 0.0813
    expect(report.total.pnl.funding).toBe('0.081300');
  }, 90_000);
});
