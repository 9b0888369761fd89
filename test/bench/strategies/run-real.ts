/**
 * `npm run bench:strategies -- --real-data [dir]` (dir default ../shared/data, relative to the repo):
 * imports the shared AMZN LOBSTER day and the BTCUSDT capture with `mmbot import` at their true
 * fees (cached under .tmp/strategy-bench/real/), then backtests every single-symbol built-in with
 * only `size` and `maxPosition` set (plus the fair baseline, `fixed-spread` with its inventory price
 * skew) on AMZN's full day, morning (09:30–12:45, where defaults were developed) and afternoon
 * (12:45–16:00, out of sample) and on BTCUSDT; an ablation of the model quoter's components; the
 * same at AX's tier-1 fees with and without the reward program's estimated rewards; and one
 * `mmbot walk-forward` of glft on AMZN. Writes the tables between the REAL-* markers of
 * strategies/README.md. The repo's tests never read the data directory; only this bench does.
 */
import { withMarkedSection } from '../bench-kit.ts';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { AMZN_HOURS, AX_ASSUMED_POOL_USD_PER_DAY, AX_TIER1_FEES, REAL_MARKETS, type RealMarket, type RealWindow } from './real-markets.ts';
import { formatHourlySummary, formatRealTable, formatRewardTable, realRowOf, type RealRow } from './real-table.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const mmbot = (a: string[]) => exec(process.execPath, [join(ROOT, 'bin/mmbot.js'), ...a], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 3_600_000 });

/** One backtest: a built-in (or an ablation of it) with its parameters beyond size and maxPosition. */
export interface RealLeg {
  readonly label: string;
  readonly strategy: string;
  readonly extra: Readonly<Record<string, unknown>>;
}

/** Every single-symbol built-in with only size and maxPosition, and the fair baseline. */
export const MAIN_LEGS: readonly RealLeg[] = [
  { label: 'fixed-spread', strategy: 'fixed-spread', extra: {} },
  { label: 'fixed-spread priceSkew=1', strategy: 'fixed-spread', extra: { priceSkew: 1 } },
  { label: 'avellaneda-stoikov', strategy: 'avellaneda-stoikov', extra: {} },
  { label: 'glft', strategy: 'glft', extra: {} },
];

/**
 * Each component of the model quoters switched against its default (the defaults themselves are
 * the main table's rows), on the full AMZN day and, for the two new components, the afternoon.
 */
export const ABLATION_LEGS: readonly (RealLeg & { readonly windows: readonly string[]; readonly overlays?: unknown[]; readonly market?: string })[] = [
  { label: 'glft leadingFair=on', strategy: 'glft', extra: { leadingFair: true }, windows: ['full'] },
  { label: 'glft leadingFair+queueAware=on', strategy: 'glft', extra: { leadingFair: true, queueAware: true }, windows: ['full', 'afternoon'] },
  { label: 'glft queueAware=on', strategy: 'glft', extra: { queueAware: true }, windows: ['full', 'afternoon'] },
  { label: 'glft floor off (minSpreadShare 0)', strategy: 'glft', extra: { minSpreadShare: 0 }, windows: ['morning', 'full', 'afternoon'] },
  { label: 'glft flowState=off', strategy: 'glft', extra: { flowState: 'off' }, windows: ['morning', 'full', 'afternoon'] },
  { label: 'glft flowState=pull', strategy: 'glft', extra: { flowState: 'pull' }, windows: ['morning', 'full', 'afternoon'] },
  { label: 'glft floor off + flowState=off', strategy: 'glft', extra: { minSpreadShare: 0, flowState: 'off' }, windows: ['morning', 'full', 'afternoon'] },
  { label: 'avellaneda-stoikov flowState=off', strategy: 'avellaneda-stoikov', extra: { flowState: 'off' }, windows: ['morning', 'full', 'afternoon'] },
  // The second real market: a one-tick crypto book, where the floor has nothing to floor.
  { label: 'glft flowState=off', strategy: 'glft', extra: { flowState: 'off' }, windows: ['full'], market: 'btcusdt' },
  { label: 'glft floor off (minSpreadShare 0)', strategy: 'glft', extra: { minSpreadShare: 0 }, windows: ['full'], market: 'btcusdt' },
  { label: 'glft flowAlpha=off', strategy: 'glft', extra: { flowAlpha: false }, windows: ['full'] },
  { label: 'glft edgeGuard=off', strategy: 'glft', extra: { edgeGuard: 'off' }, windows: ['full', 'morning', 'afternoon'] },
  { label: 'glft toxicityGuard=off', strategy: 'glft', extra: { toxicityGuard: false }, windows: ['full', 'afternoon'] },
  { label: 'avellaneda-stoikov toxicityGuard=off', strategy: 'avellaneda-stoikov', extra: { toxicityGuard: false }, windows: ['full', 'afternoon'] },
  { label: 'avellaneda-stoikov leadingFair=on', strategy: 'avellaneda-stoikov', extra: { leadingFair: true }, windows: ['full'] },
  { label: 'avellaneda-stoikov queueAware=on', strategy: 'avellaneda-stoikov', extra: { queueAware: true }, windows: ['full'] },
];

