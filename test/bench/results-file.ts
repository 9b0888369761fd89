/**
 * test/bench/results.json: metric name → { value, unit, target, bench, machine }. Every writer (the
 * bench runner per bench file, the soak and fuzz scripts) merges through `mergeResults`, which
 * replaces all the figures a given bench wrote before: a bench that no longer reports a metric, or
 * that failed (`null`), leaves no stale figure behind, while other benches' figures stay. Each figure
 * carries its target (null when the bench set none) and the machine it ran on, with the load average
 * when its bench started: figures from a shared, loaded box read low, and say so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { Metric } from './bench-kit.ts';

/** Where a figure was measured: CPU model, logical cores, load average (1, 5, 15 min) when its bench started. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly load_avg_at_start: readonly [number, number, number];
  readonly node: string;
  /** ISO time the bench started. */
  readonly started_at: string;
}

/** One stored figure, tagged with the bench (file or script) that produced it. */
export interface StoredMetric {
  readonly value: number;
  readonly unit: string;
  /** The goal the figure is held to (free text, e.g. `>= 1000000`); null when the bench set none. */
  readonly target?: string | null;
  readonly bench: string;
  /** Absent only on figures written before machines were recorded. */
  readonly machine?: MachineInfo;
}

/** This machine now (call it when a bench starts: the load average is the one it started under). */
export function machineInfo(now: Date = new Date()): MachineInfo {
  const [l1, l5, l15] = loadavg();
  const round = (x: number | undefined): number => Number((x ?? 0).toFixed(2));
  return { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, load_avg_at_start: [round(l1), round(l5), round(l15)], node: process.version, started_at: now.toISOString() };
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
 * Replaces `bench`'s figures in `previous` with `fresh` (null = the bench failed: drop them), each
 * with its target and `machine`. Untagged legacy entries with the same names are replaced too.
 * Sorted by name.
 */
export function replaceBench(previous: Record<string, StoredMetric>, bench: string, fresh: Record<string, Metric> | null, machine: MachineInfo): Record<string, StoredMetric> {
  const kept = Object.entries(previous).filter(([k, m]) => m.bench !== bench && !(fresh && k in fresh));
  const added = Object.entries(fresh ?? {}).map(([k, m]): [string, StoredMetric] => [
    k,
    { value: Number.isFinite(m.value) ? Number(m.value.toPrecision(6)) : m.value, unit: m.unit, target: m.target ? m.target : null, bench, machine },
  ]);
  return Object.fromEntries([...kept, ...added].sort(([a], [b]) => a.localeCompare(b)));
}

/** Reads, replaces `bench`'s figures (see `replaceBench`) and writes the file back. */
export function mergeResults(path: string, bench: string, fresh: Record<string, Metric> | null, machine: MachineInfo): Record<string, StoredMetric> {
  const merged = replaceBench(readResults(path), bench, fresh, machine);
  writeFileSync(path, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
