/**
 * `npm run bench:fidelity [-- --data <LOBSTER folder> …] [--quoters glft,…] [--models risk-averse,…] [--no-readme] [--fresh] [--check]`
 * (`-- --fuzz N [--seed S]`: the reference fuzz instead, fuzz.ts):
 * how far the L2 queue models are from the exact queue on real days. For each LOBSTER day (default
 * ../shared/data/amzn-2012-06-21-lobster-L5, the development day, then
 * ../shared/data/aapl-2012-06-21-lobster-L1, the hold-out) it imports the day order-level with
 * order ids, turns it into the L2 feed a vendor would sell (its books as diffs, and its prints
 * without the hidden/cross marks a vendor's tape does not carry; l2-feed.ts), and replays both with
 * the built-in `glft` at its defaults, `fixed-spread` at its defaults and 8 ticks from the mid (near
 * the touch on these wide spreads; size 100, maxPosition 500), and the touch quoter (touch-quoter.ts) one tick inside each touch and at the touch: the
 * order-level recording with the exact FIFO by id (the reference), the vendor feed with each L2
 * queue model as is and with `infer_hidden` (infer-hidden.ts), and the feed with the prints marked
 * (risk-averse; to tell the queue model's error from the unmarked hidden volume's). It prints the
 * table and, when nothing is filtered out, writes it between the FIDELITY markers of
 * src/backtest/README.md. Recordings are cached under .tmp/fidelity/ (--fresh rebuilds them).
 * `--check` holds every replay to the venue's invariants (src/backtest/check/) and prints each one's
 * violation count (and the violations), then does the same for every real recording beside the
 * first day's folder (check-real.ts: AMZN, BTCUSDT, AAPL, NEXOUSDT with fixed-spread); it exits 1 on any.
 */
