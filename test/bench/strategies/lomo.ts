/**
 * `npm run bench:strategies -- --lomo [dir]` (dir: the real-data folder, as --real-data): the
 * leave-one-market-out selection of glft's defaults (issue 34, item 1). Four markets of three kinds
 * (the AMZN and AAPL LOBSTER days, Binance BTCUSDT futures, a Binance NEXOUSDT spot day), each
 * imported with its recipe (examples/real-days/) at the source's true fees; a few candidate settings
 * of glft's two real-data defaults; for every (market, candidate) an ensemble of 16 paired draws
 * against the baseline (`fixed-spread` with `priceSkew: 1`), both with only `size` and
 * `maxPosition` set. For each market the candidate with the best mean over the *other* markets of
 * its median edge (net over traded notional, bps) is chosen and judged on the held-out market, next
 * to the current default and the baseline. Writes the table between the REAL-LOMO markers of
 * strategies/README.md. The repo's tests never read the data folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { withMarkedSection } from '../bench-kit.ts';
import { probabilityOfOverfitting } from '../../../src/research/overfitting.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const mmbot = (a: string[]) => exec(process.execPath, [join(ROOT, 'bin/mmbot.js'), ...a], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 3_600_000 });
const DRAWS = 16;

/** One market of the corpus: its data files under the data folder and its recipe name. */
interface LomoMarket {
  readonly name: string;
  readonly folder: string;
  readonly importer: 'lobster' | 'tardis';
  readonly args: readonly string[];
}

const MARKETS: readonly LomoMarket[] = [
  { name: 'amzn', folder: 'amzn-2012-06-21-lobster-L5', importer: 'lobster', args: ['--messages', 'AMZN_2012-06-21_34200000_57600000_message_5.csv.gz', '--orderbook', 'AMZN_2012-06-21_34200000_57600000_orderbook_5.csv.gz', '--date', '2012-06-21'] },
  { name: 'aapl', folder: 'aapl-2012-06-21-lobster-L1', importer: 'lobster', args: ['--messages', 'AAPL_2012-06-21_34200000_57600000_message_1.csv.gz', '--orderbook', 'AAPL_2012-06-21_34200000_57600000_orderbook_1.csv.gz', '--date', '2012-06-21'] },
  { name: 'btcusdt', folder: 'btcusdt-2024-08-08', importer: 'tardis', args: ['--book', 'incremental_book_L2.csv.gz', '--trades', 'trades.csv.gz'] },
  { name: 'nexousdt', folder: 'nexousdt-spot-2024-07-24', importer: 'tardis', args: ['--book', 'incremental_book_L2.csv.gz', '--trades', 'trades.csv.gz'] },
];

/** The candidate settings: glft's two real-data defaults on and off (the first is the current default). */
const CANDIDATES: readonly { readonly label: string; readonly params: Readonly<Record<string, unknown>> }[] = [
  { label: 'default (minSpreadShare 0.5, flowState widen)', params: {} },
  { label: 'flowState off', params: { flowState: 'off' } },
  { label: 'minSpreadShare 0', params: { minSpreadShare: 0 } },
  { label: 'minSpreadShare 0, flowState off', params: { minSpreadShare: 0, flowState: 'off' } },
];

interface Dist { mean: number; sd: number; p5: number; p50: number; p95: number }
interface Summary { runs: number; net_usd: Dist; edge_bps: Dist; fills: Dist; uptime_two_sided: Dist; p_net_positive: number }
interface Ensemble { summary: Summary; vs?: { summary: Summary }; paired?: { p_better: number } }

/** Imports a market once with its recipe's instrument file (cached under `work`). */
async function importMarket(m: LomoMarket, dataDir: string, work: string): Promise<string> {
  const out = join(work, `${m.name}.jsonl.gz`);
  if (existsSync(out)) return out;
  const dir = join(dataDir, m.folder);
  const files = m.args.map((a) => (a.endsWith('.gz') ? join(dir, a) : a));
  process.stderr.write(`importing ${m.name}...\n`);
  await mmbot(['import', m.importer, ...files, '--instrument', join(ROOT, 'examples/real-days', `${m.name}.instrument.yaml`), '--out', `${out}.part`]);
  renameSync(`${out}.part`, out);
  return out;
}

/** The recipe's config with extra glft params, written under `work`. */
function config(m: LomoMarket, strategy: 'glft' | 'fixed-spread', extra: Readonly<Record<string, unknown>>, work: string, tag: string): string {
  const doc = parse(readFileSync(join(ROOT, 'examples/real-days', `${m.name}-${strategy}.yaml`), 'utf8')) as { bot: { strategies: { params: Record<string, unknown> }[] } };
  Object.assign(doc.bot.strategies[0]!.params, extra);
  const path = join(work, `${m.name}-${tag}.yaml`);
  writeFileSync(path, stringify(doc));
  return path;
}

