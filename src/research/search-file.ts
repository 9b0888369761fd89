import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { MmError } from '../core/errors.ts';
import { canonicalJson } from './canonical.ts';
import { expandGrid, type GridPoint } from '../backtest/sweep.ts';
import { parseDurationMs } from './duration.ts';
import { parseEnsembleObjective, type EnsembleObjective } from './ensemble-objective.ts';
import { DEFAULT_OBJECTIVE, DRAWDOWN_FLOOR_USD, parseDrawdownFloor, parseObjective, type Objective } from './objective.ts';
import { sampleRandom, type AxisSpec } from './random-search.ts';

/** How candidates are chosen and run. */
export const SEARCH_MODES = ['grid', 'random', 'halving'] as const;
/** A search mode. */
export type SearchMode = (typeof SEARCH_MODES)[number];

/** A parsed grid (search) file. */
export interface SearchFile {
  readonly file: string;
  readonly search: SearchMode;
  readonly axes: readonly AxisSpec[];
  readonly objective: Objective;
  /** pnl_over_drawdown's divisor floor, USD (`drawdown_floor_usd`, default 0.01). */
  readonly drawdownFloorUsd: number;
  /** random: points to draw; halving: starting candidates drawn at random (null: the full grid). */
  readonly samples: number | null;
  readonly seed: number;
  /** halving: keep the best 1/eta at each rung. */
  readonly eta: number;
  /** halving: the shortest rung's window (null: derived from the candidate count). */
  readonly minWindowMs: number | null;
  /** halving: explicit rung windows (ms; null entry = the whole data), shortest first. */
  readonly rungsMs: readonly (number | null)[] | null;
  /** `ensemble:`: score each run by a statistic of perturbed draws (ensemble-objective.ts); null = one plain run. */
  readonly ensemble: EnsembleObjective | null;
}

const KEYS = ['search', 'grid', 'objective', 'rank_by', 'drawdown_floor_usd', 'samples', 'seed', 'eta', 'min_window', 'rungs', 'ensemble'] as const;
const PATH_RE = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const DISTRIBUTIONS = ['uniform', 'log_uniform', 'int'] as const;

/** Parses one axis: a list of values, or (random and halving) a distribution `{uniform|log_uniform|int: [low, high]}`. */
function parseAxis(file: string, path: string, v: unknown, search: SearchMode): AxisSpec {
  const where = `${file}: grid.${path}`;
  if (!PATH_RE.test(path)) throw new MmError('CONFIG_INVALID', `${where}: expected a dotted path like bot.strategies.0.params.size`, { file, path: `grid.${path}` });
  if (Array.isArray(v)) {
    if (v.length === 0) throw new MmError('CONFIG_INVALID', `${where}: expected a non-empty list of values`, { file, path: `grid.${path}` });
    // A repeated value would plan the same point twice (one job id): a typo, never a wish.
    const seen = new Set<string>();
    for (const x of v) {
      const key = canonicalJson(x);
      if (seen.has(key)) throw new MmError('CONFIG_INVALID', `${where}: value ${key} appears more than once`, { file, path: `grid.${path}` });
      seen.add(key);
    }
    return { path, kind: 'list', values: v };
  }
  const keys = typeof v === 'object' && v !== null ? Object.keys(v) : [];
  const kind = keys[0] as (typeof DISTRIBUTIONS)[number] | undefined;
  if (keys.length !== 1 || !DISTRIBUTIONS.includes(kind!))
    throw new MmError('CONFIG_INVALID', `${where}: expected a list of values${search === 'grid' ? '' : ' or one of {uniform: [low, high]}, {log_uniform: [low, high]}, {int: [low, high]}'}, got ${JSON.stringify(v)}`, { file, path: `grid.${path}` });
  if (search === 'grid') throw new MmError('CONFIG_INVALID', `${where}: a ${kind} distribution needs search: random or halving (a grid takes lists)`, { file, path: `grid.${path}` });
  const range = (v as Record<string, unknown>)[kind!];
  const bad = (why: string): MmError => new MmError('CONFIG_INVALID', `${where}.${kind}: ${why}, got ${JSON.stringify(range)}`, { file, path: `grid.${path}.${kind}` });
  if (!Array.isArray(range) || range.length !== 2 || !range.every((x) => typeof x === 'number' && Number.isFinite(x))) throw bad('expected [low, high] (two numbers)');
  const [low, high] = range as [number, number];
  if (!(high > low)) throw bad('expected high > low');
  if (kind === 'log_uniform' && !(low > 0)) throw bad('expected low > 0 (log scale)');
  if (kind === 'int' && !(Number.isInteger(low) && Number.isInteger(high))) throw bad('expected two integers');
  return { path, kind: kind!, low, high };
}

/** A positive integer key, or its default. */
function positiveInt(file: string, o: Record<string, unknown>, key: string, min: number): number | null {
  const v = o[key];
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new MmError('CONFIG_INVALID', `${file}: ${key}: expected an integer >= ${min}, got ${JSON.stringify(v)}`, { file, path: key });
  return v;
}

/**
 * Reads and validates a grid file: `grid:` (dotted config paths → lists, or distributions for random
 * search), `search: grid | random | halving`, `objective:` (alias `rank_by:`), `samples:`, `seed:`,
 * `eta:`, `min_window:` or `rungs:`.
 * @throws MmError FILE_NOT_FOUND or CONFIG_INVALID naming the file and key.
 */
