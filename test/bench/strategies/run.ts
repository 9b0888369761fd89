/**
 * `npm run bench:strategies [-- --minutes 30] [--seed 11] [--only glft,fixed-spread] [--presets calm,toxic] [--fresh]`:
 * records each market preset of the local venue on its virtual clock (fixed seed, N minutes of venue
 * time; byte-identical for the same seed, so the tables are exactly repeatable; cached under
 * .tmp/strategy-bench/ unless --fresh), backtests every built-in strategy on it with only `size`
 * and `maxPosition` set, and prints and writes the table (test/bench/strategies-results.json, and
 * the table in strategies/README.md between its BENCH markers).
 *
 * `--real <recording>` (repeatable) adds recordings of real markets (e.g. made by `mmbot import
 * tardis`): every single-symbol built-in runs on the recording's first symbol with size = 10 × its
 * minimum order and maxPosition = 8 × size.
 *
 * `--real-data [dir]` runs the real-market benchmark instead (run-real.ts): the shared AMZN and
 * BTCUSDT data under dir (default ../shared/data) at their true fees, its own tables.
 *
 * `--lomo [dir]` runs the leave-one-market-out evidence for every default of the model quoters
 * instead (lomo.ts): one selection group per default (lomo-groups.ts: the default and one or two
 * alternatives), four real markets, each group's candidates ranked on the other three by their
 * ensembles' median edge and judged held out, with the group's PBO. `--lomo-draws N` (default 16)
 * sets the draws per ensemble, `--lomo-groups a,b` runs only those groups, `--lomo-fresh` redoes
 * the cached ensembles (.tmp/strategy-bench/lomo/).
 *
 * `--seeds 11,12,13` (or `--seeds N`: N consecutive seeds from --seed) runs every strategy on one
 * recording per (preset, seed) and writes the multi-seed table instead (seeds.ts: mean ± sample SD
 * across seeds, net USD min … max, and on how many seeds each strategy beat fixed-spread on the same
 * recording) to test/bench/strategies-seeds-results.json and between the BENCH-SEEDS markers of
 * strategies/README.md. A --real recording has no venue seed and replays deterministically: its
 * rows are run once, as without --seeds. Without --seeds the single-seed run and table are unchanged.
 */
import { withMarkedSection } from '../bench-kit.ts';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { flagInt, flagNumber, flagString, parseArgs } from '../../../src/cli/args.ts';
import { openRecording } from '../../../src/record/index.ts';
import { builtinStrategies } from '../../../src/strategy/registry.ts';
import { legs, scenarios, type Leg, type Scenario } from './scenarios.ts';
import { hedgeFigures } from './net-delta.ts';
import { formatTable, rowOf, type BenchRow } from './table.ts';
import { formatSeedTable, parseSeeds, summarize, type SeededRow } from './seeds.ts';
import { runReal } from './run-real.ts';
import { runLomo } from './lomo.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const args = parseArgs(process.argv.slice(2), { valued: ['minutes', 'seed', 'seeds', 'only', 'clock-speed', 'presets', 'lomo-draws', 'lomo-groups'], repeated: ['real'], boolean: ['fresh', 'real-data', 'lomo', 'lomo-fresh'] });
if (args.flags.has('real-data')) process.exit((await runReal(args.positional[0])) ? 0 : 1);
if (args.flags.has('lomo')) {
  try {
    const groups = flagString(args, 'lomo-groups')?.split(',').filter((g) => g !== '');
    const opts = { draws: flagInt(args, 'lomo-draws', 2, 1000) ?? 16, fresh: args.flags.has('lomo-fresh'), ...(groups ? { groups } : {}) };
    process.stdout.write(await runLomo(resolve(args.positional[0] ?? join(ROOT, '../shared/data')), opts));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  process.exit(0);
}
const minutes = flagNumber(args, 'minutes') ?? 30;
const seed = flagInt(args, 'seed', 0, 2 ** 31) ?? 11;
const speed = flagNumber(args, 'clock-speed') ?? 60;
const only = flagString(args, 'only')?.split(',');
const presets = flagString(args, 'presets')?.split(',');
const seedsSpec = flagString(args, 'seeds');
let seedList: number[] | null = null;
try {
  if (seedsSpec !== undefined) seedList = parseSeeds(seedsSpec, seed);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(2);
}
const work = join(ROOT, '.tmp/strategy-bench');
mkdirSync(work, { recursive: true });

const mmbot = (a: string[]) => exec(process.execPath, [join(ROOT, 'bin/mmbot.js'), ...a], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 3_600_000 });

