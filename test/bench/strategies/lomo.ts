/**
 * `npm run bench:strategies -- --lomo [dir] [--lomo-draws 16] [--lomo-groups a,b] [--lomo-fresh]`
 * (dir: the real-data folder, as --real-data): the leave-one-market-out evidence for every default
 * of the model quoters (issue 34). Four markets of three kinds (the AMZN and AAPL LOBSTER days,
 * Binance BTCUSDT futures, a Binance NEXOUSDT spot day), each imported with its recipe
 * (examples/real-days/) at the source's true fees. One selection group per default
 * (lomo-groups.ts: the default plus one or two alternatives); for every (market, candidate) an
 * ensemble of paired draws of glft against the baseline (`fixed-spread` with `priceSkew: 1`), both
 * with only `size` and `maxPosition` set. Ensembles are cached under .tmp/strategy-bench/lomo/ by
 * market and params hash, so the default's is shared by every group and adding a group runs only
 * its alternatives (`--lomo-fresh` redoes them all). Per group and held-out market the candidate
 * with the best mean rank by median edge on the *other* markets is chosen and judged held out
 * (lomo-select.ts). Writes the default-vs-baseline table between the REAL-LOMO markers and one
 * evidence row per default between the REAL-LOMO-DEFAULTS markers of strategies/README.md, and
 * the figures to test/bench/strategies-lomo-results.json. The repo's tests never read the data folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { withMarkedSection } from '../bench-kit.ts';
import { probabilityOfOverfitting } from '../../../src/research/overfitting.ts';
import { glftParams } from '../../../strategies/glft/index.ts';
import { LOMO_GROUPS, type LomoGroup } from './lomo-groups.ts';
import { figuresOf, formatDefaultsTable, formatMarketsTable, paramsKey, selectHeldOut, verdictOf, verdictText, type Ensemble, type GroupOutcome } from './lomo-select.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const mmbot = (a: string[]) => exec(process.execPath, [join(ROOT, 'bin/mmbot.js'), ...a], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 3_600_000 });

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

/** How a run is scaled and filtered (run.ts parses the flags). */
export interface LomoOptions {
  /** Paired draws per ensemble (16 for the published tables). */
  readonly draws: number;
  /** Only these groups (by parameter name); all when undefined. */
  readonly groups?: readonly string[];
  /** Delete the cached ensembles first. */
  readonly fresh?: boolean;
}

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

/** Why a group cannot run on this build (a candidate's params fail glft's schema), or null. */
function groupProblem(g: LomoGroup): string | null {
  for (const c of g.candidates) {
    const r = glftParams.safeParse({ size: 1, maxPosition: 1, ...c.params });
    if (!r.success) return `${c.label}: ${r.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ')}`;
  }
  return null;
}

/** The groups a run selects; an unknown name in the filter is an error naming it and the known ones. */
function pickGroups(names: readonly string[] | undefined): readonly LomoGroup[] {
  if (!names) return LOMO_GROUPS;
  const unknown = names.filter((n) => !LOMO_GROUPS.some((g) => g.param === n));
  if (unknown.length > 0) throw new Error(`--lomo-groups: unknown group(s) ${unknown.join(', ')}; known: ${LOMO_GROUPS.map((g) => g.param).join(', ')}`);
  return LOMO_GROUPS.filter((g) => names.includes(g.param));
}