const f = (v: number, d = 2): string => (Number.isFinite(v) ? v.toFixed(d) : '–');
const pct = (v: number): string => (Number.isFinite(v) ? `${Math.round(v * 100)} %` : '–');
const span = (d: Dist, digits = 2): string => `${f(d.p50, digits)} [${f(d.p5, digits)}, ${f(d.p95, digits)}]`;

/** Runs the selection and writes its table; returns it. */
export async function runLomo(dataDir: string): Promise<string> {
  const work = join(ROOT, '.tmp/strategy-bench/lomo');
  mkdirSync(work, { recursive: true });
  const t0 = Date.now();
  const results = new Map<string, Ensemble>();
  for (const m of MARKETS) {
    const data = await importMarket(m, dataDir, work);
    const base = config(m, 'fixed-spread', {}, work, 'baseline');
    for (const [k, c] of CANDIDATES.entries()) {
      const out = join(work, `${m.name}-c${k}`);
      // An ensemble already run for this market and candidate is reused (delete .tmp/strategy-bench/lomo to redo).
      if (!existsSync(join(out, 'ensemble.json')))
        await mmbot(['backtest', '--config', config(m, 'glft', c.params, work, `c${k}`), '--data', data, '--ensemble', String(DRAWS), '--seed', '1', '--vs', base, '--jobs', '2', '--out', out]);
      results.set(`${m.name}/${k}`, JSON.parse(readFileSync(join(out, 'ensemble.json'), 'utf8')) as Ensemble);
      process.stderr.write(`${m.name} ${c.label}: done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
    }
  }
  const edge = (m: string, k: number): number => results.get(`${m}/${k}`)!.summary.edge_bps.p50;
  // How much of "take the best candidate" is luck: PBO over the candidates × markets median edges.
  const pbo = probabilityOfOverfitting(CANDIDATES.map((_, k) => MARKETS.map((m) => edge(m.name, k))));
  const rows: string[] = [];
  const choices: string[] = [];
  for (const h of MARKETS) {
    const others = MARKETS.filter((m) => m !== h);
    const score = CANDIDATES.map((_, k) => others.reduce((a, m) => a + edge(m.name, k), 0) / others.length);
    const chosen = score.indexOf(Math.max(...score));
    choices.push(`${h.name}: ${CANDIDATES[chosen]!.label} (mean median edge on the others ${f(score[chosen]!)} bps)`);
    const e = (k: number) => results.get(`${h.name}/${k}`)!;
    const line = (who: string, s: Summary, pBetter: number | null): string =>
      `| ${h.name} | ${who} | ${span(s.net_usd)} | ${span(s.edge_bps)} | ${pct(s.p_net_positive)} | ${pBetter === null ? '–' : pct(pBetter)} | ${pct(s.uptime_two_sided.p50)} | ${f(s.fills.p50, 0)} |`;
    rows.push(line(`chosen out of sample: ${CANDIDATES[chosen]!.label}`, e(chosen).summary, e(chosen).paired?.p_better ?? null));
    if (chosen !== 0) rows.push(line(`current default`, e(0).summary, e(0).paired?.p_better ?? null));
    rows.push(line('baseline: fixed-spread priceSkew=1', e(0).vs!.summary, null));
  }
  const table = [
    `\n\`npm run bench:strategies -- --lomo\` (${new Date().toISOString().slice(0, 10)}; 16 ensembles of 32 replays, about 5 min on the 2-core machine): each market held out in turn; glft's candidates ranked by the mean of their median edge (bps of traded notional) over the other three markets, ${DRAWS} paired draws each against the baseline, the source's true fees, only size and maxPosition set (examples/real-days). Figures on the held-out market: median [p5, p95].`,
    '',
    '| held-out market | setting | net USD | edge bps | P(net > 0) | P(beats baseline) | two-sided uptime p50 | fills p50 |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Chosen per held-out market: ${choices.join('; ')}. Probability of backtest overfitting of the selection (CSCV over the ${MARKETS.length} markets as windows, ${pbo?.splits ?? 0} splits): ${pbo ? pbo.pbo.toFixed(2) : 'n/a'}.`,
    '',
  ].join('\n');
  const readme = join(ROOT, 'strategies/README.md');
  const next = withMarkedSection(readFileSync(readme, 'utf8'), 'REAL-LOMO', table);
  if (next === null) throw new Error('strategies/README.md has no REAL-LOMO markers');
  writeFileSync(readme, next);
  return table;
}
