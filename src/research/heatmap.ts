import { MmError } from '../core/errors.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import type { Leaderboard, LeaderboardEntry } from './leaderboard.ts';

/** One heat-map axis: the parameter and its columns (values, or value ranges when binned). */
export interface HeatAxis {
  readonly path: string;
  readonly labels: readonly string[];
  /** True when numeric values were grouped into ranges (random search: too many distinct values). */
  readonly binned: boolean;
}

/** One cell: the best entry among the points whose two chosen parameters fall in it. */
export interface HeatCell {
  readonly value: number;
  readonly entry: LeaderboardEntry;
  /** How many points fell in the cell (the others lost to `entry` over the remaining axes). */
  readonly count: number;
}

/** Heat-map data for two parameters of a leaderboard. */
export interface HeatMap {
  readonly x: HeatAxis;
  /** null when the grid has a single axis (one row). */
  readonly y: HeatAxis | null;
  /** cells[row][column]; null where no point ran. */
  readonly cells: readonly (readonly (HeatCell | null)[])[];
  /** The axes not shown: each cell holds the best objective over them. */
  readonly others: readonly string[];
}

/** More distinct numeric values than this and an axis is binned into BINS ranges. */
const MAX_COLUMNS = 12;
const BINS = 8;

/**
 * Resolves a parameter named on the command line: an axis path, or a unique last segment
 * (`halfSpreadTicks` for `bot.strategies.0.params.halfSpreadTicks`).
 * @throws MmError USAGE naming the parameter and the axes.
 */
export function resolveAxis(axes: readonly string[], name: string): string {
  if (axes.includes(name)) return name;
  const hits = axes.filter((a) => a.endsWith(`.${name}`));
  if (hits.length === 1) return hits[0]!;
  throw new MmError('USAGE', `--heatmap: "${name}" ${hits.length > 1 ? `is ambiguous (${hits.join(', ')})` : 'is not a grid axis'}; axes: ${axes.join(', ')}`);
}

/**
 * Parses `--heatmap x,y` against the axes (default: the first two axes; one axis gives one row).
 * @throws MmError USAGE on an unknown or repeated parameter.
 */
export function heatAxes(axes: readonly string[], flag: string | undefined): [string, string | null] | null {
  if (flag === undefined) return axes.length === 0 ? null : [axes[0]!, axes[1] ?? null];
  const names = flag.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.length !== 2) throw new MmError('USAGE', `--heatmap: expected two parameters "x,y", got "${flag}"`);
  const x = resolveAxis(axes, names[0]!);
  const y = resolveAxis(axes, names[1]!);
  if (x === y) throw new MmError('USAGE', `--heatmap: the two parameters are the same axis (${x})`);
  return [x, y];
}

const label = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const short = (v: number): string => String(Number(v.toPrecision(3)));

/** The columns of one axis and a function placing a value in one of them. */
function axisOf(path: string, points: readonly GridPoint[]): { axis: HeatAxis; slot: (v: unknown) => number } {
  const seen: unknown[] = [];
  const keys = new Set<string>();
  for (const p of points) {
    const v = p.find(([k]) => k === path)?.[1];
    if (!keys.has(label(v))) (keys.add(label(v)), seen.push(v));
  }
  const numeric = seen.every((v) => typeof v === 'number' && Number.isFinite(v));
  if (numeric && seen.length > MAX_COLUMNS) {
    const nums = seen as number[];
    const lo = Math.min(...nums);
    const hi = Math.max(...nums);
    const log = lo > 0 && hi / lo > 20; // log_uniform samples spread evenly in log space
    const f = (v: number): number => (log ? Math.log(v) : v);
    const width = (f(hi) - f(lo)) / BINS;
    const edge = (k: number): number => (log ? Math.exp(f(lo) + k * width) : lo + k * width);
    const labels = Array.from({ length: BINS }, (_, k) => `${short(edge(k))}–${short(edge(k + 1))}`);
    return { axis: { path, labels, binned: true }, slot: (v) => Math.min(BINS - 1, Math.floor((f(v as number) - f(lo)) / width)) };
  }
  const order = numeric ? [...(seen as number[])].sort((a, b) => a - b) : seen;
  const labels = order.map(label);
  return { axis: { path, labels, binned: false }, slot: (v) => labels.indexOf(label(v)) };
}

/**
 * The heat map of two parameters: each cell holds the best-ranked point among those with the cell's
 * two values (the best over every other axis, which the page says), so the map and the table agree.
 * Only a leaderboard whose values compare like with like belongs in one map: one halving rung's.
 */
export function heatMap(lb: Leaderboard, xPath: string, yPath: string | null, columnsFrom?: readonly GridPoint[]): HeatMap {
  // Columns in the candidates' order (grid order), not the ranking's; `columnsFrom` (every candidate)
  // keeps the columns of a halving rung's map, where fewer points ran, aligned with the others.
  const points = columnsFrom ?? [...lb.entries].sort((a, b) => a.pointIndex - b.pointIndex).map((e) => e.point);
  const x = axisOf(xPath, points);
  const y = yPath === null ? null : axisOf(yPath, points);
  const rows = y === null ? 1 : y.axis.labels.length;
  const cells: (HeatCell | null)[][] = Array.from({ length: rows }, () => Array.from({ length: x.axis.labels.length }, () => null));
  for (const e of lb.entries) {
    if (!Number.isFinite(e.objective)) continue;
    const col = x.slot(e.point.find(([k]) => k === xPath)?.[1]);
    const row = y === null ? 0 : y.slot(e.point.find(([k]) => k === yPath)?.[1]);
    const prev = cells[row]![col];
    // Entries come best first: the first one placed in a cell is its best.
    cells[row]![col] = prev ? { ...prev, count: prev.count + 1 } : { value: e.objective, entry: e, count: 1 };
  }
  return { x: x.axis, y: y?.axis ?? null, cells, others: lb.axes.filter((a) => a !== xPath && a !== yPath) };
}