/** Runs the selections and writes their tables and results file; returns the tables. */
export async function runLomo(dataDir: string, opts: LomoOptions): Promise<string> {
  const groups = pickGroups(opts.groups);
  const work = join(ROOT, '.tmp/strategy-bench/lomo');
  const cache = join(work, `draws${opts.draws}`);
  if (opts.fresh) rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const t0 = Date.now();
  const ensembles = new Map<string, Ensemble>();
  // The best median edge any candidate of any group reaches on each market (what the market allows).
  const bestOf = new Map<string, { edge: number; label: string }>();
  /**
   * The ensemble of one (market, params), run unless cached (key: market + draws + the hash of the
   * params as glft resolves them, defaults filled in: a changed default is a new key, not a stale hit).
   */
  const ensemble = async (m: LomoMarket, data: string, base: string, label: string, params: Readonly<Record<string, unknown>>): Promise<Ensemble> => {
    const key = `${m.name}-${paramsKey(glftParams.parse({ size: 1, maxPosition: 1, ...params }) as Record<string, unknown>)}`;
    const hit = ensembles.get(key);
    if (hit) return hit;
    const out = join(cache, key);
    if (!existsSync(join(out, 'ensemble.json'))) {
      await mmbot(['backtest', '--config', config(m, 'glft', params, cache, key), '--data', data, '--ensemble', String(opts.draws), '--seed', '1', '--vs', base, '--jobs', '2', '--out', out]);
      process.stderr.write(`${m.name} ${label}: done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
    }
    const e = JSON.parse(readFileSync(join(out, 'ensemble.json'), 'utf8')) as Ensemble;
    ensembles.set(key, e);
    const top = bestOf.get(m.name);
    if (!top || e.summary.edge_bps.p50 > top.edge) bestOf.set(m.name, { edge: e.summary.edge_bps.p50, label });
    return e;
  };
  const outcomes: GroupOutcome[] = [];
  const results: Record<string, unknown>[] = [];
  const runnable = groups.filter((g) => {
    const problem = groupProblem(g);
    if (problem === null) return true;
    process.stderr.write(`lomo: skipping group ${g.param}: its params fail glft's schema on this build (${problem})\n`);
    outcomes.push({ group: g, skipped: `params fail glft's schema on this build (${problem})` });
    results.push({ param: g.param, skipped: problem });
    return false;
  });
  const defaults: { market: string; ensemble: Ensemble }[] = [];
  const perMarket = new Map<string, { data: string; base: string }>();
  for (const m of MARKETS) {
    const data = await importMarket(m, dataDir, work);
    perMarket.set(m.name, { data, base: config(m, 'fixed-spread', {}, cache, 'baseline') });
    defaults.push({ market: m.name, ensemble: await ensemble(m, data, perMarket.get(m.name)!.base, 'default', {}) });
  }
  for (const g of runnable) {
    const figures: Record<string, Record<string, unknown>> = {};
    const edges: number[][] = g.candidates.map(() => []);
    for (const m of MARKETS) {
      const { data, base } = perMarket.get(m.name)!;
      figures[m.name] = {};
      for (const [c, cand] of g.candidates.entries()) {
        const e = await ensemble(m, data, base, cand.label, cand.params);
        edges[c]!.push(e.summary.edge_bps.p50);
        figures[m.name]![cand.label] = figuresOf(e);
      }
    }
    const held = selectHeldOut(edges, MARKETS.map((m) => m.name));
    // How much of "take the best candidate" is luck: PBO over the candidates × markets median edges.
    const pbo = probabilityOfOverfitting(edges)?.pbo ?? null;
    outcomes.push({ group: g, held, pbo });
    const v = verdictOf(held);
    results.push({ param: g.param, candidates: g.candidates, markets: figures, heldOut: held.map((h) => ({ ...h, chosen: g.candidates[h.chosen]!.label, bestAlt: g.candidates[h.bestAlt]?.label ?? null })), pbo, verdict: verdictText(v, (c) => g.candidates[c]!.label), holds: v.holds });
  }
  const order = (param: unknown): number => groups.findIndex((g) => g.param === param);
  outcomes.sort((a, b) => order(a.group.param) - order(b.group.param));
  results.sort((a, b) => order(a['param']) - order(b['param']));
  const names = MARKETS.map((m) => m.name);
  const day = new Date().toISOString().slice(0, 10);
  const run = `\`npm run bench:strategies -- --lomo\` (${day}; ${opts.draws} paired draws per ensemble against the baseline, the source's true fees, only size and maxPosition set, examples/real-days)`;
  const best = names.map((n) => `${n} ${bestOf.get(n)!.edge.toFixed(2)} (${bestOf.get(n)!.label})`).join('; ');
  const marketsTable = `\n${run}: glft's defaults on every market, median [p5, p95] over the draws; target: median edge ≥ 0, two-sided uptime ≥ 50 %, beats the baseline on ≥ 90 % of paired draws.\n\n${formatMarketsTable(defaults)}\n\nThe best median edge (bps) any candidate of any group reaches on each market: ${best}.\n`;
  const defaultsTable = `\n${run}: one selection per default. Each market held out in turn, the group's candidates ranked by their mean rank (by median edge, bps of traded notional) on the other three; the cells give the default's and the best-ranked alternative's median edge on the held-out market; PBO by CSCV over the candidates × ${names.length} markets.\n\n${formatDefaultsTable(outcomes, names)}\n`;
  const readme = join(ROOT, 'strategies/README.md');
  let text = readFileSync(readme, 'utf8');
  for (const [marker, body] of [['REAL-LOMO', marketsTable], ['REAL-LOMO-DEFAULTS', defaultsTable]] as const) {
    const next = withMarkedSection(text, marker, body);
    if (next === null) throw new Error(`strategies/README.md has no ${marker} markers`);
    text = next;
  }
  writeFileSync(readme, text);
  const file = join(ROOT, 'test/bench/strategies-lomo-results.json');
  writeFileSync(file, `${JSON.stringify({ generated: day, draws: opts.draws, markets: names, defaults: Object.fromEntries(defaults.map((d) => [d.market, figuresOf(d.ensemble)])), groups: results }, null, 2)}\n`);
  return `${marketsTable}${defaultsTable}`;
}
