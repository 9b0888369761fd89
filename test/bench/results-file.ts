/**
 * test/bench/results.json: metric name → { value, unit, bench }. Every writer (the bench runner per
 * bench file, the soak script) merges through `mergeResults`, which replaces all the figures a
 * given bench wrote before: a bench that no longer reports a metric, or that failed (`null`), leaves
 * no stale figure behind, while other benches' figures stay.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Metric } from './bench-kit.ts';

/** One stored figure, tagged with the bench (file or script) that produced it. */
export interface StoredMetric {
  readonly value: number;
  readonly unit: string;
  readonly bench: string;
}

/** Reads the results file (empty when missing or unreadable). */
export function readResults(path: string): Record<string, StoredMetric> {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, StoredMetric>;
  } catch {
    return {};
  }
}

/**
 * Replaces `bench`'s figures in `previous` with `fresh` (null = the bench failed: drop them).
 * Untagged legacy entries with the same names are replaced too. Sorted by name.
 */
export function replaceBench(previous: Record<string, StoredMetric>, bench: string, fresh: Record<string, Metric> | null): Record<string, StoredMetric> {
  const kept = Object.entries(previous).filter(([k, m]) => m.bench !== bench && !(fresh && k in fresh));
  const added = Object.entries(fresh ?? {}).map(([k, m]): [string, StoredMetric] => [k, { value: Number.isFinite(m.value) ? Number(m.value.toPrecision(6)) : m.value, unit: m.unit, bench }]);
  return Object.fromEntries([...kept, ...added].sort(([a], [b]) => a.localeCompare(b)));
}

/** Reads, replaces `bench`'s figures (see `replaceBench`) and writes the file back. */
export function mergeResults(path: string, bench: string, fresh: Record<string, Metric> | null): Record<string, StoredMetric> {
  const merged = replaceBench(readResults(path), bench, fresh);
  writeFileSync(path, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
