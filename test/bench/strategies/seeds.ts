/**
 * Multi-seed aggregation of the strategy benchmark: one row per (preset, strategy, symbol) with the
 * mean and sample standard deviation across seeds, and a paired comparison against a baseline
 * strategy (fixed-spread) run on the same seeds' recordings. Pure: no I/O.
 */
import type { BenchRow } from './table.ts';

/** A benchmark row and the seed of the recording it ran on. */
export type SeededRow = BenchRow & { readonly seed: number };

/** Mean, sample standard deviation (n − 1; null below 2 samples), min and max of one figure. */
export interface Spread {
  readonly mean: number;
  readonly sd: number | null;
  readonly min: number;
  readonly max: number;
}

/** How often a strategy did better than the baseline on the same seed (strict; ties do not count). */
export interface Paired {
  readonly wins: number;
  /** Seeds on which both the strategy and the baseline ran. */
  readonly pairs: number;
}

/** The figures of one (preset, strategy, symbol) over its seeds. */
export interface SeedSummary {
  readonly preset: string;
  readonly strategy: string;
  readonly symbol: string;
  /** Seeds whose run succeeded, ascending. */
  readonly seeds: readonly number[];
  /** Seeds whose run failed. */
  readonly failedSeeds: readonly number[];
  readonly netUsd: Spread | null;
  readonly pnlOverDrawdown: Spread | null;
  readonly p95AbsInventory: Spread | null;
  readonly fills: Spread | null;
  /** Versus the baseline on the same (preset, symbol, seed); null for the baseline itself or without one. */
  readonly beatsNetUsd: Paired | null;
  readonly beatsPnlOverDrawdown: Paired | null;
  /** A lower p95 |inventory| than the baseline's is the better one. */
  readonly beatsP95AbsInventory: Paired | null;
}

/**
 * The seeds `--seeds` names: a comma-separated list (`11,12,13`), or a count N (`3`) meaning N
 * consecutive seeds from `firstSeed`. Duplicates are dropped, the order is kept.
 * @throws Error naming the bad value.
 */
export function parseSeeds(spec: string, firstSeed: number): number[] {
  const bad = (): Error => new Error(`--seeds must be a count (e.g. 3) or a comma-separated list of seeds (e.g. 11,12,13), got "${spec}"`);
  const parts = spec.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p))) throw bad();
  const values = parts.map(Number);
  if (values.some((v) => !Number.isSafeInteger(v) || v >= 2 ** 31)) throw bad();
  if (parts.length === 1 && !spec.includes(',')) {
    const n = values[0]!;
    if (n < 1 || n > 1000) throw bad();
    return Array.from({ length: n }, (_, i) => firstSeed + i);
  }
  return [...new Set(values)];
}

/** Mean, sample SD, min and max of `xs` (null when empty or when any is not finite). */
export function spreadOf(xs: readonly number[]): Spread | null {
  if (xs.length === 0 || xs.some((x) => !Number.isFinite(x))) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, sd, min: Math.min(...xs), max: Math.max(...xs) };
}

type Figure = 'netUsd' | 'pnlOverDrawdown' | 'p95AbsInventory';

/** Counts the seeds on which `rows` beat `base` on `figure` (higher is better unless `lowerWins`). */
function paired(rows: readonly SeededRow[], base: ReadonlyMap<number, SeededRow>, figure: Figure, lowerWins: boolean): Paired | null {
  let wins = 0;
  let pairs = 0;
  for (const r of rows) {
    const b = base.get(r.seed);
    if (b === undefined || !Number.isFinite(r[figure]) || !Number.isFinite(b[figure])) continue;
    pairs++;
    if (lowerWins ? r[figure] < b[figure] : r[figure] > b[figure]) wins++;
  }
  return pairs === 0 ? null : { wins, pairs };
}

const ok = (r: SeededRow): boolean => r.error === undefined || r.error === '';

/**
 * Groups per-seed rows by (preset, strategy, symbol), in first-seen order, and compares each
 * strategy with `baseline` on the same preset, symbol and seed.
 */
export function summarize(rows: readonly SeededRow[], baseline = 'fixed-spread'): SeedSummary[] {
  const groups = new Map<string, SeededRow[]>();
  const key = (r: { preset: string; strategy: string; symbol: string }): string => JSON.stringify([r.preset, r.strategy, r.symbol]);
  for (const r of rows) {
    const k = key(r);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const out: SeedSummary[] = [];
  for (const group of groups.values()) {
    const { preset, strategy, symbol } = group[0]!;
    const good = group.filter(ok).sort((a, b) => a.seed - b.seed);
    const baseRows = strategy === baseline ? [] : (groups.get(key({ preset, strategy: baseline, symbol })) ?? []).filter(ok);
    const base = new Map(baseRows.map((b) => [b.seed, b]));
    const compare = (figure: Figure, lowerWins = false): Paired | null => (base.size === 0 ? null : paired(good, base, figure, lowerWins));
    out.push({
      preset,
      strategy,
      symbol,
      seeds: good.map((r) => r.seed),
      failedSeeds: group.filter((r) => !ok(r)).map((r) => r.seed).sort((a, b) => a - b),
      netUsd: spreadOf(good.map((r) => r.netUsd)),
      pnlOverDrawdown: spreadOf(good.map((r) => r.pnlOverDrawdown)),
      p95AbsInventory: spreadOf(good.map((r) => r.p95AbsInventory)),
      fills: spreadOf(good.map((r) => r.fills)),
      beatsNetUsd: compare('netUsd'),
      beatsPnlOverDrawdown: compare('pnlOverDrawdown'),
      beatsP95AbsInventory: compare('p95AbsInventory', true),
    });
  }
  return out;
}

const fix = (v: number, digits: number): string => (Object.is(Number(v.toFixed(digits)), -0) ? (0).toFixed(digits) : v.toFixed(digits));
/** `mean ± sd` (just the mean below two seeds); `–` when missing. */
const meanSd = (s: Spread | null, digits: number): string => (s === null ? '–' : s.sd === null ? fix(s.mean, digits) : `${fix(s.mean, digits)} ± ${fix(s.sd, digits)}`);
const range = (s: Spread | null, digits: number): string => (s === null ? '–' : `${fix(s.min, digits)} … ${fix(s.max, digits)}`);
const pair = (p: Paired | null): string => (p === null ? '–' : `${p.wins}/${p.pairs}`);

/**
 * A Markdown table of `summaries`: mean ± sample SD across seeds, net USD's min … max, and the
 * paired "beats baseline on k/N seeds" counts.
 */
export function formatSeedTable(summaries: readonly SeedSummary[], baseline = 'fixed-spread'): string {
  const head = ['preset', 'strategy', 'symbol', 'seeds', 'net USD mean ± sd', 'net USD min … max', 'PnL/maxDD mean ± sd', 'p95 \\|inv\\| mean ± sd', 'fills mean', `net USD > ${baseline}`, `PnL/maxDD > ${baseline}`, `p95 \\|inv\\| < ${baseline}`];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const s of summaries) {
    const seeds = `${s.seeds.length}${s.failedSeeds.length > 0 ? ` (failed: ${s.failedSeeds.join(', ')})` : ''}`;
    lines.push(
      `| ${[s.preset, s.strategy, s.symbol, seeds, meanSd(s.netUsd, 2), range(s.netUsd, 2), meanSd(s.pnlOverDrawdown, 2), meanSd(s.p95AbsInventory, 0), s.fills === null ? '–' : fix(s.fills.mean, 0), pair(s.beatsNetUsd), pair(s.beatsPnlOverDrawdown), pair(s.beatsP95AbsInventory)].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}