import { withMarkedSection } from '../bench-kit.ts';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { executeRunSpec, type RunSpec } from '../../../src/backtest/run-spec.ts';
import { buildReport } from '../../../src/backtest/report.ts';
import { defaultSettings, type BacktestSettings } from '../../../src/backtest/settings.ts';
import { flagString, parseArgs } from '../../../src/cli/args.ts';
import { DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../../src/engine/index.ts';
import { loadColumnar, type ColumnarRecording } from '../../../src/record/index.ts';
import type { LobsterImportStats } from '../../../src/record/import/index.ts';
import { importLobsterDay, lobsterDay, toL2Feed } from './l2-feed.ts';
import { tallyRecording } from './undisplayed-prints.ts';
import { fuzzBench } from './fuzz.ts';
import { checkRealRecordings } from './check-real.ts';
import { checkLines, executeCheckedRun } from '../../../src/backtest/check/checked-run.ts';
import { fidelityVerdicts, type Figures, type FidelityRow } from './verdict.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const args = parseArgs(process.argv.slice(2), { repeated: ['data', 'quoters', 'models'], valued: ['fuzz', 'seed'], boolean: ['no-readme', 'fresh', 'check'] });
const check = args.flags.has('check');
/** Violations --check found, per replay. */
const checked: string[] = [];
let violations = 0;
const DEFAULT_DAYS = ['amzn-2012-06-21-lobster-L5', 'aapl-2012-06-21-lobster-L1'].map((d) => join(ROOT, '../shared/data', d));
const days = (args.lists.get('data') ?? DEFAULT_DAYS).map((d) => resolve(d));
const work = join(ROOT, '.tmp/fidelity');
mkdirSync(work, { recursive: true });
const fresh = args.flags.has('fresh');

const L2_MODELS: readonly BacktestSettings['queueModel'][] = [
  { kind: 'risk-averse', n: 2 },
  { kind: 'power', n: 2 },
  { kind: 'power2', n: 2 },
  { kind: 'power3', n: 3 },
  { kind: 'log', n: 2 },
  { kind: 'log2', n: 2 },
];
const size = { size: 100, maxPosition: 500 } as const;
const TOUCH_QUOTER = join(import.meta.dirname, 'touch-quoter.ts');
const QUOTERS = [
  { key: 'glft', name: 'glft (defaults)', strategy: 'glft', params: size },
  { key: 'fixed-spread', name: 'fixed-spread (defaults: 2 ticks from the mid)', strategy: 'fixed-spread', params: size },
  { key: 'fixed-spread-8', name: 'fixed-spread, 8 ticks from the mid (near the touch)', strategy: 'fixed-spread', params: { halfSpreadTicks: 8, ...size } },
  { key: 'inside', name: 'touch quoter, 1 tick inside each touch', strategy: TOUCH_QUOTER, params: { offsetTicks: -1, ...size } },
  { key: 'touch', name: 'touch quoter, at the touch', strategy: TOUCH_QUOTER, params: { offsetTicks: 0, ...size } },
] as const;
const onlyQuoters = args.lists.get('quoters');
const onlyModels = args.lists.get('models');
const filtered = onlyQuoters !== undefined || onlyModels !== undefined || args.lists.has('data');
const wanted = (m: BacktestSettings['queueModel']): boolean => onlyModels === undefined || onlyModels.includes(label(m));

async function main(): Promise<void> {
  const t0 = Date.now();
  const fuzzCases = flagString(args, 'fuzz');
  if (fuzzCases !== undefined) {
    const n = Number(fuzzCases);
    const seed = Number(flagString(args, 'seed') ?? 1);
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--fuzz: expected a positive number of cases, got ${fuzzCases}`);
    if (!Number.isSafeInteger(seed)) throw new Error(`--seed: expected an integer, got ${flagString(args, 'seed')}`);
    process.exitCode = fuzzBench(n, seed) > 0 ? 1 : 0;
    return;
  }
  const sections: string[] = [];
  const rows: FidelityRow[] = [];
  for (const dir of days) {
    const { stats, l3, vendor, marked, symbol, date, depth, markedPath } = await prepare(dir);
    const tally = await tallyRecording(markedPath);
    process.stdout.write(`${symbol}: recordings ready (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
    const lines: string[] = [];
    for (const q of QUOTERS) {
      if (onlyQuoters !== undefined && !onlyQuoters.includes(q.key)) continue;
      const exact = await run(l3, { kind: 'auto', n: 2 }, q, `${symbol} order-level, ${q.name}`);
      lines.push(row(q.name, 'order-level, exact FIFO by id', 'l3-fifo', exact, exact));
      for (const infer of [false, true]) {
        for (const m0 of L2_MODELS) {
          const m = infer ? { ...m0, inferHidden: true } : m0;
          if (!wanted(m)) continue;
          const v = await run(vendor, m, q, `${symbol} L2 vendor feed, ${q.name}`);
          lines.push(row(q.name, 'L2 vendor feed', label(m), v, exact));
          rows.push({ day: symbol, quoter: q.key, model: label(m), figures: v, exact });
        }
      }
      const ra = L2_MODELS[0]!;
      if (wanted(ra)) lines.push(row(q.name, 'L2, prints marked', label(ra), await run(marked, ra, q, `${symbol} L2 prints marked, ${q.name}`), exact));
      process.stdout.write(`${symbol} ${q.name}: done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
    }
    sections.push(
      [
        `**${symbol} ${date}** (LOBSTER, ${depth} level${depth === 1 ? '' : 's'}, 09:30–16:00, ${stats.trades.toLocaleString('en-US')} prints, ${stats.tradedContracts.toLocaleString('en-US')} shares, of which hidden ${stats.hiddenContracts.toLocaleString('en-US')}). `
          + `Prints where the book showed nothing on the side they hit (what infer_hidden reads as hidden): ${tally.undisplayed.toLocaleString('en-US')} shares, `
          + `${tally.undisplayedMarked.toLocaleString('en-US')} of them marked hidden by the source (${share(tally.undisplayedMarked, tally.markedHidden)} of the hidden volume; `
          + `${(tally.undisplayed - tally.undisplayedMarked).toLocaleString('en-US')} visible shares misread).`,
        '',
        '| quoter | replay | queue model | fills | fill volume | Δ volume | net USD | Δ net (bps of notional) |',
        '|---|---|---|---:|---:|---:|---:|---:|',
        ...lines,
      ].join('\n'),
    );
  }
  const table = [
    'Quoters: size 100 a side, |position| ≤ 500, order latency 5 + 5 ms; net = trading PnL − fees (2012 NASDAQ maker rebate and taker fee). '
      + 'Δ against the exact replay of the same quoter on the same day: fill volume in %, net in bps of the exact replay\'s traded notional. '
      + 'Targets: |Δ volume| ≤ 5 %, |Δ net| ≤ 0.2 bps. `+infer-hidden`: the model with `queue_model.infer_hidden: true`.',
    '',
    ...sections.flatMap((s) => [s, '']),
    ...fidelityVerdicts(rows),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  if (!args.flags.has('no-readme') && !filtered) writeReadme('FIDELITY', table);
  if (check) {
    process.stdout.write(`--check: ${violations} violations in ${checked.length} replays\n${checked.join('\n')}\n`);
    const dataDir = resolve(days[0]!, '..');
    const real = await checkRealRecordings(dataDir, join(work, 'check'));
    process.stdout.write(`--check on every real recording of ${dataDir}:\n${real.lines.join('\n')}\n`);
    if (violations + real.violations > 0) process.exitCode = 1;
  }
  process.stdout.write(`total ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}

/** Imports a LOBSTER day (cached) and builds its vendor and marked L2 feeds. */
async function prepare(dir: string): Promise<{ stats: LobsterImportStats; l3: ColumnarRecording; vendor: ColumnarRecording; marked: ColumnarRecording; symbol: string; date: string; depth: number; markedPath: string }> {
  const day = lobsterDay(dir);
  const l3Path = join(work, `${day.key}-l3.jsonl.gz`);
  const stats = await importLobsterDay(day, l3Path, work, fresh);
  const vendorPath = join(work, `${day.key}-l2-vendor.jsonl.gz`);
  const markedPath = join(work, `${day.key}-l2-marked.jsonl.gz`);
  if (fresh || !newer(vendorPath, l3Path)) await toL2Feed(l3Path, vendorPath, { keepConditions: false });
  if (fresh || !newer(markedPath, l3Path)) await toL2Feed(l3Path, markedPath, { keepConditions: true });
  const cacheDir = join(work, 'cache');
  return {
    stats,
    symbol: day.symbol,
    date: day.date,
    depth: day.depth,
    markedPath,
    l3: await loadColumnar([l3Path], { cacheDir }),
    vendor: await loadColumnar([vendorPath], { cacheDir }),
    marked: await loadColumnar([markedPath], { cacheDir }),
  };
}

async function run(col: ColumnarRecording, queueModel: BacktestSettings['queueModel'], q: (typeof QUOTERS)[number], name: string): Promise<Figures> {
  const symbol = col.instruments[0]!.symbol;
  const spec: RunSpec = {
    strategies: [{ id: 'q', symbol, strategy: q.strategy, params: q.params }],
    risk: {
      ...DEFAULT_RISK_CONFIG,
      defaults: { ...DEFAULT_RISK_CONFIG.defaults, maxPosition: 1_000, maxOrderQty: 1_000, maxOrderNotionalUsd: 1_000_000 },
      killSwitch: { ...DEFAULT_RISK_CONFIG.killSwitch, maxDrawdownUsd: 1e9, maxDailyLossUsd: 1e9, staleMarketDataMs: 1e9 },
    },
    execution: DEFAULT_EXECUTION_CONFIG,
    orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    engineFees: null,
    settings: defaultSettings({ queueModel }),
    stopTimeoutMs: 5_000,
  };
  let r;
  if (check) {
    const c = await executeCheckedRun(spec, col);
    r = c.run;
    violations += c.check.violations.length;
    checked.push(`${name}, ${r.exchange.queueModelName}: ${checkLines(c.check).join('\n')}`);
  } else r = await executeRunSpec(spec, col);
  const report = buildReport(r);
  const tick = col.instruments[0]!.grid.tickSize.toNumber();
  let volume = 0;
  let notional = 0;
  for (const f of r.fills) {
    volume += f.qty;
    notional += f.qty * f.priceTicks * tick;
  }
  return { fills: r.fills.length, volume, notionalUsd: notional, netUsd: Number(report.total.pnl.net) };
}

const label = (m: BacktestSettings['queueModel']): string =>
  (m.kind === 'log' || m.kind === 'log2' || m.kind === 'risk-averse' ? m.kind : `${m.kind}(${m.n})`) + (m.inferHidden === true ? '+infer-hidden' : '');
const share = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(1)} %` : '–');
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`;
const bps = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;

function row(quoter: string, replay: string, model: string, f: Figures, exact: Figures): string {
  const ref = f === exact;
  const dv = exact.volume > 0 ? f.volume / exact.volume - 1 : 0;
  const dn = exact.notionalUsd > 0 ? ((f.netUsd - exact.netUsd) / exact.notionalUsd) * 1e4 : 0;
  return `| ${quoter} | ${replay} | ${model} | ${f.fills.toLocaleString('en-US')} | ${f.volume.toLocaleString('en-US')} | ${ref ? '—' : pct(dv)} | ${f.netUsd.toFixed(2)} | ${ref ? '—' : bps(dn)} |`;
}

/** True when `a` exists and is newer than `b`. */
const newer = (a: string, b: string): boolean => existsSync(a) && statSync(a).mtimeMs >= statSync(b).mtimeMs;

/** Replaces the text between `<!-- NAME:BEGIN -->` and `<!-- NAME:END -->` of src/backtest/README.md. */
function writeReadme(marker: string, body: string): void {
  const readme = join(ROOT, 'src/backtest/README.md');
  const next = withMarkedSection(readFileSync(readme, 'utf8'), marker, `\n${body}\n`);
  if (next === null) throw new Error(`src/backtest/README.md has no ${marker} markers`);
  writeFileSync(readme, next);
  process.stdout.write('updated the table in src/backtest/README.md\n');
}

await main();