/**
 * Records a scenario from the local venue on its virtual clock (`mmbot record --local`): the same
 * preset, seed, duration and clock speed give the same bytes, so the tables are exactly repeatable
 * with or without the cache (kept under .tmp/strategy-bench/ by preset, seed, duration and speed).
 */
async function record(s: Scenario): Promise<string> {
  const out = join(work, `${s.preset}-seed${s.seed}-${s.durationS}s-${speed}x-virtual.jsonl.gz`);
  if (existsSync(out) && !args.flags.has('fresh')) return out;
  const venue = join(work, `venue-${s.preset}.yaml`);
  // `default`: the venue's own default market, no preset key (venues from before presets).
  writeFileSync(venue, stringify(s.preset === 'default' ? { seed: s.seed } : { seed: s.seed, market: { preset: s.preset } }));
  process.stderr.write(`recording ${s.preset} (seed ${s.seed}, ${s.durationS} venue s at ${speed}×, virtual clock)...\n`);
  // Written under another name first: an interrupted recording must not be cached as a whole one.
  await mmbot(['record', '--local', '--venue-config', venue, '--seed', String(s.seed), '--clock-speed', String(speed), '--symbols', s.symbols.join(','), '--duration', String(s.durationS), '--out', `${out}.part`]);
  renameSync(`${out}.part`, out);
  return out;
}

/** A backtest config running one built-in with only size and maxPosition. */
function configFor(leg: Leg): string {
  const [primary, ...others] = leg.symbols;
  const entry: Record<string, unknown> = { id: 'bench', strategy: leg.strategy, params: { size: leg.size, maxPosition: leg.maxPosition } };
  if (others.length > 0) entry['symbols'] = leg.symbols;
  else entry['symbol'] = primary;
  return stringify({
    venue: { mode: 'embedded-sim' },
    bot: { strategies: [entry] },
    // Generous engine limits: the strategy's own maxPosition is what is being measured.
    risk: { max_position: leg.maxPosition * 2, max_order_qty: leg.size * 10, max_order_notional_usd: 10_000_000, max_open_orders: 40 },
    monitoring: { enabled: false },
    // The local venue's default account (the venue sandbox's rates, docs/venue-rules.md §7): maker 0, taker 2 bps.
    // A recording of a real market (--real) carries its source's rates, which then apply instead.
    backtest: { seed: 1, ...(leg.venueFees ? { fees: { maker: 0, taker: 0.0002 } } : {}) },
  });
}

/** Backtests one leg on one recording; a failure becomes a row saying so. */
async function backtest(scenario: string, leg: Leg, data: string, dir: string): Promise<BenchRow> {
  mkdirSync(dir, { recursive: true });
  const cfg = join(dir, 'config.yaml');
  writeFileSync(cfg, configFor(leg));
  try {
    await mmbot(['backtest', '--config', cfg, '--data', data, '--out', dir, '--quiet']);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    // Hedged pairs: the default band is a third of maxPosition (strategies/basis/README.md).
    const hedge = leg.symbols.length > 1 ? hedgeFigures(readFileSync(join(dir, 'fills.csv'), 'utf8'), report.window.start_ms, report.window.end_ms, Math.round(leg.maxPosition / 3)) : null;
    return rowOf(scenario, leg, report, hedge);
  } catch (e) {
    const msg = (e as { stderr?: string }).stderr?.trim() || (e as Error).message.split('\n')[0] || 'failed';
    process.stderr.write(`backtest ${scenario} ${leg.strategy} ${leg.symbols.join('+')} failed: ${msg}\n`);
    return { preset: scenario, strategy: leg.strategy, symbol: leg.symbols.join('+'), error: msg } as BenchRow;
  }
}

const builtins = builtinStrategies.map((d) => d.name).filter((n) => only === undefined || only.includes(n));
const reals = args.lists.get('real') ?? [];

/** Every leg on every scenario of `runSeed`; run directories are named by seed when several run. */
async function venueRows(runSeed: number, multi: boolean): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  for (const s of scenarios(Math.round(minutes * 60), runSeed, presets)) {
    const data = await record(s);
    for (const leg of legs(builtins)) {
      out.push(await backtest(s.preset, leg, data, join(work, 'runs', `${s.preset}${multi ? `-seed${runSeed}` : ''}-${leg.strategy}-${leg.symbols[0]}`)));
    }
  }
  return out;
}

