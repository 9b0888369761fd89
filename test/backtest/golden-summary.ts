/**
 * The committed sample's headline figures: what `golden.test.ts` asserts exactly against
 * `golden-summary.json` and what the README quotes (the block between the golden markers).
 * Both are rewritten only on purpose, by `npm run golden:update` (golden-update.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { BacktestReport } from '../../src/backtest/report.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const GOLDEN_PATH = join(ROOT, 'test/backtest/golden-summary.json');
export const README_PATH = join(ROOT, 'docs/guides/backtesting.md'); // the guide quotes the golden figures
/** config/backtest.yaml plus a maker fee and a taker inventory exit (golden-strategy.ts): every kind of fill and fee, and funding. */
export const GOLDEN_CONFIG = 'test/backtest/golden.yaml';
export const BEGIN = '<!-- golden:begin: written by `npm run golden:update` from test/backtest/golden-summary.json -->';
export const END = '<!-- golden:end -->';

/** The figures the golden test pins. */
export interface GoldenSummary {
  readonly config: string;
  readonly events_replayed: number;
  readonly fills: { count: number; maker: number; taker: number; volume: number; market_volume: number };
  readonly pnl: { spread_capture: string; inventory: string; fees: string; funding: string; net: string; estimated_rewards: string };
  readonly funding_settlements: number;
  readonly markouts_bps: Readonly<Record<string, number | null>>;
  readonly inventory_p95_abs: number;
  readonly sharpe: number | null;
  readonly max_drawdown_usd: string;
  readonly orders_placed: number;
}

/** Runs `mmbot backtest` on the committed sample into `out` (a child process with a hard timeout). */
export async function runSample(out: string, config: string = GOLDEN_CONFIG): Promise<void> {
  await promisify(execFile)(process.execPath, ['bin/mmbot.js', 'backtest', '--config', config, '--out', out, '--quiet'], { cwd: ROOT, timeout: 25_000, killSignal: 'SIGKILL' });
}

/** The golden figures of a report. */
export function goldenSummary(r: BacktestReport): GoldenSummary {
  const t = r.total;
  return {
    config: GOLDEN_CONFIG,
    events_replayed: r.events.replayed,
    fills: { count: t.fills.count, maker: t.fills.maker, taker: t.fills.taker, volume: t.fills.volume, market_volume: t.fills.market_volume },
    pnl: { spread_capture: t.pnl.spread_capture, inventory: t.pnl.inventory, fees: t.pnl.fees, funding: t.pnl.funding, net: t.pnl.net, estimated_rewards: t.pnl.estimated_rewards },
    funding_settlements: t.funding_settlements,
    markouts_bps: t.markouts_bps,
    inventory_p95_abs: t.inventory.p95_abs,
    sharpe: t.sharpe,
    max_drawdown_usd: t.max_drawdown_usd,
    orders_placed: t.orders.placed,
  };
}

/** The committed golden figures. */
export const readGolden = (): GoldenSummary => JSON.parse(readFileSync(GOLDEN_PATH, 'utf8')) as GoldenSummary;

const thousands = (n: number): string => n.toLocaleString('en-US');
const usd = (s: string): string => (s.startsWith('-') ? `−${s.slice(1)}` : s);
const bp = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : usd(String(v)));

/** The README paragraph quoting the golden figures (a list item's continuation lines: 2-space indent). */
export function readmeBlock(g: GoldenSummary): string {
  const share = g.fills.market_volume > 0 ? Math.round((100 * g.fills.volume) / g.fills.market_volume) : 0;
  const text =
    `On the committed sample (8 minutes of synthetic EURUSD-PERP across the 16:00 London funding settlement) ` +
    `\`${g.config}\` (\`config/backtest.yaml\` with a 0.5 bp maker fee and an inventory exit sent as taker) ` +
    `reports ${thousands(g.fills.count)} fills (${thousands(g.fills.maker)} maker, ${thousands(g.fills.taker)} taker) ` +
    `for ${thousands(g.fills.volume)} contracts, ${share}% of the ${thousands(g.fills.market_volume)} the market traded; ` +
    `fees of ${usd(g.pnl.fees)} USD; ` +
    `a funding charge of ${usd(g.pnl.funding)} USD on the long position held at the settlement; ` +
    `an estimated reward of ${g.pnl.estimated_rewards} USD (quotes keep resting past the program's 3 s minimum thanks to the order-manager tolerances in the config); ` +
    `spread capture ${usd(g.pnl.spread_capture)} USD, inventory ${usd(g.pnl.inventory)} USD, net ${usd(g.pnl.net)} USD; ` +
    `markouts 1 s / 10 s / 60 s of ${bp(g.markouts_bps['1s'])} / ${bp(g.markouts_bps['10s'])} / ${bp(g.markouts_bps['60s'])} bps; ` +
    `a p95 |position| of ${thousands(g.inventory_p95_abs)} contracts. ` +
    `\`test/backtest/golden.test.ts\` asserts these figures exactly; a change that moves them on purpose regenerates them and this paragraph with \`npm run golden:update\`.`;
  return [BEGIN, ...wrap(text, 98).map((l) => `  ${l}`), `  ${END}`].join('\n');
}

/** Greedy word wrap at `width` columns. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** The README's current golden block (from the begin marker through the end marker), or null. */
export function currentReadmeBlock(readme: string): string | null {
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END, a);
  return a < 0 || b < 0 ? null : readme.slice(a, b + END.length);
}