export function loadSearchFile(file: string): SearchFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MmError('FILE_NOT_FOUND', `cannot read grid ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file });
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    // The yaml package's errors carry a code too (BAD_INDENT...): a syntax error, not a missing file.
    throw new MmError('CONFIG_INVALID', `${file}: not YAML: ${e instanceof Error ? e.message.split('\n')[0]!.replace(/:$/, '') : String(e)}`, { file });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new MmError('CONFIG_INVALID', `${file}: expected a mapping with grid: at the top level`, { file });
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!(KEYS as readonly string[]).includes(k)) throw new MmError('CONFIG_INVALID', `${file}: unknown key "${k}" (expected ${KEYS.join(', ')})`, { file, path: k });
  const search = (o['search'] ?? 'grid') as SearchMode;
  if (!SEARCH_MODES.includes(search)) throw new MmError('CONFIG_INVALID', `${file}: search: expected one of ${SEARCH_MODES.join(', ')}, got ${JSON.stringify(o['search'])}`, { file, path: 'search' });
  const grid = o['grid'];
  if (typeof grid !== 'object' || grid === null || Array.isArray(grid) || Object.keys(grid).length === 0)
    throw new MmError('CONFIG_INVALID', `${file}: grid: expected a mapping of config paths to lists of values`, { file, path: 'grid' });
  const axes = Object.entries(grid as Record<string, unknown>).map(([path, v]) => parseAxis(file, path, v, search));
  if (o['objective'] !== undefined && o['rank_by'] !== undefined) throw new MmError('CONFIG_INVALID', `${file}: rank_by: give objective or rank_by (its old name), not both`, { file, path: 'rank_by' });
  const objKey = o['objective'] !== undefined ? 'objective' : 'rank_by';
  const objective = o[objKey] === undefined ? DEFAULT_OBJECTIVE : parseObjective(o[objKey], `${file}: ${objKey}`);
  const only = (key: string, modes: readonly SearchMode[]): void => {
    if (o[key] !== undefined && !modes.includes(search)) throw new MmError('CONFIG_INVALID', `${file}: ${key}: only for search: ${modes.join(' or ')} (this file searches ${search})`, { file, path: key });
  };
  only('samples', ['random', 'halving']);
  only('seed', ['random', 'halving']);
  for (const k of ['eta', 'min_window', 'rungs']) only(k, ['halving']);
  const samples = positiveInt(file, o, 'samples', 1);
  const continuous = axes.some((a) => a.kind !== 'list');
  if (search === 'random' && samples === null) throw new MmError('CONFIG_INVALID', `${file}: samples: search: random needs samples: <number of points>`, { file, path: 'samples' });
  if (search === 'halving' && continuous && samples === null) throw new MmError('CONFIG_INVALID', `${file}: samples: halving over distributions needs samples: <number of starting candidates>`, { file, path: 'samples' });
  const seed = positiveInt(file, o, 'seed', 0) ?? 1;
  const eta = positiveInt(file, o, 'eta', 2) ?? 3;
  if (o['min_window'] !== undefined && o['rungs'] !== undefined) throw new MmError('CONFIG_INVALID', `${file}: rungs: give min_window or rungs, not both`, { file, path: 'rungs' });
  const minWindowMs = o['min_window'] === undefined ? null : parseDurationMs(o['min_window'], `${file}: min_window`, 'CONFIG_INVALID');
  let rungsMs: (number | null)[] | null = null;
  if (o['rungs'] !== undefined) {
    const r = o['rungs'];
    if (!Array.isArray(r) || r.length < 2) throw new MmError('CONFIG_INVALID', `${file}: rungs: expected a list of at least two durations, shortest first (the last may be "all"), got ${JSON.stringify(r)}`, { file, path: 'rungs' });
    rungsMs = r.map((d, k) => (d === 'all' && k === r.length - 1 ? null : parseDurationMs(d, `${file}: rungs.${k}`, 'CONFIG_INVALID')));
    for (let k = 1; k < rungsMs.length; k++) {
      const prev = rungsMs[k - 1]!;
      const cur = rungsMs[k] ?? null;
      if (cur !== null && !(cur > prev)) throw new MmError('CONFIG_INVALID', `${file}: rungs.${k}: each rung must be longer than the one before (${r[k - 1]} then ${r[k]})`, { file, path: `rungs.${k}` });
    }
  }
  const drawdownFloorUsd = o['drawdown_floor_usd'] === undefined ? DRAWDOWN_FLOOR_USD : parseDrawdownFloor(o['drawdown_floor_usd'], `${file}: drawdown_floor_usd`);
  const ensemble = o['ensemble'] === undefined ? null : parseEnsembleObjective(o['ensemble'], file);
  return { file, search, axes, objective, drawdownFloorUsd, samples, seed, eta, minWindowMs, rungsMs, ensemble };
}

/**
 * The candidate points of a search file: the cartesian grid (grid, and halving without samples) or
 * `samples` seeded random draws (random, and halving with samples).
 * @throws MmError CONFIG_INVALID naming the file when the grid is too large.
 */
export function candidatePoints(s: SearchFile): GridPoint[] {
  try {
    if (s.samples !== null) return sampleRandom(s.axes, s.samples, s.seed);
    return expandGrid(s.axes.map((a) => ({ path: a.path, values: a.kind === 'list' ? a.values : [] })));
  } catch (e) {
    if (e instanceof MmError) throw new MmError(e.code, `${s.file}: ${e.message}`, { file: s.file });
    throw e;
  }
}
