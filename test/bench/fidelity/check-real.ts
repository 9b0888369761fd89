/**
 * `npm run bench:fidelity -- --check`: besides the bench's own replays of the AMZN day, every real
 * recording of the data folder is imported (cached under .tmp/fidelity/check/) and replayed with
 * `mmbot backtest --check` (fixed-spread ±1 tick), and each one's violations are counted by rule.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { importMarket } from '../strategies/run-real.ts';
import { REAL_MARKETS, type RealMarket } from '../strategies/real-markets.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const FULL = [{ name: 'full', startMs: null, endMs: null }] as const;

/** The strategy bench's markets (AMZN, BTCUSDT) and the two it does not trade: AAPL's LOBSTER level-1 day and a NEXOUSDT spot day. */
export const CHECK_MARKETS: readonly RealMarket[] = [
  ...REAL_MARKETS,
  {
    name: 'aapl',
    symbol: 'AAPL',
    folder: 'aapl-2012-06-21-lobster-L1',
    importer: 'lobster',
    importArgs: ['--messages', '{dir}/AAPL_2012-06-21_34200000_57600000_message_1.csv.gz', '--orderbook', '{dir}/AAPL_2012-06-21_34200000_57600000_orderbook_1.csv.gz', '--date', '2012-06-21'],
    instrument: { symbol: 'AAPL', tick_size: '0.01', lot_size: '1', min_size: 1, multiplier: '1', maker_fee: '-0.000011', taker_fee: '0.000013' },
    size: 100,
    maxPosition: 1000,
    windows: FULL,
  },
  {
    name: 'nexousdt',
    symbol: 'NEXOUSDT',
    folder: 'nexousdt-spot-2024-07-24',
    importer: 'tardis',
    importArgs: ['--book', '{dir}/incremental_book_L2.csv.gz', '--trades', '{dir}/trades.csv.gz'],
    // Binance spot's base rate, 0.1 % both ways; one contract is 0.01 NEXO.
    instrument: { symbol: 'NEXOUSDT', tick_size: '0.001', lot_size: '0.01', min_size: 1, multiplier: '0.01', maker_fee: '0.001', taker_fee: '0.001' },
    size: 1000,
    maxPosition: 10000,
    windows: FULL,
  },
];

/** Imports and checks every market whose folder is in `dataDir`; returns one line each and the total violations. */
export async function checkRealRecordings(dataDir: string, work: string): Promise<{ readonly lines: readonly string[]; readonly violations: number }> {
  mkdirSync(work, { recursive: true });
  const lines: string[] = [];
  let violations = 0;
  for (const m of CHECK_MARKETS) {
    if (!existsSync(join(dataDir, m.folder))) {
      lines.push(`${m.name}: no ${m.folder} in ${dataDir}, skipped`);
      continue;
    }
    const data = await importMarket(m, dataDir, work);
    const out = join(work, `${m.name}-check`);
    const cfg = join(work, `${m.name}-check.yaml`);
    writeFileSync(cfg, [
      'venue: { mode: embedded-sim }',
      `bot: { strategies: [ { id: q, symbol: ${m.symbol}, strategy: fixed-spread, params: { halfSpreadTicks: 1, size: ${m.size}, maxPosition: ${m.maxPosition} } } ] }`,
      `risk: { max_position: ${2 * m.maxPosition}, max_order_qty: ${10 * m.size}, max_order_notional_usd: 10000000 }`,
      'monitoring: { enabled: false }',
      'logging: { level: silent }',
      '',
    ].join('\n'));
    // Exit 1 means violations were found: check.json has them either way.
    await exec(process.execPath, [join(ROOT, 'bin/mmbot.js'), 'backtest', '--config', cfg, '--data', data, '--out', out, '--check', '--quiet'], { cwd: ROOT, maxBuffer: 64 << 20 }).catch((e: { code?: number }) => {
      if (e.code !== 1) throw e;
    });
    const c = JSON.parse(readFileSync(join(out, 'check.json'), 'utf8')) as { fills: number; orders: number; levels: number; violations: number; list: { rule: string }[] };
    const byRule = new Map<string, number>();
    for (const v of c.list) byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1);
    violations += c.violations;
    lines.push(`${m.name} (fixed-spread ±1 tick, size ${m.size}): ${c.violations} violations${byRule.size > 0 ? ` (${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''} over ${c.fills} fills, ${c.orders} orders, ${c.levels} price levels; ${out}/check.json`);
  }
  return { lines, violations };
}