/** Hour by hour on AMZN: glft as it ships, glft with the two real-data defaults off, and the baseline. */
export const HOURLY_LEGS: readonly RealLeg[] = [
  { label: 'glft', strategy: 'glft', extra: {} },
  { label: 'glft floor off + flowState=off', strategy: 'glft', extra: { minSpreadShare: 0, flowState: 'off' } },
  { label: 'fixed-spread priceSkew=1', strategy: 'fixed-spread', extra: { priceSkew: 1 } },
];

/** The backtest config of one leg on one market and window (also the AMZN-day bench's config). */
export function configFor(m: RealMarket, leg: RealLeg & { overlays?: unknown[] }, w: RealWindow, fees: { maker: number; taker: number } | null, poolUsd: number): string {
  const entry: Record<string, unknown> = { id: 'bench', symbol: m.symbol, strategy: leg.strategy, params: { size: m.size, maxPosition: m.maxPosition, ...leg.extra } };
  if (leg.overlays) entry['overlays'] = leg.overlays;
  return stringify({
    venue: { mode: 'embedded-sim' },
    bot: { strategies: [entry] },
    // Generous engine limits and no kill switch: the strategy's own maxPosition is what is measured.
    risk: {
      max_position: m.maxPosition * 2,
      max_order_qty: m.size * 10,
      max_order_notional_usd: 100_000_000,
      max_open_orders: 40,
      kill_switch: { max_drawdown_usd: 0, max_daily_loss_usd: 0, reject_storm_count: 0, stale_market_data_ms: 0 },
    },
    monitoring: { enabled: false },
    backtest: {
      seed: 1,
      ...(w.startMs !== null ? { start_ms: w.startMs } : {}),
      ...(w.endMs !== null ? { end_ms: w.endMs } : {}),
      ...(fees ? { fees } : {}),
      ...(poolUsd > 0 ? { rewards: { pool_usd_per_day: poolUsd } } : {}),
    },
  });
}

/** Imports a market once (cached; written under another name first so a broken import is not kept). */
export async function importMarket(m: RealMarket, dataDir: string, work: string): Promise<string> {
  const out = join(work, `${m.name}.jsonl.gz`);
  if (existsSync(out)) return out;
  const dir = join(dataDir, m.folder);
  const ins = join(work, `${m.name}.yaml`);
  writeFileSync(ins, stringify(m.instrument));
  process.stderr.write(`importing ${m.name} from ${dir}...\n`);
  await mmbot(['import', m.importer, ...m.importArgs.map((a) => a.replace('{dir}', dir)), '--instrument', ins, '--out', `${out}.part`]);
  renameSync(`${out}.part`, out);
  return out;
}

async function backtest(m: RealMarket, data: string, leg: RealLeg, w: RealWindow, dir: string, fees: { maker: number; taker: number } | null = null, poolUsd = 0): Promise<RealRow> {
  mkdirSync(dir, { recursive: true });
  const cfg = join(dir, 'config.yaml');
  writeFileSync(cfg, configFor(m, leg, w, fees, poolUsd));
  try {
    await mmbot(['backtest', '--config', cfg, '--data', data, '--out', dir, '--quiet']);
    return realRowOf(m.name, w.name, leg.label, JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));
  } catch (e) {
    const msg = (e as { stderr?: string }).stderr?.trim().split('\n').pop() || (e as Error).message.split('\n')[0] || 'failed';
    process.stderr.write(`backtest ${m.name} ${w.name} ${leg.label} failed: ${msg}\n`);
    return { market: m.name, window: w.name, label: leg.label, error: msg } as RealRow;
  }
}