/** The single-symbol built-ins on each --real recording. */
async function realRows(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  for (const path of reals) {
    const rec = await openRecording(resolve(path));
    await rec.close();
    const ins = rec.instruments[0]!;
    const size = ins.minOrderSize * 10;
    for (const leg of legs(builtins).filter((l) => l.symbols.length === 1 && l.symbols[0] === 'EURUSD-PERP')) {
      const real: Leg = { strategy: leg.strategy, symbols: [ins.symbol], size, maxPosition: size * 8, venueFees: false };
      const name = `real:${basename(path).replace(/\.jsonl(\.gz)?$/, '')}`;
      const dir = join(work, 'runs', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}-${leg.strategy}`);
      out.push(await backtest(name, real, resolve(path), dir));
    }
  }
  return out;
}

/** Replaces the text between `<!-- NAME:BEGIN -->` and `<!-- NAME:END -->` of strategies/README.md. */
function writeReadme(marker: string, body: string): void {
  const readme = join(ROOT, 'strategies/README.md');
  if (!existsSync(readme) || only !== undefined) return;
  const next = withMarkedSection(readFileSync(readme, 'utf8'), marker, body);
  if (next === null) return;
  writeFileSync(readme, next);
  process.stdout.write('updated the table in strategies/README.md\n');
}

const machine = `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`;
const realArgs = reals.map((r) => ` --real ${basename(r)}`).join('');
const date = new Date().toISOString().slice(0, 10);
let failed: boolean;
if (seedList === null) {
  const rows = [...(await venueRows(seed, false)), ...(await realRows())];
  const table = formatTable(rows);
  process.stdout.write(`\n${machine}; ${minutes} venue min per preset, seed ${seed}\n${table}\n`);
  writeFileSync(join(ROOT, 'test/bench/strategies-results.json'), `${JSON.stringify({ minutes, seed, rows }, null, 2)}\n`);
  const realNote = reals.length > 0 ? `; \`real:<name>\` rows replay recordings of real markets made by \`mmbot import\` (${reals.map((r) => basename(r)).join(', ')}), at their source's fees` : '';
  writeReadme('BENCH', `\n${minutes} venue minutes per preset, seed ${seed}, \`npm run bench:strategies${reals.map((r) => ` -- --real ${basename(r)}`).join('')}\` (${date})${realNote}:\n\n${table}\n`);
  failed = rows.some((r) => 'error' in r && r.error);
} else {
  const rows: SeededRow[] = [];
  for (const s of seedList) for (const r of await venueRows(s, true)) rows.push({ ...r, seed: s });
  // A real recording is replayed deterministically (latency draws included): one run, seed column 1.
  for (const r of await realRows()) rows.push({ ...r, seed: 1 });
  const summaries = summarize(rows);
  const table = formatSeedTable(summaries);
  const seedsText = seedList.join(', ');
  process.stdout.write(`\n${machine}; ${minutes} venue min per preset, seeds ${seedsText}\n${table}\n`);
  writeFileSync(join(ROOT, 'test/bench/strategies-seeds-results.json'), `${JSON.stringify({ minutes, seeds: seedList, rows, summaries }, null, 2)}\n`);
  const presetText = presets === undefined ? 'every preset' : `presets ${presets.join(', ')}`;
  const realNote = reals.length > 0 ? `; \`real:<name>\` rows replay one recording of a real market (${reals.map((r) => basename(r)).join(', ')}) at its source's fees, run once (a backtest of one recording is deterministic: there is no seed to vary)` : '';
  writeReadme(
    'BENCH-SEEDS',
    `\n${minutes} venue minutes per preset, ${seedList.length} seeds (${seedsText}), ${presetText}, \`npm run bench:strategies -- --minutes ${minutes} --seeds ${seedList.join(',')}${presets === undefined ? '' : ` --presets ${presets.join(',')}`}${realArgs}\` (${date})${realNote}. ` +
      'Mean ± sample standard deviation across seeds; min … max of net USD; the last three columns count the seeds on which the strategy did strictly better than fixed-spread on the same recording and symbol (higher net USD, higher PnL/maxDD, lower p95 |inv|):\n\n' +
      `${table}\n`,
  );
  failed = rows.some((r) => r.error);
}
process.exit(failed ? 1 : 0);
