import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../../src/record/index.ts';
import { dbnMetadata, mbo, px, SCHEMA, type MboSpec } from '../../support/dbn-writer.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-dbn-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mmbot = (args: string[]) => run(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });

/** 2024-08-09T14:00:00Z in ns. */
const T0 = 1_723_212_000_000_000_000n;
const ms = (n: number): bigint => T0 + BigInt(n) * 1_000_000n;

/**
 * A market by order session: bid 100.00 (orders 1: 100, 2: 50), ask 100.10 (order 3: 100). Our
 * quoter joins both touches (half spread 5 ticks) behind 150 on the bid. Order 4 (200) joins the bid
 * after us. A 120-lot sell print takes order 1 and 20 of order 2: 30 still ahead of us. A 60-lot
 * sell print takes the last 30 of order 2, then 30 of the queue behind it: ours, 10, fills first.
 */
const SESSION: MboSpec[] = [
  { tsEventNs: ms(0), orderId: 0n, price: null, size: 0, action: 'R', side: 'N', flags: 0x20 },
  { tsEventNs: ms(0), orderId: 1n, price: px('100.00'), size: 100, action: 'A', side: 'B', flags: 0x20 },
  { tsEventNs: ms(0), orderId: 2n, price: px('100.00'), size: 50, action: 'A', side: 'B', flags: 0x20 },
  { tsEventNs: ms(0), orderId: 3n, price: px('100.10'), size: 100, action: 'A', side: 'A', flags: 0xa0 },
  { tsEventNs: ms(1000), orderId: 4n, price: px('100.00'), size: 200, action: 'A', side: 'B' },
  { tsEventNs: ms(2000), orderId: 0n, price: px('100.00'), size: 120, action: 'T', side: 'A', flags: 0 },
  { tsEventNs: ms(2000), orderId: 1n, price: px('100.00'), size: 100, action: 'F', side: 'B', flags: 0 },
  { tsEventNs: ms(2000), orderId: 2n, price: px('100.00'), size: 20, action: 'F', side: 'B', flags: 0 },
  { tsEventNs: ms(2000), orderId: 1n, price: px('100.00'), size: 100, action: 'C', side: 'B', flags: 0 },
  { tsEventNs: ms(2000), orderId: 2n, price: px('100.00'), size: 30, action: 'M', side: 'B' },
  { tsEventNs: ms(3000), orderId: 0n, price: px('100.00'), size: 60, action: 'T', side: 'A', flags: 0 },
  { tsEventNs: ms(3000), orderId: 2n, price: px('100.00'), size: 30, action: 'C', side: 'B', flags: 0 },
  { tsEventNs: ms(3000), orderId: 4n, price: px('100.00'), size: 170, action: 'M', side: 'B' },
  { tsEventNs: ms(4000), orderId: 5n, price: px('100.20'), size: 10, action: 'A', side: 'A' },
];

describe('mmbot import databento → mmbot backtest (a self-made DBN MBO file)', () => {
  it('imports an order-level recording and a joining quoter fills exactly as the FIFO says', async () => {
    const dbn = join(dir, 'session.mbo.dbn');
    writeFileSync(dbn, Buffer.concat([dbnMetadata({ version: 3, schema: SCHEMA.mbo, mappings: [{ raw: 'TEST', id: 1 }] }), ...SESSION.map(mbo)]));
    const inst = join(dir, 'test.yaml');
    writeFileSync(inst, 'symbol: TEST\ntick_size: "0.01"\nlot_size: "1"\nmin_size: 1\nmultiplier: "1"\nmaker_fee: "0.0001"\ntaker_fee: "0.0003"\n');
    const rec = join(dir, 'test.jsonl.gz');
    const imp = await mmbot(['import', 'databento', '--mbo', dbn, '--raw-symbol', 'TEST', '--instrument', inst, '--out', rec, '--json']);
    const summary = JSON.parse(imp.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ bad_rows: {}, bookRows: 14, trades: 2, tradedContracts: 180, books: 5, skippedRecords: 0 });
    const loaded = await readRecording(rec);
    expect(loaded.header.book_level).toBe(3);
    const first = loaded.events.find((e) => e.type === 'book');
    expect(first?.type === 'book' && first.bids[0]).toEqual({ priceTicks: 10000, qty: 150, orders: [100, 50] });

    const cfg = join(dir, 'bt.yaml');
    writeFileSync(
      cfg,
      [
        'venue: { mode: embedded-sim }',
        'bot:',
        '  strategies:',
        '    - { id: t, symbol: TEST, strategy: fixed-spread, params: { halfSpreadTicks: 5, size: 10, maxPosition: 100 } }',
        'risk: { max_position: 200, max_order_qty: 100, max_order_notional_usd: 100000 }',
        'monitoring: { enabled: false }',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'report');
    await mmbot(['backtest', '--config', cfg, '--data', rec, '--out', out, '--quiet']);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { total: { fills: { count: number } } };
    expect(report.total.fills.count).toBe(1);
    const csv = readFileSync(join(out, 'fills.csv'), 'utf8').trim().split('\n');
    const head = csv[0]!.split(',');
    const row = Object.fromEntries(csv[1]!.split(',').map((v, i) => [head[i], v]));
    // At the second print's venue time (3 s after the start).
    expect(row).toMatchObject({ ts_exchange_ms: (1_723_212_003_000).toFixed(3), side: 'buy', price: '100.00', qty: '10', liquidity: 'maker', fee: '0.10000000', position_after: '10' });
  }, 90_000);
});