/** Runs jobs two at a time (a 2-core machine), keeping their order. */
async function pool<T>(jobs: readonly (() => Promise<T>)[], width = 2): Promise<T[]> {
  const out = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

const slug = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/** Replaces the text between `<!-- NAME:BEGIN -->` and `<!-- NAME:END -->` of strategies/README.md. */
function writeReadme(marker: string, body: string): void {
  const readme = join(ROOT, 'strategies/README.md');
  const next = withMarkedSection(readFileSync(readme, 'utf8'), marker, body);
  if (next === null) {
    process.stderr.write(`strategies/README.md has no ${marker} markers: table not written\n`);
    return;
  }
  writeFileSync(readme, next);
}

/** The walk-forward of glft on the AMZN day: 2 h train, 1 h test, a three-point grid. */
async function walkForward(m: RealMarket, data: string, work: string): Promise<string> {
  const dir = join(work, 'walk-forward');
  mkdirSync(dir, { recursive: true });
  const cfg = join(dir, 'config.yaml');
  writeFileSync(cfg, configFor(m, { label: 'glft', strategy: 'glft', extra: {} }, { name: 'full', startMs: null, endMs: null }, null, 0));
  const grid = join(dir, 'grid.yaml');
  writeFileSync(grid, stringify({ grid: { 'bot.strategies.0.params.riskAversion': [0.5, 1, 2] }, objective: 'net' }));
  const { stdout } = await mmbot(['walk-forward', '--config', cfg, '--grid', grid, '--data', data, '--train', '2h', '--test', '1h', '--workers', '2', '--out', join(dir, 'out'), '--force']);
  return stdout.replace(/\nreport: .*\n?$/, '\n').trimEnd();
}

export async function runReal(dataDirArg: string | undefined): Promise<boolean> {
  const dataDir = resolve(ROOT, dataDirArg ?? '../shared/data');
  const work = join(ROOT, '.tmp/strategy-bench/real');
  mkdirSync(work, { recursive: true });
  const recs = new Map<string, string>();
  for (const m of REAL_MARKETS) recs.set(m.name, await importMarket(m, dataDir, work));
  const runs = join(work, 'runs');
  const jobsMain: (() => Promise<RealRow>)[] = [];
  for (const m of REAL_MARKETS)
    for (const w of m.windows) for (const leg of MAIN_LEGS) jobsMain.push(() => backtest(m, recs.get(m.name)!, leg, w, join(runs, slug(`${m.name}-${w.name}-${leg.label}`))));
  const amzn = REAL_MARKETS[0]!;
  const jobsAblation: (() => Promise<RealRow>)[] = [];
  for (const leg of ABLATION_LEGS) {
    const m = REAL_MARKETS.find((x) => x.name === (leg.market ?? 'amzn'))!;
    for (const w of m.windows.filter((x) => leg.windows.includes(x.name))) jobsAblation.push(() => backtest(m, recs.get(m.name)!, leg, w, join(runs, slug(`ablation-${m.name}-${w.name}-${leg.label}`))));
  }
  const jobsAx: (() => Promise<RealRow>)[] = [];
  for (const m of REAL_MARKETS)
    for (const leg of MAIN_LEGS) jobsAx.push(() => backtest(m, recs.get(m.name)!, leg, m.windows[0]!, join(runs, slug(`ax-${m.name}-${leg.label}`)), AX_TIER1_FEES, AX_ASSUMED_POOL_USD_PER_DAY));
  const jobsHourly: (() => Promise<RealRow>)[] = [];
  for (const w of AMZN_HOURS) for (const leg of HOURLY_LEGS) jobsHourly.push(() => backtest(amzn, recs.get(amzn.name)!, leg, w, join(runs, slug(`hourly-${w.name}-${leg.label}`))));
  const main = await pool(jobsMain);
  const hourly = await pool(jobsHourly);
  const ablation = await pool(jobsAblation);
  const ax = await pool(jobsAx);
  let wf: string;
  try {
    wf = await walkForward(amzn, recs.get(amzn.name)!, work);
  } catch (e) {
    wf = `walk-forward failed: ${((e as { stderr?: string }).stderr ?? (e as Error).message).trim().split('\n').slice(-3).join(' ')}`;
  }
  const date = new Date().toISOString().slice(0, 10);
  const cmd = `\`npm run bench:strategies -- --real-data\` (${date})`;
  const mainTable = formatRealTable(main);
  const ablationTable = formatRealTable(ablation);
  const axTable = formatRewardTable(ax);
  const hourlyTable = `${formatRealTable(hourly)}\n\n${formatHourlySummary(hourly, HOURLY_LEGS[0]!.label, HOURLY_LEGS.map((l) => l.label))}`;
  process.stdout.write(`\n${mainTable}\n\n${hourlyTable}\n\n${ablationTable}\n\n${axTable}\n\n${wf}\n`);
  writeFileSync(join(ROOT, 'test/bench/strategies-real-results.json'), `${JSON.stringify({ main, hourly, ablation, ax }, null, 2)}\n`);
  writeReadme('REAL-HOURLY', `\n${cmd}; AMZN hour by hour at its true fees, each hour starting cold (no calibration carried over), with only size and maxPosition:\n\n${hourlyTable}\n`);
  writeReadme('REAL', `\n${cmd}; each built-in with only size and maxPosition (AMZN 100 / 500 shares, BTCUSDT 10 / 80 contracts of 0.001 BTC), at the source's true fees:\n\n${mainTable}\n`);
  writeReadme('REAL-ABLATION', `\n${cmd}; AMZN (and two BTCUSDT rows) at their true fees, one component of glft or avellaneda-stoikov switched against its default per row (the defaults are the main table's rows):\n\n${ablationTable}\n`);
  writeReadme('REAL-AX', `\n${cmd}; the full recordings at AX's tier-1 fees (maker ${AX_TIER1_FEES.maker * 1e4} bps, taker ${AX_TIER1_FEES.taker * 1e4} bps), rewards estimated with an assumed pool of ${AX_ASSUMED_POOL_USD_PER_DAY} USD per day (AX does not publish its pools):\n\n${axTable}\n`);
  writeReadme('REAL-WALK-FORWARD', `\n${cmd}: \`mmbot walk-forward\` of glft on the AMZN day (train 2 h, test 1 h, riskAversion ∈ {0.5, 1, 2}, objective net):\n\n\`\`\`\n${wf}\n\`\`\`\n`);
  process.stdout.write('updated the real-market tables in strategies/README.md\n');
  return [...main, ...hourly, ...ablation, ...ax].every((r) => !r.error);
}
