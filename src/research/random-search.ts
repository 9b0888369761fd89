import { MmError } from '../core/errors.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import { pointKey } from './leaderboard.ts';
import { seededRandomU32 } from '../core/ulid.ts';

/** How one search axis draws its values. */
export type AxisSpec =
  | { readonly path: string; readonly kind: 'list'; readonly values: readonly unknown[] }
  | { readonly path: string; readonly kind: 'uniform' | 'log_uniform' | 'int'; readonly low: number; readonly high: number };

/** A seeded generator of uniform numbers in [0, 1) (mulberry32: small, fast, the same sequence on every platform). */
export function seededUniform(seed: number): () => number {
  const next = seededRandomU32(seed);
  return () => next() / 4_294_967_296;
}

/** Rounds to 6 significant digits, so sampled values read well in configs and reports. */
const tidy = (v: number): number => Number(v.toPrecision(6));

/** Draws one value of an axis. */
function draw(a: AxisSpec, u: () => number): unknown {
  switch (a.kind) {
    case 'list':
      return a.values[Math.min(a.values.length - 1, Math.floor(u() * a.values.length))];
    case 'uniform':
      return tidy(a.low + (a.high - a.low) * u());
    case 'log_uniform':
      return tidy(Math.exp(Math.log(a.low) + (Math.log(a.high) - Math.log(a.low)) * u()));
    case 'int':
      return a.low + Math.min(a.high - a.low, Math.floor(u() * (a.high - a.low + 1)));
  }
}

/** The number of distinct points the axes can give, Infinity when an axis is continuous. */
export function spaceSize(axes: readonly AxisSpec[]): number {
  let n = 1;
  for (const a of axes) n *= a.kind === 'list' ? new Set(a.values.map((v) => JSON.stringify(v))).size : a.kind === 'int' ? a.high - a.low + 1 : Infinity;
  return n;
}

/**
 * Random search: `samples` distinct points drawn from the axes with a seeded generator (axis order
 * fixed, one draw per axis per point), so the same file and seed give the same points in the same
 * order. Duplicates are redrawn; when the space holds fewer distinct points than asked, all of them
 * are returned (in drawn order), so a small discrete space never loops.
 * @throws MmError CONFIG_INVALID when samples is not a positive integer.
 */
export function sampleRandom(axes: readonly AxisSpec[], samples: number, seed: number): GridPoint[] {
  if (!Number.isInteger(samples) || samples < 1) throw new MmError('CONFIG_INVALID', `samples: expected a positive integer, got ${samples}`);
  const want = Math.min(samples, spaceSize(axes));
  const u = seededUniform(seed);
  const seen = new Set<string>();
  const out: GridPoint[] = [];
  // Enough attempts to find every point of a small space with overwhelming probability; the
  // enumerated fallback below completes it deterministically otherwise.
  for (let attempt = 0; out.length < want && attempt < want * 200; attempt++) {
    const p: GridPoint = axes.map((a) => [a.path, draw(a, u)] as const);
    const k = pointKey(p);
    if (!seen.has(k)) (seen.add(k), out.push(p));
  }
  if (out.length < want && Number.isFinite(want)) {
    for (const p of enumerate(axes)) {
      if (out.length >= want) break;
      const k = pointKey(p);
      if (!seen.has(k)) (seen.add(k), out.push(p));
    }
  }
  return out;
}

/** Every point of a discrete space, first axis slowest. */
function enumerate(axes: readonly AxisSpec[]): GridPoint[] {
  let pts: GridPoint[] = [[]];
  for (const a of axes) {
    const values = a.kind === 'list' ? a.values : a.kind === 'int' ? Array.from({ length: a.high - a.low + 1 }, (_, k) => a.low + k) : [];
    pts = pts.flatMap((p) => values.map((v) => [...p, [a.path, v] as const]));
  }
  return pts;
}
